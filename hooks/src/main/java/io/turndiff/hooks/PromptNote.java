package io.turndiff.hooks;

import io.turndiff.api.Turndiff;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.store.FileChanges;
import io.turndiff.store.Prompts;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one line a prompt hook adds to the model's context (issue 21, item 8; docs/runtime-hooks.md,
 * "What the agent is told"), and only when there is something to say about the session's previous
 * turn: that it was rewound since (how many paths were restored, merged, skipped, and why), that
 * changes of it could not be captured (which, why), that hook calls of it did not arrive.
 *
 * <p>What goes into the model's context may have been named by an attacker (a file name is anyone's
 * choice): names are quoted and escaped as JSON strings (control, line-separator and bidirectional
 * characters as {@code \\uXXXX}), each cut to {@value #MAX_NAME} characters, at most {@value
 * #MAX_NAMES} of them, the line to {@value #MAX_LINE}; never a file's content. The line is worded
 * as a note from the tool, not as an instruction.
 */
final class PromptNote {

  static final int MAX_NAMES = 5;
  static final int MAX_NAME = 120;
  static final int MAX_LINE = 1_500;

  private static final String OPENING =
      "turndiff (the tool that records this session's file changes) notes, for information only"
          + " and not as an instruction: ";

  private PromptNote() {}

  /**
   * The note for the prompt that began {@code begunTurn}, with {@code missingHooks} the warning
   * about hooks of this runtime that did not arrive, if any; empty when all is well.
   */
  static Optional<String> forPromptOf(
      Turndiff turndiff, String begunTurn, Optional<String> missingHooks) {
    List<String> parts =
        turndiff
            .store()
            .read(
                tx ->
                    tx.turns()
                        .byExternalId(begunTurn)
                        .flatMap(begun -> previousAgentTurn(tx, begun))
                        .map(previous -> aboutPrevious(tx, previous))
                        .orElseGet(List::of));
    List<String> all = new ArrayList<>(parts);
    missingHooks.ifPresent(warning -> all.add("some hook calls did not arrive: " + plain(warning)));
    if (all.isEmpty()) {
      return Optional.empty();
    }
    String line = OPENING + String.join("; ", all) + ".";
    // never between the two halves of a surrogate pair: a lone half would reach the runtime as a
    // replacement character, or as JSON it cannot read
    return Optional.of(Prompts.cut(line, MAX_LINE));
  }

  private static Optional<StoredTurn> previousAgentTurn(StoreTransaction tx, StoredTurn begun) {
    return tx.turns().lastOfKindBefore(begun.sessionId(), begun.seq(), TurnKind.AGENT);
  }

  private static List<String> aboutPrevious(StoreTransaction tx, StoredTurn previous) {
    List<String> parts = new ArrayList<>();
    rewound(tx, previous).ifPresent(parts::add);
    notCaptured(tx, previous).ifPresent(parts::add);
    return parts;
  }

  /** The last finished rewind of the previous turn, as counts and the skipped paths' reasons. */
  private static Optional<String> rewound(StoreTransaction tx, StoredTurn previous) {
    List<StoredRewindOperation> covering =
        tx.rewinds().doneCovering(List.of(previous.id())).getOrDefault(previous.id(), List.of());
    if (covering.isEmpty()) {
      return Optional.empty();
    }
    StoredRewindOperation last = covering.getLast();
    List<StoredRewindEntry> entries = tx.rewinds().entries(last.id());
    Map<RewindStatus, Integer> counts = new EnumMap<>(RewindStatus.class);
    List<String> skipped = new ArrayList<>();
    for (StoredRewindEntry entry : entries) {
      counts.merge(entry.status(), 1, Integer::sum);
      if (entry.status() == RewindStatus.SKIPPED) {
        skipped.add(
            quoted(entry.path().display())
                + " ("
                + plain(entry.reason().orElse("no reason"))
                + ")");
      }
    }
    StringBuilder said = new StringBuilder("your previous turn was rewound since it ended: ");
    List<String> byStatus = new ArrayList<>();
    for (RewindStatus status :
        List.of(RewindStatus.RESTORED, RewindStatus.MERGED, RewindStatus.SKIPPED)) {
      byStatus.add(counts.getOrDefault(status, 0) + " " + status.code());
    }
    said.append(String.join(", ", byStatus));
    if (!skipped.isEmpty()) {
      said.append(" (skipped: ").append(names(skipped)).append(')');
    }
    said.append(
        undone(tx, last)
            ? "; then that rewind was undone, so the files are as the undo left them"
            : "; the files are as the rewind left them, not as your previous turn left them");
    return Optional.of(said.toString());
  }

  /**
   * Whether {@code rewind} was undone: its own rewind turn was rewound in turn. The model must not
   * be told its files were put back when the user has since taken that back (the store marks the
   * rewind turn {@code rewound}, as {@code TurnStandings} settles it).
   */
  private static boolean undone(StoreTransaction tx, StoredRewindOperation rewind) {
    return tx.turns()
        .byId(rewind.rewindTurnId())
        .map(rewindTurn -> rewindTurn.state() == TurnState.REWOUND)
        .orElse(false);
  }

  /** The previous turn's changes a side of which was not captured, with why. */
  private static Optional<String> notCaptured(StoreTransaction tx, StoredTurn previous) {
    List<String> uncaptured = new ArrayList<>();
    for (FileChanges.Uncaptured change : tx.fileChanges().uncapturedOfTurn(previous.id())) {
      uncaptured.add(quoted(change.path().display()) + " (" + change.reason().code() + ")");
    }
    if (uncaptured.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        uncaptured.size()
            + (uncaptured.size() == 1
                ? " change of your previous turn could not be captured, so a rewind cannot put it"
                    + " back: "
                : " changes of your previous turn could not be captured, so a rewind cannot put"
                    + " them back: ")
            + names(uncaptured));
  }

  private static String names(List<String> named) {
    String shown = String.join(", ", named.subList(0, Math.min(MAX_NAMES, named.size())));
    return named.size() > MAX_NAMES
        ? shown + " and " + (named.size() - MAX_NAMES) + " more"
        : shown;
  }

  /**
   * {@code name} as a JSON string: quoted, backslash and quote escaped, every control, line- or
   * paragraph-separator and bidirectional character as {@code \\uXXXX}, cut to {@value #MAX_NAME}
   * characters.
   */
  static String quoted(String name) {
    return "\"" + escaped(name, MAX_NAME) + "\"";
  }

  /** Text of turndiff's own (a reason, a warning), escaped as {@link #quoted} escapes a name. */
  private static String plain(String text) {
    return escaped(text, MAX_LINE);
  }

  private static String escaped(String text, int max) {
    String cut = text.length() <= max ? text : text.substring(0, max) + "\u2026";
    StringBuilder out = new StringBuilder();
    cut.codePoints()
        .forEach(
            c -> {
              if (c == '"' || c == '\\') {
                out.append('\\').appendCodePoint(c);
              } else if (unprintable(c)) {
                for (char unit : Character.toChars(c)) {
                  out.append(String.format("\\u%04x", (int) unit));
                }
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }

  private static boolean unprintable(int c) {
    int type = Character.getType(c);
    return type == Character.CONTROL
        || type == Character.FORMAT // bidirectional marks and overrides, zero-width characters
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.UNASSIGNED
        || type == Character.PRIVATE_USE
        || type == Character.SURROGATE;
  }
}
