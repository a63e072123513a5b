package io.turndiff.cli;

import io.turndiff.api.Turndiff;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.review.ListedTurn;
import io.turndiff.review.RewoundBy;
import io.turndiff.review.TurnPage;
import io.turndiff.review.TurnRewinds;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.TurnListing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A page of a session's turns as a table for a person, one turn a line, oldest first (the newest
 * ends up beside the prompt): number, short id, when it began, title (its prompt's first line when
 * the store kept it), files, lines added and removed, and how it stands to rewinds.
 *
 * <pre>
 *   #3  turn-3f2a9c0d…  12 minutes ago  src/app.py and 2 more  3 files  +12 -4  rewound by #5
 *   #4  turn-77b01e2a…   5 minutes ago  x.txt                  1 file    +1 -1  1 shared
 * </pre>
 *
 * <p>The last column also counts what {@code show} lists under a turn's files: files that cannot be
 * rewound and changes shared with another session's turn.
 */
final class TurnTable {

  private final Turndiff turndiff;
  private final Terminal terminal;
  private final Instant now;

  TurnTable(Turndiff turndiff, Terminal terminal) {
    this.turndiff = turndiff;
    this.terminal = terminal;
    this.now = turndiff.store().clock().instant();
  }

  /** The panel's short form of an id: its first 13 characters and an ellipsis past 14. */
  static String shortId(String id) {
    return id.length() > 14 ? id.substring(0, 13) + TurnReference.ELLIPSIS : id;
  }

  /** The lines of the table of {@code page}, each ending in a newline. */
  String rows(TurnPage page) {
    Map<String, Long> seqs = new HashMap<>();
    page.turns()
        .forEach(
            listed ->
                seqs.put(listed.listing().turn().externalId(), listed.listing().turn().seq()));
    Function<String, String> label = id -> seqs.containsKey(id) ? "#" + seqs.get(id) : shortId(id);
    List<String[]> cells = new ArrayList<>();
    for (ListedTurn listed : page.turns()) {
      cells.add(cells(listed, label));
    }
    int[] widths = new int[cells.isEmpty() ? 0 : cells.getFirst().length];
    for (String[] row : cells) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    String[] colours = {
      Terminal.BOLD, Terminal.YELLOW, "", "", "", Terminal.GREEN, Terminal.RED, Terminal.DIM
    };
    StringBuilder table = new StringBuilder();
    for (String[] row : cells) {
      StringBuilder line = new StringBuilder(" ");
      for (int i = 0; i < row.length; i++) {
        String cell = row[i];
        // numbers right-aligned, words left-aligned; the last column is not padded
        boolean number = i == 0 || i == 4 || i == 5 || i == 6;
        String padded =
            i == row.length - 1
                ? cell
                : number
                    ? " ".repeat(widths[i] - cell.length()) + cell
                    : cell + " ".repeat(widths[i] - cell.length());
        line.append(' ').append(colours[i].isEmpty() ? padded : terminal.paint(colours[i], padded));
      }
      table.append(line.toString().stripTrailing()).append('\n');
    }
    return table.toString();
  }

  private String[] cells(ListedTurn listed, Function<String, String> label) {
    TurnListing listing = listed.listing();
    StoredTurn turn = listing.turn();
    List<StoredFileChange> changes =
        turn.kind() == TurnKind.REWIND
            ? List.of()
            : turndiff.queries().records(turn.externalId()).changes();
    String title =
        TurnTitle.cut(
            TurnTitle.of(turn, listed.title(), changes, listed.rewinds(), label), TurnTitle.WIDTH);
    return new String[] {
      "#" + turn.seq(),
      shortId(turn.externalId()),
      RelativeTime.of(turn.beganAt(), now),
      title,
      RelativeTime.count(listing.changed(), "file"),
      "+" + listing.linesAdded(),
      "-" + listing.linesRemoved(),
      Stream.of(standing(turn, listed.rewinds(), label), caveats(listing, changes))
          .filter(part -> !part.isEmpty())
          .collect(Collectors.joining("; "))
    };
  }

  /**
   * What {@code show} lists under the files, counted for the row: files that cannot be rewound, and
   * changes another session's turn could also have made ({@code 1 not restorable, 2 shared}).
   */
  static String caveats(TurnListing listing, List<StoredFileChange> changes) {
    List<String> caveats = new ArrayList<>();
    if (listing.notRestorable() > 0) {
      caveats.add(listing.notRestorable() + " not restorable");
    }
    long shared = changes.stream().filter(change -> !change.alsoPossible().isEmpty()).count();
    if (shared > 0) {
      caveats.add(shared + " shared");
    }
    return String.join(", ", caveats);
  }

  /**
   * Open, rewound by which rewinds (partly, when one skipped something), or nothing; a turn the
   * service finished because its runtime was gone says so first ({@code finished by turndiff:
   * runtime gone}).
   */
  static String standing(StoredTurn turn, TurnRewinds rewinds, Function<String, String> label) {
    if (turn.state() == TurnState.OPEN) {
      return "open";
    }
    String finishedBy =
        turn.ending().map(ending -> "finished by turndiff: " + ending.reason()).orElse("");
    String rewound = rewoundBy(turn, rewinds, label);
    return finishedBy.isEmpty() || rewound.isEmpty()
        ? finishedBy + rewound
        : finishedBy + "; " + rewound;
  }

  /** Which rewinds rewound the turn (partly, when one skipped something), or nothing. */
  private static String rewoundBy(
      StoredTurn turn, TurnRewinds rewinds, Function<String, String> label) {
    List<RewoundBy> by = rewinds.rewoundBy();
    if (by.isEmpty()) {
      return "";
    }
    String verb = turn.kind() == TurnKind.REWIND ? "undone by " : "rewound by ";
    return verb
        + by.stream()
            .map(
                rewind ->
                    label.apply(rewind.operation().rewindTurn())
                        + (rewind.complete() && !rewind.operation().partial() ? "" : " (partly)")
                        + rewind
                            .undoneBy()
                            .map(undo -> ", undone by " + label.apply(undo))
                            .orElse(""))
            .collect(Collectors.joining(", "));
  }
}
