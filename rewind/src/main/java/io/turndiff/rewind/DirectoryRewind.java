package io.turndiff.rewind;

import io.turndiff.boundary.DirectoryOutcome;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredDirectoryChange;
import io.turndiff.store.StoredRewindDirectory;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The directories of a rewind, so that it puts back the tree the turns started from and not only its files.
 * A directory the rewound turns removed comes back with its recorded mode before the files are written (so
 * does one a restored file needs); a directory they created is removed once the files are written, when it
 * is empty (a directory that still holds anything is left, and reported). Each action is journaled before it
 * is done, and recorded in the rewind turn (a created directory as absent before, a removed one as present
 * with its mode), so that rewinding the rewind turn undoes it.
 */
final class DirectoryRewind {

  /** A directory over the rewound turns: its oldest recorded before-state, its newest after-state. */
  record Span(DirectoryState before, Optional<DirectoryState> after) {

    boolean removedByTurns() {
      return before.present() && after.filter(state -> !state.present()).isPresent();
    }

    /** Absent when the turns first saw it, and there when they finished: theirs to remove. */
    boolean createdByTurns() {
      return !before.present() && after.filter(DirectoryState::present).isPresent();
    }
  }

  private final Store store;
  private final WorkspaceBoundary boundary;
  private final long operationId;
  private final long rewindTurnId;
  private final Map<WorkspacePath, Span> spans;
  /** Directories seen present: a parent is looked at once per rewind. */
  private final Set<WorkspacePath> present = new HashSet<>();

  private DirectoryRewind(Store store, WorkspaceBoundary boundary, long operationId, long rewindTurnId,
                          Map<WorkspacePath, Span> spans) {
    this.store = store;
    this.boundary = boundary;
    this.operationId = operationId;
    this.rewindTurnId = rewindTurnId;
    this.spans = spans;
  }

  /** The directories of an operation that rewinds {@code turns}, recorded in the rewind turn {@code rewindTurnId}. */
  static DirectoryRewind of(Store store, WorkspaceBoundary boundary, long operationId, long rewindTurnId,
                            List<String> turns) {
    return new DirectoryRewind(store, boundary, operationId, rewindTurnId, spans(store, turns));
  }

  /** For a dry run: nothing is journaled or written. */
  static DirectoryRewind planOnly(Store store, WorkspaceBoundary boundary, List<String> turns) {
    return new DirectoryRewind(store, boundary, -1, -1, spans(store, turns));
  }

  private static Map<WorkspacePath, Span> spans(Store store, List<String> turns) {
    return store.read(tx -> {
      Map<Long, Long> seqs = new HashMap<>();
      for (String turn : turns) {
        tx.turns().byExternalId(turn).ifPresent(stored -> seqs.put(stored.id(), stored.seq()));
      }
      List<StoredDirectoryChange> rows = new ArrayList<>(tx.directoryChanges().ofTurns(seqs.keySet()));
      rows.sort(Comparator.comparing(StoredDirectoryChange::path).thenComparing(row -> seqs.get(row.turnId())));
      Map<WorkspacePath, Span> spans = new HashMap<>();
      for (StoredDirectoryChange row : rows) {
        Span oldest = spans.get(row.path());
        spans.put(row.path(), new Span(oldest == null ? row.before() : oldest.before(), row.after()));
      }
      return spans;
    });
  }

  // ---- before the files: directories the turns removed, and parents of files to write ---------------------

  /** The directories the rewound turns removed, from the top down. */
  List<WorkspacePath> removedByTurns() {
    return spans.entrySet().stream().filter(span -> span.getValue().removedByTurns()).map(Map.Entry::getKey)
        .sorted(Comparator.comparingInt(WorkspacePath::length)).toList();
  }

  /** Makes each of {@code directories} (top down) that is missing, with its recorded mode. */
  void restore(List<WorkspacePath> directories) {
    for (WorkspacePath directory : directories) {
      if (present.contains(directory)) {
        continue;
      }
      Optional<DirectoryState> now = boundary.directoryAt(directory);
      if (now.isEmpty()) {
        continue;  // a file or a link is in the way: what goes under it is refused and reported
      }
      if (!now.get().present()) {
        create(directory);
      }
      present.add(directory);
    }
  }

  /** Makes the missing parents of {@code file}, with their recorded modes, before it is written. */
  void restoreParentsOf(WorkspacePath file) {
    List<byte[]> parents = file.parentComponents();
    if (parents.isEmpty() || present.contains(WorkspacePath.ofComponents(parents))) {
      return;
    }
    List<WorkspacePath> chain = new ArrayList<>();
    for (int depth = 1; depth <= parents.size(); depth++) {
      chain.add(WorkspacePath.ofComponents(parents.subList(0, depth)));
    }
    restore(chain);
  }

  /** A missing directory: journaled and recorded in the rewind turn as absent, then made. */
  private void create(WorkspacePath directory) {
    OptionalInt mode = Optional.ofNullable(spans.get(directory)).map(Span::before)
        .filter(DirectoryState::present).map(state -> OptionalInt.of(state.mode())).orElse(OptionalInt.empty());
    long row = store.write(tx -> {
      tx.directoryChanges().recordBefore(rewindTurnId, DirectoryState.absent(directory));
      return tx.rewindDirectories().plan(operationId, directory, StoredRewindDirectory.Action.CREATE, mode);
    });
    DirectoryOutcome outcome = boundary.makeDirectory(directory, mode);
    store.write(tx -> {
      mark(tx, row, outcome);
      return null;
    });
  }

