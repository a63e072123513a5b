package io.turndiff.rewind;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Snapshot;
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
 * workspace that was open at or after the first rewound turn's begin changed it, unless that change
 * provably came first (its record ended, before the rewound turns looked at the path, in the state
 * they found there). Such a path is a conflict of the plan, naming that session and turn, unless
 * the rewind is forced (whose writes store what they overwrite first, as every forced write does).
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
   * path, oldest first), within {@code tx}.
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
    sharedWork(tx, rewoundIds, records, found, named);
    Instant since =
        rewound.stream().map(StoredTurn::beganAt).min(Instant::compareTo).orElse(Instant.EPOCH);
    laterWork(tx, session, since, records, found, named);
    Set<WorkspacePath> outside = new LinkedHashSet<>();
    records.forEach(
        (path, changes) -> {
          if (changes.stream().anyMatch(change -> change.madeDuring() == MadeDuring.OUTSIDE)) {
            outside.add(path);
          }
        });
    return new OtherSessionsWork(found, outside);
  }

  /**
   * Adds to {@code found} each turn that is not rewound and shares a record of the rewound turns (a
   * scan found the change while both were open), noting it in {@code named}.
   */
  private static void sharedWork(
      StoreTransaction tx,
      Set<Long> rewoundIds,
      Map<WorkspacePath, List<StoredFileChange>> records,
      Map<WorkspacePath, Set<String>> found,
      Map<WorkspacePath, Set<Long>> named) {
    List<Long> changeIds = new ArrayList<>();
    records.values().forEach(changes -> changes.forEach(change -> changeIds.add(change.id())));
    Map<Long, List<SharedTurn>> shared = tx.sharedChanges().of(changeIds);
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
  }

  /**
   * Adds to {@code found} each change of the rewound paths recorded by a turn of another session of
   * the workspace that was open at {@code since} (the first rewound turn's begin) or began later
   * ({@link io.turndiff.store.Turns#ofOtherSessionsBetween}, the panel's overlap rule, until now;
   * rewound turns and rewind turns too: a rewind may have left the path, and what a rewind turn put
   * back is its session's work), unless it is named already as sharing the change or provably came
   * before the rewound turns' ({@link #endedBefore}). Only those turns' records of those paths are
   * read.
   */
  private static void laterWork(
      StoreTransaction tx,
      StoredSession session,
      Instant since,
      Map<WorkspacePath, List<StoredFileChange>> records,
      Map<WorkspacePath, Set<String>> found,
      Map<WorkspacePath, Set<Long>> named) {
    Map<Long, StoredTurn> overlapping = new TreeMap<>();
    tx.turns()
        .ofOtherSessionsSince(session.workspaceId(), session.id(), since)
        .forEach(turn -> overlapping.put(turn.id(), turn));
    for (StoredFileChange change :
        tx.fileChanges().ofTurnsAt(overlapping.keySet(), records.keySet())) {
      StoredTurn later = overlapping.get(change.turnId());
      boolean changed = change.change().filter(kind -> kind == ChangeKind.UNCHANGED).isEmpty();
      boolean namedAlready = named.getOrDefault(change.path(), Set.of()).contains(later.id());
      if (changed && !namedAlready && !endedBefore(change, records.get(change.path()).getFirst())) {
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

  /**
   * Whether the other turn's change {@code other} provably came before the rewound turns' first
   * record of its path, {@code first}: its record ends (its after-state, taken when that turn
   * finished) in the very state {@code first} begins from, and that after-state was taken before
   * {@code first}'s before-state. Then everything the other turn did to the path was done when the
   * rewound turns first looked at it and is in the state the rewind puts back: the rewind loses
   * none of it, though the other turn was still open when the rewound turn began (issue 27 review
   * finding 8: B1 edits p, A1 begins, B1 finishes, A1 edits p; rewinding A1 gives back B's edit).
   *
   * <p>Anything less is not proof and stays a conflict: a record still open (no after-state); an
   * after-state taken in the same millisecond or later (the other turn may have written after the
   * rewound turn looked: B1 finishing after A1's edit records A's content, and whether B wrote in
   * between is not known); an after-state that differs from the state put back (someone changed the
   * path in between, perhaps that turn); or one that was not captured, which equals nothing.
   */
  private static boolean endedBefore(StoredFileChange other, StoredFileChange first) {
    Snapshot putBack = first.before();
    return other
        .after()
        .filter(ended -> ended.takenAt().isBefore(putBack.takenAt()))
        .filter(ended -> ended.sameStateAs(putBack))
        .isPresent();
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
