package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.review.BlamedTurn;
import io.turndiff.review.FileBlame;
import io.turndiff.review.LineOrigin;
import java.util.List;

/**
 * {@code turndiff blame --json} and {@code GET /v1/blame}: the file's lines, each with who last
 * wrote it, and the turns they name (once each, so 10,000 lines of one turn do not repeat it).
 *
 * @param lines per line: its number, its text, its {@code origin} ({@code turn}, {@code
 *     before_any_turn}, {@code outside_any_turn} or {@code not_known}) and the turn's id when a
 *     turn wrote it
 * @param turns every turn of the path's history, oldest first; {@code prompt} and {@code runtime}
 *     are null while the store keeps neither
 */
public record WireBlame(
    String workspace, @JsonUnwrapped WirePath path, List<Line> lines, List<Turn> turns) {

  public record Line(int line, String origin, String turn, String text) {}

  public record Turn(@JsonUnwrapped WireTurn turn, String prompt, String runtime) {}

  public static WireBlame of(FileBlame blame) {
    return new WireBlame(
        blame.workspaceRoot(),
        WirePath.of(blame.path()),
        blame.lines().stream()
            .map(
                line ->
                    new Line(
                        line.number(),
                        originCode(line.origin()),
                        line.origin().storedTurn().map(turn -> turn.externalId()).orElse(null),
                        line.text()))
            .toList(),
        blame.turns().stream().map(WireBlame::turnOf).toList());
  }

  private static Turn turnOf(BlamedTurn turn) {
    return new Turn(
        WireTurn.of(turn.turn()), turn.prompt().orElse(null), turn.runtime().orElse(null));
  }

  /** The origin's kind as the JSON names it. */
  public static String originCode(LineOrigin origin) {
    return switch (origin.kind()) {
      case TURN -> "turn";
      case BEFORE_ANY_TURN -> "before_any_turn";
      case OUTSIDE_ANY_TURN -> "outside_any_turn";
      case NOT_KNOWN -> "not_known";
    };
  }
}
