package io.turndiff.rewind;

import io.turndiff.boundary.DirectoryOutcome;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.record.DirectorySide;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.AsItIs;
import io.turndiff.rewind.RewindDecision.DirectorySpan;
import io.turndiff.rewind.RewindDecision.HasItsMode;
import io.turndiff.rewind.RewindDecision.LeaveIt;
import io.turndiff.rewind.RewindDecision.MakeDirectory;
import io.turndiff.rewind.RewindDecision.MakeIt;
import io.turndiff.rewind.RewindDecision.RemoveDirectory;
import io.turndiff.rewind.RewindDecision.SetMode;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredDirectoryChange;
import io.turndiff.store.StoredRewindDirectory;
import io.turndiff.store.StoredTurn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The directories of a rewind, so that it puts back the tree the turns started from and not only
 * its files. A directory the rewound turns removed comes back with its recorded mode before the
 * files are written (so does one a restored file needs); a directory they created is removed once
 * the files are written, when it is empty (a directory that still holds anything is left, and
 * reported); a directory whose mode they changed gets its mode back, under the rule files follow:
 * only while it still has the mode the turns left (else it is a conflict, which {@code force}
 * overrides). Each action is journaled before it is done, and recorded in the rewind turn (a
 * created directory as absent before, a removed one as present with its mode, one whose mode is set
 * with the mode it had), so that rewinding the rewind turn undoes it.
 */
final class DirectoryRewind {

  private final Store store;
  private final WorkspaceBoundary boundary;
  private final long operationId;
  private final long rewindTurnId;
  private final boolean force;
  private final Map<WorkspacePath, DirectorySpan> spans;

  /** The directories this rewind acts on: all of them, unless it rewinds named paths only. */
  private final Set<WorkspacePath> acted;

  /**
   * Directories seen present: a parent is looked at once per rewind, and not at all when a read of
   * a path under it went through it ({@link #notePresentAbove}).
   */
  private final Set<WorkspacePath> present = new HashSet<>();

  /**
   * Directories the rewind could not put back (a file or a link holds their name): what goes under
   * them is left with them.
   */
  private final Set<WorkspacePath> notPutBack = new HashSet<>();

  private DirectoryRewind(
      Store store,
      WorkspaceBoundary boundary,
      long operationId,
      long rewindTurnId,
      boolean force,
      Scoped scoped) {
    this.store = store;
    this.boundary = boundary;
    this.operationId = operationId;
    this.rewindTurnId = rewindTurnId;
    this.force = force;
    this.spans = scoped.spans();
    this.acted = scoped.acted();
  }

  /**
   * The directories of an operation that rewinds {@code turns}, recorded in the rewind turn {@code
   * rewindTurnId}; with {@code force}, a directory whose mode changed since the turns gets its mode
   * back all the same. With {@code named} paths, only the directories at or under them, and those
   * above them that the rewind empties or fills whole ({@link #acted}).
   */
  static DirectoryRewind of(
      Store store,
      WorkspaceBoundary boundary,
      long operationId,
      long rewindTurnId,
      boolean force,
      List<String> turns,
      NamedPaths named) {
    return new DirectoryRewind(
        store, boundary, operationId, rewindTurnId, force, spans(store, turns, named));
  }

  /** For a dry run: nothing is journaled or written. */
  static DirectoryRewind planOnly(
      Store store,
      WorkspaceBoundary boundary,
      boolean force,
      List<String> turns,
      NamedPaths named) {
    return new DirectoryRewind(store, boundary, -1, -1, force, spans(store, turns, named));
  }

  /**
   * Every directory's span over the turns (a made directory gets its mode from it), and those acted
   * on.
   */
  private record Scoped(Map<WorkspacePath, DirectorySpan> spans, Set<WorkspacePath> acted) {}

