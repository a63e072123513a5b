package io.turndiff.cli;

import io.turndiff.api.wire.WireToolCall;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.Rename;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Containment;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredFileChange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A turn's files as {@code git show --stat} lists a commit's: per file a letter for the change, the
 * path, the lines added and removed and a bar of {@code +} and {@code -}, then the totals.
 *
 * <p>Under a file, indented, what its JSON record says that a person must not miss: that it cannot
 * be rewound and why ({@code restorable}, {@code detail}), that it reached outside the workspace
 * ({@code containment}), the other turns that could have made the change ({@code also_possible}),
 * and that git ignores the file ({@code ignored}: its diff may hold secrets). A view that showed
 * the letter alone would let the rewind's skip be the first the person hears of it.
 *
 * <pre>
 *  M src/app.py | 7 ++++---
 *      also possible: turn B1 of session B
 *  A src/new.py | 3 +++
 *      by Write
 *  M .env       | 2 +-
 *      ignored by git
 *  R lib/a.py → src/a.py (96%) | 2 +-
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
    return of(changes, List.of(), rename -> FilePatch.NONE);
  }

  /**
   * As {@link #of(List)}, with each of {@code renames} one line as {@code git show --stat -M} gives
   * it: {@code R old → new (N%)} on the new path's row with the rename's own lines ({@code
   * patchOf}), the old path's row left out.
   */
  String of(
      List<StoredFileChange> changes, List<Rename> renames, Function<Rename, FilePatch> patchOf) {
    Map<WorkspacePath, Rename> byNewPath = new HashMap<>();
    renames.forEach(rename -> byNewPath.put(rename.to(), rename));
    Set<WorkspacePath> oldPaths = renames.stream().map(Rename::from).collect(Collectors.toSet());
    List<Row> changed =
        changes.stream()
            .filter(change -> change.change().orElse(ChangeKind.MODIFIED) != ChangeKind.UNCHANGED)
            .filter(change -> !oldPaths.contains(change.path()))
            .map(
                change ->
                    Row.of(change, Optional.ofNullable(byNewPath.get(change.path())), patchOf))
            .toList();
    int pathWidth = changed.stream().mapToInt(row -> row.shown().length()).max().orElse(0);
    long most = changed.stream().mapToLong(row -> row.added() + row.removed()).max().orElse(0);
    int countWidth = Long.toString(most).length();
    StringBuilder text = new StringBuilder();
    long added = 0;
    long removed = 0;
    for (Row row : changed) {
      added += row.added();
      removed += row.removed();
      text.append(' ')
          .append(row.rename().isPresent() ? "R" : letter(row.change()))
          .append(' ')
          .append(row.shown())
          .append(" ".repeat(pathWidth - row.shown().length()))
          .append(" | ")
          .append(detail(row, countWidth, most))
          .append('\n');
      for (String note : notes(row.change())) {
        text.append("     ").append(terminal.paint(Terminal.YELLOW, note)).append('\n');
      }
      if (!row.change().calls().isEmpty()) {
        text.append("     by ").append(tools(row.change())).append('\n');
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
   * The tools that touched the file, in the order the turn recorded them: {@code Write, Bash: sed
   * -i s/a/b/ a.txt}; a call whose runtime gave no tool name is named by its id.
   */
  private static String tools(StoredFileChange change) {
    return change.calls().stream()
        .map(call -> Terminal.printable(WireToolCall.named(call)))
        .collect(Collectors.joining(", "));
  }

  /**
   * A file's row: its record, the path as shown, and its lines (a rename's own, from the old
   * content to the new, where the record counts the whole file added).
   */
  private record Row(
      StoredFileChange change, Optional<Rename> rename, String shown, long added, long removed) {

    static Row of(
        StoredFileChange change, Optional<Rename> rename, Function<Rename, FilePatch> patchOf) {
      if (rename.isEmpty()) {
        return new Row(
            change, rename, FileStat.shown(change), change.linesAdded(), change.linesRemoved());
      }
      FilePatch patch = patchOf.apply(rename.get());
      return new Row(
          change,
          rename,
          Terminal.printable(rename.get().from().display())
              + " → "
              + Terminal.printable(rename.get().to().display())
              + " ("
              + rename.get().similarity()
              + "%)",
          patch.added(),
          patch.removed());
    }
  }

  /**
   * What the record says beyond the letter and the lines: not restorable and why, containment, the
   * other turns that could have made the change, and that git ignores the file; none for an
   * ordinary change.
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
    if (change.ignoredByGit()) {
      notes.add("ignored by git");
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
  private String detail(Row row, int countWidth, long most) {
    StoredFileChange change = row.change();
    ChangeKind kind = change.change().orElse(null);
    if (kind == null) {
      return "open";
    }
    long lines = row.added() + row.removed();
    if (lines == 0) {
      if (row.rename().isPresent()) {
        return "renamed";
      }
      return switch (kind) {
        case DIRECTORY_CREATED, DIRECTORY_REMOVED -> "directory";
        case UNKNOWN -> "not known (a side was not captured)";
        default -> change.diffPending() ? "diff pending" : "no lines (binary, empty or mode)";
      };
    }
    double scale = most <= BAR ? 1 : (double) BAR / most;
    int plus = (int) Math.ceil(row.added() * scale);
    int minus = (int) Math.ceil(row.removed() * scale);
    String count = Long.toString(lines);
    return " ".repeat(countWidth - count.length())
        + count
        + " "
        + terminal.paint(Terminal.GREEN, "+".repeat(plus))
        + terminal.paint(Terminal.RED, "-".repeat(minus));
  }
}
