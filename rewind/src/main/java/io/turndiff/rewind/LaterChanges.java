package io.turndiff.rewind;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who changed a path the rewind leaves in conflict: the newest turn of the workspace (of any of its
 * sessions, the rewound turns aside) that began after the first rewound turn and recorded a change
 * of it, an outside turn included (in a tracked workspace, the user's own edits between turns are
 * one: its kind says so); a conflict no such turn explains was made outside any turn, unrecorded.
 * What the plan says so that a person can go to that turn (and rewind to it) instead of reading
 * fingerprints.
 */
final class LaterChanges {

  private LaterChanges() {}

  /**
   * For each of {@code paths}, the newest later turn that changed it; a path no later turn changed
   * is not in the map.
   */
  static Map<WorkspacePath, RewindReport.ChangedBy> of(
      StoreTransaction tx,
      long workspaceId,
      Collection<String> rewoundTurns,
      Collection<WorkspacePath> paths) {
    Map<WorkspacePath, RewindReport.ChangedBy> found = new HashMap<>();
    if (paths.isEmpty()) {
      return found;
    }
    Set<WorkspacePath> wanted = new HashSet<>(paths);
    Set<String> rewound = new HashSet<>(rewoundTurns);
    Instant since =
        rewoundTurns.stream()
            .flatMap(id -> tx.turns().byExternalId(id).stream())
            .map(StoredTurn::beganAt)
            .min(Comparator.naturalOrder())
            .orElse(Instant.MIN);
    List<StoredTurn> later = new ArrayList<>();
    for (StoredSession session : tx.sessions().ofWorkspace(workspaceId)) {
      tx.turns().ofSession(session.id()).stream()
          .filter(turn -> !rewound.contains(turn.externalId()) && turn.beganAt().isAfter(since))
          .forEach(later::add);
    }
    // oldest first, so that the newest turn to change a path is the one that stays
    later.sort(Comparator.comparing(StoredTurn::beganAt).thenComparing(StoredTurn::id));
    for (StoredTurn turn : later) {
      for (StoredFileChange change : tx.fileChanges().ofTurn(turn.id())) {
        boolean changed = change.change().filter(kind -> kind == ChangeKind.UNCHANGED).isEmpty();
        if (changed && wanted.contains(change.path())) {
          found.put(
              change.path(),
              new RewindReport.ChangedBy(
                  turn.externalId(),
                  turn.sessionExternalId(),
                  turn.seq(),
                  turn.beganAt(),
                  turn.kind()));
        }
      }
    }
    return found;
  }
}
