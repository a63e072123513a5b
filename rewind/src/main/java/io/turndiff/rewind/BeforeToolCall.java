package io.turndiff.rewind;

import io.turndiff.model.MadeDuring;
import io.turndiff.model.RequestException;
import io.turndiff.model.Snapshot;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredCallBefore;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredToolCall;
import io.turndiff.store.StoredTurn;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a rewind to before one tool call of a turn puts back (issue 24): that call and every later
 * call of the turn are rewound, what earlier calls did stays.
 *
 * <p>Calls are ordered as the turn recorded them (a call's row is made when its first hook or
 * snapshot comes). Each change of the turn keeps, per call it is attributed to, the before-state
 * that call found (the change's own for its first call; {@link StoredCallBefore}). A path's state
 * "before call X" is the before-state of the first of its calls at or after X — the first
 * before-state wins, as it does for a whole turn — and a path no call at or after X touched stays.
 *
 * <p>Calls that overlapped in time are not told apart: a change a scan found while shell calls A
 * and B were both in flight is attributed to both, and a rewind to before B rewinds it with B,
 * saying so ({@code during calls A and B: rewound together}). A change made outside any call (the
 * user's) or during a call that is not known (no watcher: the scan's interval spans calls) is never
 * silently rewound nor silently kept: the plan names it, skipped, and a rewind of the whole turn is
 * the way to revert it.
 */
final class BeforeToolCall {

  /** A path's place in a rewind to before the call. */
  sealed interface Selection {
    /** No call at or after the call touched the path: it stays, and the plan does not list it. */
    record Stays() implements Selection {}

    /**
     * The path goes back to {@code target}, the before-state its first call at or after the call
     * found; {@code by} is that call, and {@code together} names the earlier calls whose part of
     * the change goes back with it (they overlapped), empty when none.
     */
    record Rewound(long targetRow, Snapshot target, String by, List<String> together)
        implements Selection {

      /** The plan's words for a path rewound with earlier calls that overlapped: none when none. */
      Optional<String> detail() {
        if (together.isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(
            "made during calls "
                + String.join(", ", together.stream().map(id -> "'" + id + "'").toList())
                + " and '"
                + by
                + "', which overlapped: rewound together");
      }
    }

    /** The plan names the path as left, with why. */
    record Left(String reason, String detail) implements Selection {}
  }

  private final StoredToolCall from;
  private final Map<Long, List<StoredCallBefore>> callsOf;

  private BeforeToolCall(StoredToolCall from, Map<Long, List<StoredCallBefore>> callsOf) {
    this.from = from;
    this.callsOf = callsOf;
  }

  /**
   * The call {@code callId} of {@code turn}, with the calls of its {@code changes}; refuses a call
   * the turn did not record, naming it.
   */
  static BeforeToolCall of(
      StoreTransaction tx, StoredTurn turn, String callId, Collection<StoredFileChange> changes) {
    StoredToolCall from =
        tx.toolCalls()
            .byExternalId(turn.id(), callId)
            .orElseThrow(
                () ->
                    new RequestException(
                        RequestException.Problem.BAD_INPUT,
                        "turn '"
                            + turn.externalId()
                            + "' has no tool call '"
                            + callId
                            + "' (turndiff show --turn "
                            + turn.externalId()
                            + " lists its calls)"));
    return new BeforeToolCall(
        from, tx.fileChanges().callsBefore(changes.stream().map(StoredFileChange::id).toList()));
  }

  /** The call the rewind goes back to before. */
  StoredToolCall call() {
    return from;
  }

  /** Where {@code change} (the turn's record of one path) stands in the rewind. */
  Selection select(StoredFileChange change) {
    return switch (change.madeDuring()) {
      case OUTSIDE ->
          new Selection.Left(
              SkipReason.CONFLICT,
              "changed outside any tool call (no call of an open turn was running: the user's,"
                  + " e.g. an editor's save); a rewind to before tool call '"
                  + from.externalId()
                  + "' leaves it: rewind the whole turn to revert it");
      case UNKNOWN ->
          new Selection.Left(
              SkipReason.UNVERIFIED,
              "changed during the turn while no watcher told its calls apart: whether before or"
                  + " after tool call '"
                  + from.externalId()
                  + "' is not known, so it is left; rewind the whole turn to revert it");
      case NAMED, CALLS -> selectAttributed(change);
    };
  }

  /** A change attributed to calls of the turn: by the first of them at or after the call. */
  private Selection selectAttributed(StoredFileChange change) {
    List<StoredCallBefore> calls = callsOf.getOrDefault(change.id(), List.of());
    int first = 0;
    while (first < calls.size() && calls.get(first).call().id() < from.id()) {
      first++;
    }
    if (first == calls.size()) {
      return new Selection.Stays();
    }
    StoredCallBefore at = calls.get(first);
    if (at.beforeRow().isPresent()) {
      // a later call's own before-state: the earlier calls that found the same one (linked by one
      // scan, in flight together) go back with it
      List<String> together =
          calls.subList(0, first).stream()
              .filter(earlier -> earlier.beforeRow().equals(at.beforeRow()))
              .map(earlier -> earlier.call().externalId())
              .toList();
      return new Selection.Rewound(
          at.beforeRow().get(), at.before().orElseThrow(), at.call().externalId(), together);
    }
    if (first == 0 || change.madeDuring() == MadeDuring.CALLS) {
      // the change's first call, or a shell call in flight with it when the change was found (the
      // scan linked them at once): the change's own before-state, earlier calls' part included
      List<String> together =
          calls.subList(0, first).stream()
              .filter(earlier -> earlier.beforeRow().isEmpty())
              .map(earlier -> earlier.call().externalId())
              .toList();
      return new Selection.Rewound(
          change.beforeRow(), change.before(), at.call().externalId(), together);
    }
    return new Selection.Left(
        SkipReason.NOT_CAPTURED,
        "its state before tool call '"
            + at.call().externalId()
            + "' was not kept (recorded before turndiff kept each call's before-state); rewind the"
            + " whole turn to put back its state before the turn");
  }
}
