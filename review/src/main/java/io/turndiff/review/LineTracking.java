package io.turndiff.review;

import io.turndiff.diff.LineOrigins;
import io.turndiff.diff.TextContent;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The line-tracking pass of a blame, forward through a path's states: it holds the lines of the
 * state it reached with who wrote each, and each step to the next state keeps the origin of every
 * line the step's diff leaves unchanged and gives the lines it writes to the step's writer. This is
 * {@code git blame} run the other way (git walks back from the tip); over one line of history both
 * give every line to the last step that wrote it, with the diff the stored patches show.
 *
 * <p>A state that was not captured (a metadata-only snapshot, a link, a directory) or that holds
 * binary content has no lines: the pass forgets what it held, and every line of the next state it
 * can read is {@link LineOrigin#NOT_KNOWN}, since nothing tells which step wrote it. Two states are
 * the same step only when both are captured and hold the same content (or both are absent).
 */
final class LineTracking {

  /** A state as the pass reads it: its identity and lines, both empty when it is not known. */
  record State(Optional<String> identity, Optional<TextContent> text) {

    static final State NOT_KNOWN = new State(Optional.empty(), Optional.empty());
    private static final TextContent NO_LINES = TextContent.of(new byte[0]).orElseThrow();
    static final State ABSENT = new State(Optional.of("absent"), Optional.of(NO_LINES));

    /**
     * {@code snapshot} as lines: an absence has none, a stored regular file its text (binary
     * content is not known), anything else is not known. {@code content} gives a stored file's
     * bytes.
     */
    static State of(Snapshot snapshot, Function<Sha256, byte[]> content) {
      return switch (snapshot) {
        case Snapshot.Absent _ -> ABSENT;
        case Snapshot.RegularFile file ->
            TextContent.of(content.apply(file.content()))
                .map(text -> new State(Optional.of(file.content().hex()), Optional.of(text)))
                .orElse(NOT_KNOWN);
        default -> NOT_KNOWN;
      };
    }

    /**
     * What tells two states apart without reading them: a stored file's content hash, or an
     * absence; empty for a state that was not captured, which equals nothing.
     */
    static Optional<String> identityOf(Snapshot snapshot) {
      return switch (snapshot) {
        case Snapshot.Absent _ -> ABSENT.identity();
        case Snapshot.RegularFile file -> Optional.of(file.content().hex());
        default -> Optional.empty();
      };
    }
  }

  private State reached = State.NOT_KNOWN;
  private List<LineOrigin> origins = List.of();

  /** Starts at the path's first recorded state, whose lines were there before any turn. */
  LineTracking(State first) {
    reached = first;
    origins = first.text().map(text -> lines(text, LineOrigin.BEFORE_ANY_TURN)).orElse(List.of());
  }

  /**
   * Moves to {@code snapshot}: the lines its diff from the state reached writes are {@code
   * writer}'s. Nothing is read and nothing moves when it is the same state (a turn's before-state
   * is mostly the after-state of the turn before it).
   */
  void moveTo(Snapshot snapshot, Function<Sha256, byte[]> content, LineOrigin writer) {
    Optional<String> identity = State.identityOf(snapshot);
    if (identity.isPresent() && identity.equals(reached.identity())) {
      return;
    }
    moveTo(State.of(snapshot, content), writer);
  }

  /** Moves to {@code next}, as {@link #moveTo(Snapshot, Function, LineOrigin)}. */
  void moveTo(State next, LineOrigin writer) {
    if (next.identity().isPresent() && next.identity().equals(reached.identity())) {
      return;
    }
    if (next.text().isEmpty()) {
      origins = List.of();
    } else if (reached.text().isEmpty()) {
      origins = lines(next.text().get(), LineOrigin.NOT_KNOWN);
    } else {
      int[] from = LineOrigins.between(reached.text().get(), next.text().get());
      List<LineOrigin> moved = new ArrayList<>(from.length);
      for (int origin : from) {
        moved.add(origin == LineOrigins.NEW ? writer : origins.get(origin));
      }
      origins = moved;
    }
    reached = next;
  }

  /** The state reached. */
  State reached() {
    return reached;
  }

  /** Who wrote each line of the state reached (empty when it is not known). */
  List<LineOrigin> origins() {
    return Collections.unmodifiableList(origins);
  }

  private static List<LineOrigin> lines(TextContent text, LineOrigin origin) {
    return new ArrayList<>(Collections.nCopies(text.lineCount(), origin));
  }
}
