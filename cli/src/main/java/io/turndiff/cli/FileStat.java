package io.turndiff.cli;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.Containment;
import io.turndiff.store.StoredFileChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A turn's files as {@code git show --stat} lists a commit's: per file a letter for the change, the
 * path, the lines added and removed and a bar of {@code +} and {@code -}, then the totals.
 *
 * <p>Under a file, indented, what its JSON record says that a person must not miss: that it cannot
 * be rewound and why ({@code restorable}, {@code detail}), that it reached outside the workspace
 * ({@code containment}), and the other turns that could have made the change ({@code
 * also_possible}). A view that showed the letter alone would let the rewind's skip be the first the
 * person hears of it.
 *
 * <pre>
 *  M src/app.py | 7 ++++---
 *      also possible: turn B1 of session B
 *  A src/new.py | 3 +++
 *  ? link.txt   | not known (a side was not captured)
 *      cannot be rewound: touched outside the workspace: not captured
 *      containment: escaped
 *  3 files changed, 7 insertions(+), 3 deletions(-)
 * </pre>
 */
final class FileStat {

  /** The longest bar, in characters: a change of more lines is drawn to scale. */
  private static final int BAR = 40;

  private final Terminal terminal;

  FileStat(Terminal terminal) {
    this.terminal = terminal;
  }

  /**
   * One line per changed file (unchanged ones left out), then the totals; each ends in a newline.
   */
  String of(List<StoredFileChange> changes) {
    List<StoredFileChange> changed =
        changes.stream()
            .filter(change -> change.change().orElse(ChangeKind.MODIFIED) != ChangeKind.UNCHANGED)
            .toList();
    int pathWidth = changed.stream().mapToInt(change -> shown(change).length()).max().orElse(0);
    long most =
        changed.stream()
            .mapToLong(change -> change.linesAdded() + change.linesRemoved())
            .max()
            .orElse(0);
    int countWidth = Long.toString(most).length();
    StringBuilder text = new StringBuilder();
    long added = 0;
    long removed = 0;
    for (StoredFileChange change : changed) {
      added += change.linesAdded();
      removed += change.linesRemoved();
      String path = shown(change);
      text.append(' ')
          .append(letter(change))
          .append(' ')
          .append(path)
          .append(" ".repeat(pathWidth - path.length()))
          .append(" | ")
          .append(detail(change, countWidth, most))
          .append('\n');
      for (String note : notes(change)) {
        text.append("     ").append(terminal.paint(Terminal.YELLOW, note)).append('\n');
      }
    }
    text.append(' ')
        .append(RelativeTime.count(changed.size(), "file"))
        .append(" changed, ")
        .append(RelativeTime.count(added, "insertion"))
        .append("(+), ")
        .append(RelativeTime.count(removed, "deletion"))
        .append("(-)\n");
    return text.toString();
  }

  /**
   * What the record says beyond the letter and the lines: not restorable and why, containment, and
   * the other turns that could have made the change; none for an ordinary change.
   */
  static List<String> notes(StoredFileChange change) {
    List<String> notes = new ArrayList<>();
    Optional<String> why = change.detail().map(Terminal::printable);
    if (!change.restorable()) {
      notes.add(
          "cannot be rewound: "
              + why.orElseGet(
                  () ->
                      "its before-state was not captured"
                          + change
                              .before()
                              .asFile()
                              .reason()
                              .map(reason -> " (" + reason.code() + ")")
                              .orElse("")));
    } else {
      why.ifPresent(notes::add);
    }
    if (change.containment() != Containment.INSIDE) {
      notes.add("containment: " + change.containment().code());
    }
    if (!change.alsoPossible().isEmpty()) {
      notes.add(
          "also possible: "
              + change.alsoPossible().stream()
                  .map(other -> "turn " + other.turn() + " of session " + other.session())
                  .collect(Collectors.joining(", ")));
    }
    return notes;
  }

  private static String shown(StoredFileChange change) {
    return Terminal.printable(change.path().display());
  }

  /** git's status letters; {@code ?} for a change that could not be told ({@code unknown}). */
  private String letter(StoredFileChange change) {
    return switch (change.change().orElse(null)) {
      case ADDED, DIRECTORY_CREATED -> terminal.paint(Terminal.GREEN, "A");
      case DELETED, DIRECTORY_REMOVED -> terminal.paint(Terminal.RED, "D");
      case MODIFIED -> "M";
      case TYPE_CHANGED -> "T";
      case UNKNOWN -> terminal.paint(Terminal.YELLOW, "?");
      case UNCHANGED -> " ";
      case null -> terminal.paint(Terminal.YELLOW, "…");
    };
  }

  /** The count and the bar; for a change that has no lines, what it was instead. */
  private String detail(StoredFileChange change, int countWidth, long most) {
    ChangeKind kind = change.change().orElse(null);
    if (kind == null) {
      return "open";
    }
    long lines = change.linesAdded() + change.linesRemoved();
    if (lines == 0) {
      return switch (kind) {
        case DIRECTORY_CREATED, DIRECTORY_REMOVED -> "directory";
        case UNKNOWN -> "not known (a side was not captured)";
        default -> change.diffPending() ? "diff pending" : "no lines (binary, empty or mode)";
      };
    }
    double scale = most <= BAR ? 1 : (double) BAR / most;
    int plus = (int) Math.ceil(change.linesAdded() * scale);
    int minus = (int) Math.ceil(change.linesRemoved() * scale);
    String count = Long.toString(lines);
    return " ".repeat(countWidth - count.length())
        + count
        + " "
        + terminal.paint(Terminal.GREEN, "+".repeat(plus))
        + terminal.paint(Terminal.RED, "-".repeat(minus));
  }
}
