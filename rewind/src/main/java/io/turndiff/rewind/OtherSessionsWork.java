package io.turndiff.rewind;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.SharedChanges.SharedTurn;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Another session's work on the paths a rewind would put back (issue 27: two agents in one
 * workspace). A rewind never reverts it without saying so: a path is another session's work when a
 * record of the rewound turns is shared with a turn that is not rewound (a scan found the change
 * while both were open, and either could have made it), or when a turn of another session of the
 * workspace that was open at or after the first rewound turn's begin changed it. Such a path is a
 * conflict of the plan, naming that session and turn, unless the rewind is forced (whose writes
 * store what they overwrite first, as every forced write does).
 *
 * <p>The user's work is left the same way: a record of the rewound turns made while no tool call of
 * any open turn was in flight ({@link MadeDuring#OUTSIDE}: an editor's save during a turn, which
 * the watcher saw between the turns' shell calls) is a conflict saying so, unless forced.
 */
final class OtherSessionsWork {

  private final Map<WorkspacePath, Set<String>> byPath;
  private final Set<WorkspacePath> outsideAnyCall;

  private OtherSessionsWork(
      Map<WorkspacePath, Set<String>> byPath, Set<WorkspacePath> outsideAnyCall) {
    this.byPath = byPath;
    this.outsideAnyCall = outsideAnyCall;
  }

  /**
   * What of other turns' work is on the paths of {@code records} (the rewound turns' records by
   * path), within {@code tx}.
   */
  static OtherSessionsWork of(
      StoreTransaction tx,
      StoredSession session,
      Collection<StoredTurn> rewound,
      Map<WorkspacePath, List<StoredFileChange>> records) {
    Map<WorkspacePath, Set<String>> found = new TreeMap<>();
    // the turns already named at each path as sharing the change: not named again as later
    Map<WorkspacePath, Set<Long>> named = new TreeMap<>();
    Set<Long> rewoundIds = new LinkedHashSet<>();
    rewound.forEach(turn -> rewoundIds.add(turn.id()));
    List<Long> changeIds = new ArrayList<>();
    records.values().forEach(changes -> changes.forEach(change -> changeIds.add(change.id())));
    Map<Long, List<SharedTurn>> shared = tx.sharedChanges().of(changeIds);
    Set<WorkspacePath> outside = new LinkedHashSet<>();
    records.forEach(
        (path, changes) -> {
          if (changes.stream().anyMatch(change -> change.madeDuring() == MadeDuring.OUTSIDE)) {
            outside.add(path);
          }
        });
    records.forEach(
        (path, changes) -> {
          for (StoredFileChange change : changes) {
            for (SharedTurn other : shared.getOrDefault(change.id(), List.of())) {
              if (!rewoundIds.contains(other.turnId())) {
                named.computeIfAbsent(path, p -> new LinkedHashSet<>()).add(other.turnId());
                found
                    .computeIfAbsent(path, p -> new LinkedHashSet<>())
                    .add("also possible: " + other.describe());
              }
            }
          }
        });
    Instant since =
        rewound.stream().map(StoredTurn::beganAt).min(Instant::compareTo).orElse(Instant.MIN);
    for (StoredTurn later : laterTurnsOfOtherSessions(tx, session, since)) {
      for (StoredFileChange change : tx.fileChanges().ofTurn(later.id())) {
        boolean changed = change.change().filter(kind -> kind == ChangeKind.UNCHANGED).isEmpty();
        boolean namedAlready = named.getOrDefault(change.path(), Set.of()).contains(later.id());
        if (changed && records.containsKey(change.path()) && !namedAlready) {
          found
              .computeIfAbsent(change.path(), p -> new LinkedHashSet<>())
              .add(
                  (later.state() == TurnState.OPEN ? "being changed by" : "changed later by")
                      + " turn "
                      + later.externalId()
                      + " of session "
                      + later.sessionExternalId());
        }
      }
    }
    return new OtherSessionsWork(found, outside);
  }

  /**
   * The turns of the workspace's other sessions that were open at {@code since} or began after it.
   */
  private static List<StoredTurn> laterTurnsOfOtherSessions(
      StoreTransaction tx, StoredSession session, Instant since) {
    List<StoredTurn> later = new ArrayList<>();
    for (StoredSession other : tx.sessions().ofWorkspace(session.workspaceId())) {
      if (other.id() == session.id()) {
        continue;
      }
      for (StoredTurn turn : tx.turns().ofSession(other.id())) {
        boolean overlapping =
            turn.finishedAt().map(finished -> !finished.isBefore(since)).orElse(true);
        // a rewound turn counts too: its rewind may have left the path (a conflict), and its
        // rewind turn, which put paths back, is a turn of its session as well
        if (overlapping) {
          later.add(turn);
        }
      }
    }
    return later;
  }

  /** Why the rewind leaves {@code path} as it is, naming whose work it is; empty when none. */
  Optional<String> at(WorkspacePath path) {
    Set<String> work = byPath.get(path);
    List<String> whose = new ArrayList<>();
    if (outsideAnyCall.contains(path)) {
      whose.add(
          "changed outside any tool call (no call of an open turn was running: the user's, e.g."
              + " an editor's save)");
    }
    if (work != null) {
      whose.add("another session's work: " + String.join("; ", work));
    }
    return whose.isEmpty()
        ? Optional.empty()
        : Optional.of(
            String.join("; ", whose) + " (--force puts it back, storing what it overwrites first)");
  }
}