  // ---- after the files: directories the turns created ----------------------------------------------------

  /** Removes the directories the rewound turns created that are empty now, deepest first. */
  void removeCreated() {
    List<DirectoryState> toRemove = new ArrayList<>();
    for (Map.Entry<WorkspacePath, Span> span : spans.entrySet()) {
      if (span.getValue().createdByTurns()) {
        boundary.directoryAt(span.getKey()).filter(DirectoryState::present).ifPresent(toRemove::add);
      }
    }
    List<StoredRewindDirectory> planned = store.write(tx -> {
      for (DirectoryState directory : toRemove) {
        tx.directoryChanges().recordBefore(rewindTurnId, directory);
        tx.rewindDirectories().plan(operationId, directory.path(), StoredRewindDirectory.Action.REMOVE,
            OptionalInt.of(directory.mode()));
      }
      return tx.rewindDirectories().of(operationId).stream()
          .filter(row -> row.action() == StoredRewindDirectory.Action.REMOVE
              && row.status() == StoredRewindDirectory.Status.PLANNED)
          .sorted(Comparator.comparingInt((StoredRewindDirectory row) -> row.path().length()).reversed())
          .toList();
    });
    if (planned.isEmpty()) {
      return;
    }
    Map<Long, DirectoryOutcome> outcomes = new HashMap<>();
    for (StoredRewindDirectory row : planned) {
      outcomes.put(row.id(), boundary.removeDirectory(row.path()));
    }
    boundary.sync();
    store.write(tx -> {
      for (StoredRewindDirectory row : planned) {
        DirectoryOutcome outcome = outcomes.get(row.id());
        if (outcome instanceof DirectoryOutcome.NotEmpty) {
          tx.rewindDirectories().mark(row.id(), StoredRewindDirectory.Status.SKIPPED,
              Optional.of(SkipReason.DIRECTORY_NOT_EMPTY), Optional.of(holding(row.path())));
        } else {
          mark(tx, row.id(), outcome);
        }
      }
      return null;
    });
  }

  /** What keeps a directory: the names it holds, a few of them. */
  private String holding(WorkspacePath directory) {
    List<String> names = boundary.namesIn(directory);
    int shown = Math.min(names.size(), 5);
    return "the turns created it, and it still holds " + (names.isEmpty() ? "something"
        : String.join(", ", names.subList(0, shown)) + (names.size() > shown ? " and " + (names.size() - shown)
            + " more" : "")) + "; it is left as it is";
  }

  /** A planned row's outcome: done (or already so, since it was planned when it was not), or skipped. */
  private static void mark(StoreTransaction tx, long row, DirectoryOutcome outcome) {
    if (outcome instanceof DirectoryOutcome.Refused refused) {
      tx.rewindDirectories().mark(row, StoredRewindDirectory.Status.SKIPPED, Optional.of(SkipReason.REFUSED),
          Optional.of(refused.reason()));
    } else {
      tx.rewindDirectories().mark(row, StoredRewindDirectory.Status.DONE, Optional.empty(), Optional.empty());
    }
  }

  // ---- a dry run ------------------------------------------------------------------------------------------

  /** The directories the rewind would create (before writing {@code files}) and remove, nothing written. */
  Planned wouldDo(List<WorkspacePath> files) {
    java.util.TreeSet<WorkspacePath> create = new java.util.TreeSet<>();
    List<WorkspacePath> candidates = new ArrayList<>(removedByTurns());
    for (WorkspacePath file : files) {
      List<byte[]> parents = file.parentComponents();
      for (int depth = 1; depth <= parents.size(); depth++) {
        candidates.add(WorkspacePath.ofComponents(parents.subList(0, depth)));
      }
    }
    for (WorkspacePath directory : candidates) {
      boundary.directoryAt(directory).filter(state -> !state.present()).ifPresent(state -> create.add(directory));
    }
    List<WorkspacePath> remove = spans.entrySet().stream().filter(span -> span.getValue().createdByTurns())
        .map(Map.Entry::getKey)
        .filter(directory -> boundary.directoryAt(directory).filter(DirectoryState::present).isPresent())
        .sorted(Comparator.comparingInt(WorkspacePath::length).reversed().thenComparing(Comparator.naturalOrder()))
        .toList();
    return new Planned(List.copyOf(create), remove);
  }

  record Planned(List<WorkspacePath> created, List<WorkspacePath> removed) {
  }

  // ---- after the rewind: the rewind turn's record -------------------------------------------------------

  /** Records, in the rewind turn, the state of every directory it touched now that the rewind is done. */
  static void recordAfter(Store store, WorkspaceBoundary boundary, StoredTurn rewindTurn) {
    Map<WorkspacePath, Optional<DirectoryState>> after = new HashMap<>();
    store.read(tx -> tx.directoryChanges().ofTurn(rewindTurn.id()))
        .forEach(row -> after.put(row.path(), boundary.directoryAt(row.path())));
    store.write(tx -> {
      after.forEach((path, state) -> tx.directoryChanges().complete(rewindTurn.id(), path, state));
      return null;
    });
  }
}
