package io.turndiff.cli;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.TurnKind;
import io.turndiff.review.TurnRewinds;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The line that names a turn in the human views, where git puts a commit's subject: the first line
 * of the prompt that made it ({@link io.turndiff.review.PromptTitle}) when the store kept it; else
 * what the store has, the paths the turn changed ({@code src/app.py and 2 more}), or for a rewind
 * the turns it put back ({@code rewind of #3, #4}). A turn of kind {@code outside} (the user's own
 * edits between turns) is "outside any turn".
 */
final class TurnTitle {

  /** Longer titles are cut to this many characters, the last an ellipsis. */
  static final int WIDTH = 48;

  /** The title of a turn of kind {@code outside}, wherever a turn is named. */
  static final String OUTSIDE = "outside any turn";

  private TurnTitle() {}

  /**
   * @param promptTitle the title of the turn's prompt, when the store kept it
   * @param label how a turn of the same session is named in the view ({@code #3})
   */
  static String of(
      StoredTurn turn,
      Optional<String> promptTitle,
      List<StoredFileChange> changes,
      TurnRewinds rewinds,
      Function<String, String> label) {
    if (turn.kind() == TurnKind.OUTSIDE) {
      // no prompt made it: the user's own edits between turns, recorded at the next turn's begin
      return OUTSIDE;
    }
    if (promptTitle.isPresent() && !promptTitle.get().isEmpty()) {
      return promptTitle.get();
    }
    if (turn.kind() == TurnKind.REWIND) {
      return rewinds
          .rewinds()
          .map(
              operation ->
                  "rewind of "
                      + operation.turns().reversed().stream()
                          .map(label)
                          .collect(Collectors.joining(", ")))
          .orElse("rewind");
    }
    List<StoredFileChange> changed =
        changes.stream()
            .filter(change -> change.change().orElse(ChangeKind.MODIFIED) != ChangeKind.UNCHANGED)
            .toList();
    if (changed.isEmpty()) {
      return changes.isEmpty() ? "(nothing recorded)" : "(nothing changed)";
    }
    String first = changed.getFirst().path().display();
    return changed.size() == 1 ? first : first + " and " + (changed.size() - 1) + " more";
  }

  /** {@code title} cut to {@code width} characters, its control characters shown. */
  static String cut(String title, int width) {
    String shown = Terminal.printable(title);
    return shown.length() <= width ? shown : shown.substring(0, width - 1) + TurnReference.ELLIPSIS;
  }
}
