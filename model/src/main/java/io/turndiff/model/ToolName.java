package io.turndiff.model;

/**
 * The rule for a runtime's name of a tool ({@code Write}, {@code apply_patch}, {@code
 * mcp__turndiff__list_turns}) as the store keeps it beside a tool call and every view lists it: at
 * most 128 characters, none of them a control character.
 *
 * <p>The name is a label, and it comes from a payload anyone who can call the service may write, so
 * it is bounded like every other field a view prints. A client that names the tool itself (the HTTP
 * snapshot's {@code tool}) is told when its name breaks the rule; a runtime's hook payload is never
 * refused for its label (the snapshot it asks for matters more than the name shown beside it), so
 * its name is kept as far as the rule allows.
 */
public final class ToolName {

  /** The longest name kept, in characters: runtimes' own names are far shorter (MCP's ~60). */
  public static final int MAX_LENGTH = 128;

  private ToolName() {}

  /** Whether a name a client gave keeps the rule: 1–128 characters, no control characters. */
  public static boolean isValid(String name) {
    return !name.isEmpty()
        && name.length() <= MAX_LENGTH
        && name.chars().noneMatch(Character::isISOControl);
  }

  /**
   * A runtime's name as far as the rule allows: control characters replaced by {@code ?}, cut to
   * {@link #MAX_LENGTH} characters (never inside a surrogate pair).
   */
  public static String bounded(String name) {
    StringBuilder kept = new StringBuilder(Math.min(name.length(), MAX_LENGTH));
    name.codePoints()
        .forEach(
            c -> {
              if (kept.length() + Character.charCount(c) <= MAX_LENGTH) {
                kept.appendCodePoint(Character.isISOControl(c) ? '?' : c);
              }
            });
    return kept.toString();
  }
}
