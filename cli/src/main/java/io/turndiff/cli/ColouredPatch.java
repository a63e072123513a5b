package io.turndiff.cli;

/**
 * A patch as {@code git diff} shows it to a person: headers bold, hunk lines cyan, added lines
 * green and removed ones red, control characters shown as {@code ^X}; and a binary file's patch
 * (git's base85 {@code GIT binary patch} block, which is for {@code git apply}, not for eyes) as
 * {@code Binary files a/P and b/P differ}, as git without {@code --binary} says it. Piped, {@code
 * turndiff diff} still prints the patch whole, binary blocks and all. A turn's patch has each
 * hunk's number after its {@code @@} line ({@code hunk 2}), counted per file from 1, the number
 * {@code rewind --hunk PATH:N} takes; a stretch of turns' patch has none (its hunks are no one
 * turn's).
 */
final class ColouredPatch {

  private static final String FILE = "diff --git ";
  private static final String BINARY = "GIT binary patch";

  private ColouredPatch() {}

  /** A stretch of turns' patch: its hunks unnumbered. */
  static String of(String patch, Terminal terminal) {
    return of(patch, terminal, false);
  }

  /**
   * @param numbered whether each hunk gets its number in its file (a turn's patch)
   */
  static String of(String patch, Terminal terminal, boolean numbered) {
    StringBuilder shown = new StringBuilder(patch.length() + patch.length() / 8);
    String file = "";
    boolean inHunk = false;
    boolean inBinary = false;
    int hunk = 0;
    for (String line : patch.split("\n", -1)) {
      if (line.startsWith(FILE)) {
        file = line.substring(FILE.length());
        inHunk = false;
        inBinary = false;
        hunk = 0;
      } else if (inBinary) {
        continue; // base85 lines never begin with "diff --git " (there is no space in base85)
      } else if (line.equals(BINARY)) {
        inBinary = true;
        shown.append(binary(file)).append('\n');
        continue;
      } else if (line.startsWith("@@")) {
        inHunk = true;
        hunk++;
        if (numbered) {
          shown
              .append(colour(Terminal.printable(line), true, terminal))
              .append(terminal.paint(Terminal.DIM, "  hunk " + hunk))
              .append('\n');
          continue;
        }
      }
      shown.append(colour(Terminal.printable(line), inHunk, terminal)).append('\n');
    }
    // split keeps a last empty element for the patch's final newline: one newline too many
    String text = shown.substring(0, Math.max(0, shown.length() - 1));
    return patch.endsWith("\n") && !text.endsWith("\n") ? text + "\n" : text;
  }

  private static String colour(String line, boolean inHunk, Terminal terminal) {
    if (line.isEmpty()) {
      return line;
    }
    if (!inHunk) {
      return terminal.paint(Terminal.BOLD, line);
    }
    return switch (line.charAt(0)) {
      case '@' -> terminal.paint(Terminal.CYAN, line);
      case '+' -> terminal.paint(Terminal.GREEN, line);
      case '-' -> terminal.paint(Terminal.RED, line);
      case '\\' -> terminal.paint(Terminal.DIM, line);
      default -> line;
    };
  }

  /**
   * git's line for a binary change of the file the header {@code a/P b/P} names (the two names are
   * the same: turndiff records no renames); just "Binary files differ" when it cannot be split.
   */
  private static String binary(String names) {
    int half = (names.length() - 1) / 2;
    if (names.length() % 2 == 1
        && names.charAt(half) == ' '
        && names.startsWith("a/")
        && names.substring(half + 1).startsWith("b/")
        && names.substring(2, half).equals(names.substring(half + 3))) {
      return "Binary files "
          + names.substring(0, half)
          + " and "
          + names.substring(half + 1)
          + " differ";
    }
    return "Binary files differ";
  }
}
