package io.turndiff.review;

import io.turndiff.store.StoredTurn;
import java.util.Objects;
import java.util.Optional;

/**
 * Who last wrote a line, as the stored states tell: a turn, or no turn.
 *
 * @param turn the turn that wrote the line, present exactly when {@code kind} is {@link Kind#TURN}
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
     * that differs from the after-state the turn before it left), or since the last turn (the file
     * now against the last after-state), or in a file no turn recorded.
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
    if (turn.isPresent() != (kind == Kind.TURN)) {
      throw new IllegalArgumentException("a line has a turn exactly when a turn wrote it");
    }
  }

  public static LineOrigin writtenBy(BlamedTurn turn) {
    return new LineOrigin(Kind.TURN, Optional.of(turn));
  }

  /** The turn's row, for a line a turn wrote. */
  public Optional<StoredTurn> storedTurn() {
    return turn.map(BlamedTurn::turn);
  }
}