  private static Scoped spans(Store store, List<String> turns, NamedPaths named) {
    return store.read(
        tx -> {
          Map<Long, Long> seqs = new HashMap<>();
          Set<WorkspacePath> files = new HashSet<>();
          for (String turn : turns) {
            tx.turns().byExternalId(turn).ifPresent(stored -> seqs.put(stored.id(), stored.seq()));
          }
          if (!named.every()) {
            seqs.keySet()
                .forEach(id -> tx.fileChanges().ofTurn(id).forEach(row -> files.add(row.path())));
          }
          List<StoredDirectoryChange> rows =
              new ArrayList<>(tx.directoryChanges().ofTurns(seqs.keySet()));
          rows.sort(
              Comparator.comparing(StoredDirectoryChange::path)
                  .thenComparing(row -> seqs.get(row.turnId())));
          Map<WorkspacePath, DirectorySpan> spans = new HashMap<>();
          for (StoredDirectoryChange row : rows) {
            DirectorySpan older = spans.get(row.path());
            spans.put(
                row.path(),
                older == null
                    ? new DirectorySpan(row.before(), row.after(), true)
                    : new DirectorySpan(
                        older.before(),
                        row.after(),
                        older.chainHolds() && older.after().equals(Optional.of(row.before()))));
          }
          return new Scoped(spans, acted(spans, files, named));
        });
  }

  /**
   * The directories a rewind of {@code named} paths acts on: each one at or under a named path, and
   * each one above a named file whose every changed file and directory the rewind puts back too (a
   * directory the turns created for {@code new/a} and {@code new/b} is removed by a rewind of both,
   * and left by a rewind of {@code new/a} alone, which would find it still holding {@code new/b}).
   */
  private static Set<WorkspacePath> acted(
      Map<WorkspacePath, DirectorySpan> spans, Set<WorkspacePath> files, NamedPaths named) {
    if (named.every()) {
      return spans.keySet();
    }
    List<WorkspacePath> changed =
        spans.entrySet().stream()
            .filter(span -> changes(span.getValue()))
            .map(Map.Entry::getKey)
            .sorted(Comparator.comparingInt(WorkspacePath::length).reversed())
            .toList();
    Set<WorkspacePath> acted = new HashSet<>();
    for (WorkspacePath directory : changed) {
      boolean whole =
          files.stream().anyMatch(file -> named.selects(file) && file.isWithin(directory))
              && files.stream().filter(file -> file.isWithin(directory)).allMatch(named::selects)
              && changed.stream()
                  .filter(other -> !other.equals(directory) && other.isWithin(directory))
                  .allMatch(acted::contains);
      if (named.selects(directory) || whole) {
        acted.add(directory);
      }
    }
    return acted;
  }

  private static boolean changes(DirectorySpan span) {
    return span.removedByTurns() || span.createdByTurns() || span.modeChangedByTurns();
  }

  // ---- before the files: directories the turns removed, and parents of files to write
  // ---------------------

  /** The directories the rewound turns removed, from the top down. */
  List<WorkspacePath> removedByTurns() {
    return spans.entrySet().stream()
        .filter(span -> span.getValue().removedByTurns() && acted.contains(span.getKey()))
        .map(Map.Entry::getKey)
        .sorted(Comparator.comparingInt(WorkspacePath::length))
        .toList();
  }

  /**
   * Each directory the rewind makes again (one the turns removed), and each directory above one: a
   * file there is deleted before they are made ({@link RewindDecision.FileStep}).
   */
  Set<WorkspacePath> whereDirectoriesGo() {
    Set<WorkspacePath> where = new HashSet<>();
    for (WorkspacePath directory : removedByTurns()) {
      for (WorkspacePath at = directory;
          where.add(at) && at.parent().isPresent();
          at = at.parent().get()) {}
    }
    return where;
  }

