package io.turndiff.review;

import io.turndiff.model.TurnKind;
import io.turndiff.store.StoredTurn;
import java.util.Objects;
import java.util.Optional;

/**
 * Who last wrote a line, as the stored states tell: a turn, or no turn.
 *
 * @param turn the turn that wrote the line: present when {@code kind} is {@link Kind#TURN}, and for
 *     {@link Kind#OUTSIDE_ANY_TURN} when an outside turn recorded the write (the user's own edit
 *     found at the next turn's begin in a tracked workspace), so that the line names it
 */
public record LineOrigin(Kind kind, Optional<BlamedTurn> turn) {

  /** Where a line came from. */
  public enum Kind {
    /** A turn's change wrote it (its after-state has the line, its before-state did not). */
    TURN,
    /** It was there when the first turn that recorded the path began. */
    BEFORE_ANY_TURN,
    /**
     * It was written while no turn was recording the path: between two turns (a turn's before-state
     * that differs from the after-state the turn before it left, or a turn of kind {@code outside}
     * that recorded it), or since the last turn (the file now against the last after-state), or in
     * a file no turn recorded.
     */
    OUTSIDE_ANY_TURN,
    /**
     * A state before it was not captured (too large, binary, unreadable, not a regular file), so
     * the pass cannot tell which of the turns around it, or none, wrote it.
     */
    NOT_KNOWN
  }

  public static final LineOrigin BEFORE_ANY_TURN =
      new LineOrigin(Kind.BEFORE_ANY_TURN, Optional.empty());
  public static final LineOrigin OUTSIDE_ANY_TURN =
      new LineOrigin(Kind.OUTSIDE_ANY_TURN, Optional.empty());
  public static final LineOrigin NOT_KNOWN = new LineOrigin(Kind.NOT_KNOWN, Optional.empty());

  public LineOrigin {
    Objects.requireNonNull(kind, "kind");
    if (kind == Kind.TURN && turn.isEmpty()) {
      throw new IllegalArgumentException("a line a turn wrote names it");
    }
    if (turn.isPresent() && kind != Kind.TURN && kind != Kind.OUTSIDE_ANY_TURN) {
      throw new IllegalArgumentException("only a line a turn recorded names one: " + kind);
    }
  }

  /**
   * The line was written by the change {@code turn} recorded: an agent's or a rewind's turn, or,
   * for a turn of kind {@code outside}, outside any turn (and the line names that record).
   */
  public static LineOrigin writtenBy(BlamedTurn turn) {
    Kind kind = turn.turn().kind() == TurnKind.OUTSIDE ? Kind.OUTSIDE_ANY_TURN : Kind.TURN;
    return new LineOrigin(kind, Optional.of(turn));
  }

  /** The turn's row, for a line a turn wrote. */
  public Optional<StoredTurn> storedTurn() {
    return turn.map(BlamedTurn::turn);
  }
}