  /** The directories the rewound turns created. */
  List<WorkspacePath> createdByTurns() {
    return spans.entrySet().stream()
        .filter(span -> span.getValue().createdByTurns() && acted.contains(span.getKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Makes each of {@code directories} (top down) that is missing, with its recorded mode. */
  void restore(List<WorkspacePath> directories) {
    for (WorkspacePath directory : directories) {
      if (present.contains(directory)) {
        continue;
      }
      switch (RewindDecision.putBack(boundary.directoryAt(directory))) {
        // a file or a link is where the directory goes: what goes under it is refused and reported
        // with it
        case LeaveIt leave -> {
          leave(directory, StoredRewindDirectory.Action.CREATE, leave);
          notPutBack.add(directory);
        }
        case MakeDirectory make -> create(directory);
        case AsItIs there -> {}
      }
      present.add(directory);
    }
  }

  /**
   * Why {@code file} is not written: a directory above it that the rewind could not put back (a
   * file or a link holds its name); empty when there is none.
   */
  Optional<String> notPutBackAbove(WorkspacePath file) {
    return notPutBackAbove(file, notPutBack);
  }

  private static Optional<String> notPutBackAbove(WorkspacePath file, Set<WorkspacePath> left) {
    return file.parent().stream()
        .flatMap(parent -> left.stream().filter(parent::isWithin))
        .min(Comparator.comparingInt(WorkspacePath::length))
        .map(
            directory ->
                "its directory "
                    + directory.display()
                    + " could not be put back (a file or a link is where it should be)");
  }

  /**
   * Notes the directories above the path {@code read} looked at as present, when it found a file, a
   * link or a directory there. The read followed nothing on its way ({@link
   * WorkspaceBoundary#observeExact}: through a link or into another mount it finds no such thing),
   * so each name above was a directory of the workspace, on its mount, when it was read: what an
   * {@code lstat} of each would have said, one call per directory and a parent opened for each.
   * Those looks were 9 % of a 57-file rewind's samples (docs/performance.md, "A rewind reads
   * less"). The read is the run's own, or the dry run's that the run takes (a read of a sibling
   * counts as much as the path's own), made before the run's synced commit rather than just before
   * its staging: a directory someone removes in between is made again by the staging of a file
   * under it (as any parent missing then is, with the default mode, not journaled), and a path
   * whose write replaces something then finds it changed, a conflict that is reported. That window
   * was there before, between the {@code lstat} and the staging; it is longer now.
   *
   * <p>The dry run gives the reads of the steps before the directories; the run, those of the step
   * it is about to decide. A directory the rewind removes ({@link #removeCreated}) leaves the set,
   * and the paths decided after that are read again.
   */
  void notePresentAbove(Observation read) {
    switch (read.snapshot()) {
      case Snapshot.RegularFile _, Snapshot.Symlink _, Snapshot.Directory _ -> {
        List<byte[]> parents = read.snapshot().path().parentComponents();
        for (int depth = 1; depth <= parents.size(); depth++) {
          present.add(WorkspacePath.ofComponents(parents.subList(0, depth)));
        }
      }
      // an absence says nothing of the names above (a parent missing, or a link, reads absent),
      // nor does what could not be read
      case Snapshot.Absent _, Snapshot.MetadataOnly _ -> {}
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
    OptionalInt mode =
        Optional.ofNullable(spans.get(directory))
            .map(DirectorySpan::before)
            .filter(DirectoryState::present)
            .map(state -> OptionalInt.of(state.mode()))
            .orElse(OptionalInt.empty());
    long row =
        store.writeDurably(
            tx -> {
              tx.directoryChanges().recordBefore(rewindTurnId, DirectoryState.absent(directory));
              return tx.rewindDirectories()
                  .plan(operationId, directory, StoredRewindDirectory.Action.CREATE, mode);
            });
    DirectoryOutcome outcome = boundary.makeDirectory(directory, mode);
    store.write(
        tx -> {
          mark(tx, row, outcome);
          return null;
        });
  }

  // ---- after the files: directories the turns created
  // ----------------------------------------------------

  /**
   * Removes the directories the rewound turns created that are empty now, deepest first. One an
   * earlier run of the operation already removed is not decided again: once a file the turns had
   * replaced by that directory is back at its name (the run that removed it was killed before it
   * journaled the file done), that file is the rewind's own, not "a file where the directory is".
   */
  void removeCreated() {
    Set<WorkspacePath> removedBefore = removedByAnEarlierRun();
    List<DirectoryState> toRemove = new ArrayList<>();
    for (WorkspacePath directory : createdByTurns()) {
      if (removedBefore.contains(directory)) {
        continue;
      }
      Optional<DirectoryState> now = boundary.directoryAt(directory);
      switch (RewindDecision.removeCreated(now)) {
        case LeaveIt leave -> leave(directory, StoredRewindDirectory.Action.REMOVE, leave);
        case RemoveDirectory remove -> toRemove.add(now.orElseThrow());
        case AsItIs gone -> {}
      }
    }
    List<StoredRewindDirectory> planned =
        store.writeDurably(
            tx -> {
              for (DirectoryState directory : toRemove) {
                tx.directoryChanges().recordBefore(rewindTurnId, directory);
                tx.rewindDirectories()
                    .plan(
                        operationId,
                        directory.path(),
                        StoredRewindDirectory.Action.REMOVE,
                        OptionalInt.of(directory.mode()));
              }
              return tx.rewindDirectories().of(operationId).stream()
                  .filter(
                      row ->
                          row.action() == StoredRewindDirectory.Action.REMOVE
                              && row.status() == StoredRewindDirectory.Status.PLANNED)
                  .sorted(
                      Comparator.comparingInt((StoredRewindDirectory row) -> row.path().length())
                          .reversed())
                  .toList();
            });
    if (planned.isEmpty()) {
      return;
    }
    Map<Long, DirectoryOutcome> outcomes = new HashMap<>();
    for (StoredRewindDirectory row : planned) {
      DirectoryOutcome outcome = boundary.removeDirectory(row.path());
      outcomes.put(row.id(), outcome);
      if (outcome instanceof DirectoryOutcome.Done) {
        present.remove(row.path());
      }
    }
    store.write(
        tx -> {
          for (StoredRewindDirectory row : planned) {
            DirectoryOutcome outcome = outcomes.get(row.id());
            if (outcome instanceof DirectoryOutcome.NotEmpty) {
              tx.rewindDirectories()
                  .mark(
                      row.id(),
                      StoredRewindDirectory.Status.SKIPPED,
                      Optional.of(SkipReason.DIRECTORY_NOT_EMPTY),
                      Optional.of(holding(boundary.namesIn(row.path()))));
            } else {
              mark(tx, row.id(), outcome);
            }
          }
          return null;
        });
  }

  /**
   * A directory the rewind does not put back because something that is not a directory holds its
   * name: planned and skipped at once, so that the report names it (and the rewind is not
   * complete).
   */
  /**
   * The directories this operation journaled removed, in an earlier run of it (none in a fresh
   * one).
   */
  private Set<WorkspacePath> removedByAnEarlierRun() {
    Set<WorkspacePath> removed = new HashSet<>();
    for (StoredRewindDirectory row : store.read(tx -> tx.rewindDirectories().of(operationId))) {
      if (row.action() == StoredRewindDirectory.Action.REMOVE
          && row.status() == StoredRewindDirectory.Status.DONE) {
        removed.add(row.path());
      }
    }
    return removed;
  }

  private void leave(WorkspacePath directory, StoredRewindDirectory.Action action, LeaveIt leave) {
    store.write(
        tx -> {
          long row =
              tx.rewindDirectories().plan(operationId, directory, action, OptionalInt.empty());
          tx.rewindDirectories()
              .mark(
                  row,
                  StoredRewindDirectory.Status.SKIPPED,
                  Optional.of(leave.reason()),
                  Optional.of(leave.detail()));
          return null;
        });
  }

  /** What keeps a directory: the names it holds ({@code names}, sorted), a few of them. */
  private static String holding(List<String> names) {
    int shown = Math.min(names.size(), 5);
    return "the turns created it, and it still holds "
        + (names.isEmpty()
            ? "something"
            : String.join(", ", names.subList(0, shown))
                + (names.size() > shown ? " and " + (names.size() - shown) + " more" : ""))
        + "; it is left as it is";
  }

  /**
   * A planned row's outcome: done (or already so, since it was planned when it was not), or
   * skipped.
   */
  private static void mark(StoreTransaction tx, long row, DirectoryOutcome outcome) {
    if (outcome instanceof DirectoryOutcome.Refused refused) {
      tx.rewindDirectories()
          .mark(
              row,
              StoredRewindDirectory.Status.SKIPPED,
              Optional.of(SkipReason.REFUSED),
              Optional.of(refused.reason()));
    } else if (outcome instanceof DirectoryOutcome.Changed changed) {
      tx.rewindDirectories()
          .mark(
              row,
              StoredRewindDirectory.Status.SKIPPED,
              Optional.of(SkipReason.CONFLICT),
              Optional.of(
                  "its mode changed while the rewind ran ("
                      + RewindDecision.octal(changed.mode())
                      + " now); it is left as it is"));
    } else {
      tx.rewindDirectories()
          .mark(row, StoredRewindDirectory.Status.DONE, Optional.empty(), Optional.empty());
    }
  }

  // ---- modes: before the files those that keep the owner's permissions, after them the rest
  // ---------------

  /** The directories whose mode the rewound turns changed, top down (or deepest first). */
  private List<WorkspacePath> modeChanged(boolean deepestFirst) {
    Comparator<WorkspacePath> topDown = Comparator.comparingInt(WorkspacePath::length);
    return spans.entrySet().stream()
        .filter(span -> span.getValue().modeChangedByTurns() && acted.contains(span.getKey()))
        .map(Map.Entry::getKey)
        .sorted(
            (deepestFirst ? topDown.reversed() : topDown).thenComparing(Comparator.naturalOrder()))
        .toList();
  }

  /**
   * Before the files: puts back the mode of each directory whose mode the turns changed, if that
   * keeps the owner's permissions and it still has the mode the turns left (anything else waits for
   * {@link #restoreModesAfterFiles}).
   */
  void restoreModesBeforeFiles() {
    Map<WorkspacePath, StoredRewindDirectory> journaled = journaledDirectories();
    Map<WorkspacePath, Integer> changes = new LinkedHashMap<>();
    for (WorkspacePath directory : modeChanged(false)) {
      DirectorySpan span = spans.get(directory);
      if (journaled.containsKey(directory)
          || !span.chainHolds()
          || !span.restoringKeepsTheOwnersPermissions()) {
        continue;
      }
      boundary
          .directoryAt(directory)
          .filter(now -> now.equals(span.after().orElseThrow()))
          .ifPresent(now -> changes.put(directory, now.mode()));
    }
    setModes(changes, Map.of(), Map.of());
  }

  /**
   * After the files (and the directories removed): every directory whose mode the turns changed
   * that is not done yet, deepest first. One that has its before-mode is left; one that still has
   * the mode the turns left (or any mode, with {@code force}) gets its before-mode; one changed
   * since is a conflict, one gone since is a conflict too (made again with {@code force}), and a
   * file or link in its place is refused.
   */
  void restoreModesAfterFiles() {
    Map<WorkspacePath, StoredRewindDirectory> journaled = journaledDirectories();
    Map<WorkspacePath, DirectoryState> planned = new HashMap<>();
    if (!journaled.isEmpty()) {
      store
          .read(tx -> tx.directoryChanges().ofTurn(rewindTurnId))
          .forEach(row -> planned.put(row.path(), row.before()));
    }
    Map<WorkspacePath, Integer> changes = new LinkedHashMap<>();
    Map<WorkspacePath, LeaveIt> left = new HashMap<>();
    Map<WorkspacePath, Long> landed = new HashMap<>();
    for (WorkspacePath directory : modeChanged(true)) {
      StoredRewindDirectory row = journaled.get(directory);
      if (row != null
          && (row.action() != StoredRewindDirectory.Action.MODE
              || row.status() != StoredRewindDirectory.Status.PLANNED)) {
        continue; // done or left before the files, by this run or an earlier one; or made again
        // with its mode
      }
      OptionalInt plannedFrom =
          Optional.ofNullable(planned.get(directory))
              .filter(DirectoryState::present)
              .map(state -> OptionalInt.of(state.mode()))
              .orElse(OptionalInt.empty());
      switch (RewindDecision.modeStep(
          spans.get(directory),
          boundary.directoryAt(directory),
          row == null ? OptionalInt.empty() : plannedFrom,
          force)) {
        case HasItsMode has -> {
          if (row != null) {
            landed.put(directory, row.id()); // set by a run that was killed before it journaled it
          }
        }
        case SetMode set -> changes.put(directory, set.from());
        case MakeIt make -> create(directory);
        case LeaveIt leave -> left.put(directory, leave);
      }
    }
    setModes(changes, left, landed);
  }

  /** Journals, sets and marks the mode changes; journals what is left and what landed. */
  private void setModes(
      Map<WorkspacePath, Integer> changes,
      Map<WorkspacePath, LeaveIt> left,
      Map<WorkspacePath, Long> landed) {
    if (changes.isEmpty() && left.isEmpty() && landed.isEmpty()) {
      return;
    }
    Map<WorkspacePath, Long> rows =
        store.writeDurably(
            tx -> {
              Map<WorkspacePath, Long> planned = new HashMap<>();
              changes.forEach(
                  (directory, from) -> {
                    tx.directoryChanges()
                        .recordBefore(rewindTurnId, DirectoryState.present(directory, from));
                    planned.put(
                        directory,
                        tx.rewindDirectories()
                            .plan(
                                operationId,
                                directory,
                                StoredRewindDirectory.Action.MODE,
                                OptionalInt.of(spans.get(directory).before().mode())));
                  });
              left.forEach(
                  (directory, leave) ->
                      tx.rewindDirectories()
                          .mark(
                              tx.rewindDirectories()
                                  .plan(
                                      operationId,
                                      directory,
                                      StoredRewindDirectory.Action.MODE,
                                      OptionalInt.of(spans.get(directory).before().mode())),
                              StoredRewindDirectory.Status.SKIPPED,
                              Optional.of(leave.reason()),
                              Optional.of(leave.detail())));
              landed.values().forEach(row -> mark(tx, row, new DirectoryOutcome.Done()));
              return planned;
            });
    Map<WorkspacePath, DirectoryOutcome> outcomes = new HashMap<>();
    changes.forEach(
        (directory, from) -> {
          DirectoryOutcome outcome =
              boundary.changeDirectoryMode(directory, from, spans.get(directory).before().mode());
          outcomes.put(directory, outcome);
        });
    store.write(
        tx -> {
          outcomes.forEach((directory, outcome) -> mark(tx, rows.get(directory), outcome));
          return null;
        });
  }

  /** The directories this operation journaled an action on (one per directory), by directory. */
  private Map<WorkspacePath, StoredRewindDirectory> journaledDirectories() {
    Map<WorkspacePath, StoredRewindDirectory> rows = new HashMap<>();
    store
        .read(tx -> tx.rewindDirectories().of(operationId))
        .forEach(row -> rows.put(row.path(), row));
    return rows;
  }

  // ---- a dry run
  // ------------------------------------------------------------------------------------------

  /**
   * What a directory the turns created holds when the run comes to remove it: what is in it now and
   * not gone by then, and what the run has put in it before (a file it writes there, a directory it
   * makes there). A file the turns deleted from it and the rewind puts back is not there now, but
   * the run writes it before it removes directories, so the directory is not empty then: the plan
   * must not promise its removal (the property PlanIsTheRunProperties found that one).
   */
  private static List<WorkspacePath> leftIn(
      WorkspacePath directory,
      List<WorkspacePath> entries,
      Set<WorkspacePath> gone,
      List<WorkspacePath> written,
      Set<WorkspacePath> made) {
    TreeSet<WorkspacePath> left = new TreeSet<>();
    entries.stream().filter(entry -> !gone.contains(entry)).forEach(left::add);
    Stream.concat(written.stream(), made.stream())
        .filter(path -> path.parent().filter(directory::equals).isPresent())
        .forEach(left::add);
    return List.copyOf(left);
  }

  /**
   * The directories the rewind would create (before writing {@code files}) and remove, those whose
   * mode it would put back, and those it would leave (and why), nothing written: decided as the run
   * decides them, on what it would have done to the files by then. {@code clearedFirst} are the
   * paths it would delete before it makes directories again (a directory goes where one of them
   * is), {@code deleted} every path it would delete: a directory the turns created is removed when
   * it holds nothing else by then (it is empty then, or holds only directories removed before it).
   * A directory a read of the dry run went through is not looked at again ({@link
   * #notePresentAbove}).
   */
  Planned wouldDo(
      List<WorkspacePath> files, Set<WorkspacePath> clearedFirst, Set<WorkspacePath> deleted) {
    TreeSet<WorkspacePath> create = new TreeSet<>();
    // top down: a directory under one the rewind makes is decided on what the rewind made
    TreeSet<WorkspacePath> candidates =
        new TreeSet<>(
            Comparator.comparingInt(WorkspacePath::length)
                .thenComparing(Comparator.naturalOrder()));
    candidates.addAll(removedByTurns());
    for (WorkspacePath file : files) {
      List<byte[]> parents = file.parentComponents();
      for (int depth = 1; depth <= parents.size(); depth++) {
        candidates.add(WorkspacePath.ofComponents(parents.subList(0, depth)));
      }
    }
    TreeMap<WorkspacePath, RewindReport.Skipped> inTheWay = new TreeMap<>();
    Set<WorkspacePath> notPutBack = new HashSet<>();
    for (WorkspacePath directory : candidates) {
      // deleted first, or under a directory the rewind makes (empty then): nothing is there
      boolean cleared =
          clearedFirst.contains(directory)
              || directory.parent().filter(create::contains).isPresent();
      if (!cleared && present.contains(directory)) {
        continue;
      }
      Optional<DirectoryState> now =
          cleared ? Optional.of(DirectoryState.absent(directory)) : boundary.directoryAt(directory);
      switch (RewindDecision.putBack(now)) {
        case MakeDirectory make -> create.add(directory);
        case LeaveIt leave -> {
          inTheWay.put(
              directory, new RewindReport.Skipped(directory, leave.reason(), leave.detail()));
          notPutBack.add(directory);
        }
        case AsItIs there -> {}
      }
    }
    List<WorkspacePath> remove = new ArrayList<>();
    Set<WorkspacePath> gone = new HashSet<>(deleted);
    List<WorkspacePath> created = new ArrayList<>(createdByTurns());
    created.sort(Comparator.comparingInt(WorkspacePath::length).reversed());
    for (WorkspacePath directory : created) {
      switch (RewindDecision.removeCreated(boundary.directoryAt(directory))) {
        case RemoveDirectory removed -> {
          // one that cannot be listed is taken to hold something the rewind does not remove
          Optional<List<WorkspacePath>> left =
              boundary
                  .entriesIn(directory)
                  .map(entries -> leftIn(directory, entries, gone, files, create));
          if (left.filter(List::isEmpty).isPresent()) {
            remove.add(directory);
            gone.add(directory);
          } else {
            inTheWay.put(
                directory,
                new RewindReport.Skipped(
                    directory,
                    SkipReason.DIRECTORY_NOT_EMPTY,
                    holding(namesOf(left.orElse(List.of())))));
          }
        }
        case LeaveIt leave ->
            inTheWay.put(
                directory, new RewindReport.Skipped(directory, leave.reason(), leave.detail()));
        case AsItIs alreadyGone -> {}
      }
    }
    remove.sort(
        Comparator.comparingInt(WorkspacePath::length)
            .reversed()
            .thenComparing(Comparator.naturalOrder()));
    List<WorkspacePath> modes = new ArrayList<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>(inTheWay.values());
    for (WorkspacePath directory : modeChanged(false)) {
      Optional<DirectoryState> now =
          create.contains(directory)
              ? Optional.of(spans.get(directory).before())
              : boundary.directoryAt(directory);
      switch (RewindDecision.modeStep(spans.get(directory), now, OptionalInt.empty(), force)) {
        case SetMode set -> modes.add(directory);
        case MakeIt make -> create.add(directory);
        case LeaveIt leave ->
            skipped.add(new RewindReport.Skipped(directory, leave.reason(), leave.detail()));
        case HasItsMode has -> {}
      }
    }
    modes.sort(Comparator.naturalOrder());
    return new Planned(List.copyOf(create), remove, modes, skipped, notPutBack);
  }

  /**
   * The names of {@code entries} as {@link WorkspaceBoundary#namesIn} gives a directory's, sorted:
   * what a run that finds the directory not empty names.
   */
  private static List<String> namesOf(List<WorkspacePath> entries) {
    return entries.stream()
        .map(entry -> new String(entry.name(), StandardCharsets.UTF_8))
        .sorted()
        .toList();
  }

  /**
   * What a dry run finds the directories' steps would do; {@code notPutBack}: the directories it
   * could not put back, under which no file is written.
   */
  record Planned(
      List<WorkspacePath> created,
      List<WorkspacePath> removed,
      List<WorkspacePath> modes,
      List<RewindReport.Skipped> left,
      Set<WorkspacePath> notPutBack) {

    /** As {@link DirectoryRewind#notPutBackAbove}, for this dry run. */
    Optional<String> notPutBackAbove(WorkspacePath file) {
      return DirectoryRewind.notPutBackAbove(file, notPutBack);
    }
  }

  // ---- after the rewind: the rewind turn's record
  // -------------------------------------------------------

  /**
   * Records, in the rewind turn, the state of every directory it touched now that the rewind is
   * done.
   */
  static void recordAfter(Store store, WorkspaceBoundary boundary, StoredTurn rewindTurn) {
    Map<WorkspacePath, Optional<DirectoryState>> after = new HashMap<>();
    store
        .read(tx -> tx.directoryChanges().ofTurn(rewindTurn.id()))
        .forEach(row -> after.put(row.path(), DirectorySide.now(boundary, row.path())));
    store.write(
        tx -> {
          after.forEach(
              (path, state) -> tx.directoryChanges().complete(rewindTurn.id(), path, state));
          return null;
        });
  }
}
