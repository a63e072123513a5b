package io.turndiff.rewind;

import io.turndiff.boundary.ContentSink;
import io.turndiff.boundary.Durability;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.OverLimit;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.capture.record.BlobSink;
import io.turndiff.capture.record.ChangeRecorder;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Action;
import io.turndiff.rewind.RewindDecision.AlreadyThere;
import io.turndiff.rewind.RewindDecision.FileStep;
import io.turndiff.rewind.RewindDecision.Leave;
import io.turndiff.rewind.RewindDecision.Write;
import io.turndiff.store.Blobs;
import io.turndiff.store.RewindOperations;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredTurn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * Applies a stored rewind operation to the workspace, journaling each path in the store as it goes:
 * planned → started (its current state recorded in the rewind turn, its temporary name journaled
 * before the file is made) → restored, merged or skipped. A run that dies anywhere leaves a journal
 * the next run of the same operation resumes from. The protocol is written out in {@code
 * docs/rewind-protocol.md}.
 */
final class RewindJournal {

  /**
   * How many journaled temporary names a path's write tries before it is refused (each one taken).
   */
  private static final int TEMPORARY_NAME_ATTEMPTS = 16;

  /**
   * Content over the size limit counts as stored without being stored: what a dry run plans with
   * (it stores nothing, and plans as the real run decides), and what a real run decides with before
   * it stores only what it writes over or deletes.
   */
  static final ContentSink AS_IF_STORED =
      new ContentSink() {
        @Override
        public boolean holds(Sha256 sha256) {
          return true;
        }

        @Override
        public Optional<Upload> begin() {
          return Optional.empty();
        }
      };

  private final Store store;
  private final TestHook hook;
  private final LongConsumer diffsLater;
  private final ChangeRecorder recorder = new ChangeRecorder();

  /**
   * @param hook told {@link TestHook.Point#REWIND_FILE_STAGED} after each file is staged, {@link
   *     TestHook.Point#BEFORE_REWIND_RENAME} before each path is renamed into place and {@link
   *     TestHook.Point#BEFORE_REWIND_JOURNALED_DONE} before the paths are journaled done
   * @param diffsLater told the rewind turn's row once the operation is done: the turn's line diffs
   *     are pending, to be computed after the caller has its answer
   */
  RewindJournal(Store store, TestHook hook, LongConsumer diffsLater) {
    this.store = store;
    this.hook = hook;
    this.diffsLater = diffsLater;
  }

  /**
   * The paths whose directories the operation acts on: those it was asked for; for a rewind to
   * before a tool call, the paths it planned ({@link Plan#directoryScope}).
   */
  private static NamedPaths directoryScope(
      StoredRewindOperation operation, List<StoredRewindEntry> entries) {
    return operation.beforeToolCall().isEmpty()
        ? new NamedPaths(operation.paths())
        : NamedPaths.selected(entries.stream().map(StoredRewindEntry::path).toList());
  }

  /**
   * Applies a stored operation to the workspace behind {@code boundary} and finishes it: the
   * directories the turns removed (and modes that keep the owner's permissions) first; then the
   * files, in three steps: (1) stage the new content of the paths an earlier run left started and
   * of the planned ones, each under a journaled temporary name, not synced (see {@link
   * #stagePlanned} and {@link #resumeStarted}), and journal durably what each replaces; (2) put
   * each in place if it has not changed since its write was decided; (3) journal them done. Then
   * the directories the turns created, the remaining modes, and the rewind turn's record of what
   * the rewind left, with the operation marked done, not synced: the caller answers, then syncs
   * ({@link RewindService#makeDurable}). The journal is the unit of durability, as a database's is:
   * every before-state is stored and every intended state known by hash before the first rename, so
   * what a power loss takes back before the sync is redone from the store ({@link
   * PowerLossRecovery}), and no file or directory is synced on its own. A path whose type the turns
   * changed between file and directory is written by the same three steps, at its own place among
   * the directories' ({@link FileStep}): a file the turns put where a directory was goes before
   * that directory is made again, a file they replaced by a directory comes back after that
   * directory is removed.
   *
   * @param resumed whether an earlier run of the operation may have left staged files behind
   * @param read what the dry run just before this run read of the paths decided before any
   *     directory step ({@link RewindReports#dryRun}): each is decided on that read, not read and
   *     hashed again
   * @param loaded the stored contents the stored plan loaded, checked, by hash ({@link
   *     Plan#contents}, which the dry run decided with): only the others are loaded
   */
  void apply(
      StoredRewindOperation operation,
      boolean force,
      boolean resumed,
      StoredTurn rewindTurn,
      WorkspaceBoundary boundary,
      Map<WorkspacePath, Observation> read,
      Map<Sha256, byte[]> loaded) {
    if (resumed
        && BootId.mayBeAnotherThanNow(store.read(tx -> tx.rewinds().bootId(operation.id())))) {
      // the run it resumes ran in another boot (or in one the system cannot tell apart): what it
      // journaled as written may not have reached the disk
      new PowerLossRecovery(store, this).redo(operation, rewindTurn, boundary);
    }
    List<StoredRewindEntry> entries = store.read(tx -> tx.rewinds().entries(operation.id()));
    if (resumed) {
      // a run that died between staging and journaling the paths as started left files under
      // journaled names: removed before those names are replaced by new ones
      entries.stream()
          .filter(entry -> entry.status() == RewindStatus.PLANNED)
          .forEach(entry -> discardStagedByAnEarlierRun(boundary, entry));
    }
    // only the paths still to be written need contents: one the plan left (a content that read
    // back wrong among them, RewindPlanner#withDamagedContentsLeft) is not loaded again; one that
    // reads back wrong now (a resumed run loads them all) is left as the plan would have left it
    LoadedContents loadedNow = contents(stillToWrite(entries), loaded);
    if (loadedNow.damaged().any()) {
      entries = leftWhereDamaged(operation, entries, loadedNow.damaged());
    }
    Map<Sha256, byte[]> contents = loadedNow.sound();
    Map<Long, String> temporaryNames = new HashMap<>();
    entries.stream()
        .filter(entry -> entry.status() == RewindStatus.PLANNED)
        .forEach(entry -> temporaryNames.put(entry.id(), boundary.newTemporaryName()));
    // the boot (a power loss from here on leaves a row that says which boot may have lost the
    // writes) and a new temporary name for every planned path (a run killed before it renamed or
    // removed a file made under one leaves a name the next run finds, and, since no one could know
    // it, a file of its own): an ordered commit, made durable by the synced one that comes before
    // the run's first change to the workspace, whatever it is (a path's journal before its file is
    // staged, a directory's before it is made, removed or given its mode), since that commit syncs
    // the store's log up to its own end. It was a synced commit of its own
    // (docs/rewind-protocol.md,
    // 4a).
    long toolCall =
        store.write(
            tx -> {
              tx.rewinds().runningInBoot(operation.id(), BootId.now());
              tx.rewinds().journalTemporaryNames(temporaryNames);
              return tx.toolCalls().record(rewindTurn.id(), operation.externalId());
            });
    DirectoryRewind directories =
        DirectoryRewind.of(
            store,
            boundary,
            operation.id(),
            rewindTurn.id(),
            force,
            operation.turns(),
            directoryScope(operation, entries));
    Map<FileStep, List<StoredRewindEntry>> steps = bySteps(entries, directories);
    Files files =
        new Files(
            rewindTurn,
            toolCall,
            boundary,
            directories,
            contents,
            loadedNow.damaged(),
            temporaryNames,
            read,
            force);
    // a file where a directory the turns removed goes back is deleted first; a file where a
    // directory they created was is put back once that directory is removed
    Map<WorkspacePath, Snapshot> putInPlace = new HashMap<>();
    putInPlace.putAll(applyFiles(steps.get(FileStep.BEFORE_DIRECTORIES), files));
    directories.restore(directories.removedByTurns());
    directories.restoreModesBeforeFiles();
    putInPlace.putAll(applyFiles(steps.get(FileStep.WITH_THE_FILES), files));
    directories.removeCreated();
    // what the dry run read of a path decided after the directories were removed may be a
    // directory the run has removed since: read again
    putInPlace.putAll(
        applyFiles(steps.get(FileStep.AFTER_REMOVED_DIRECTORIES), files.withoutTheDryRunsReads()));
    directories.restoreModesAfterFiles();
    // no sync here: the caller answers first, then makes the operation durable with one syncfs and
    // its synced mark (RewindService.makeDurable); until then, and if that never comes, the journal
    // redoes what a power loss took (PowerLossRecovery)
    finish(operation, rewindTurn, boundary, contents, putInPlace);
  }

  /** What every step of the files shares in one run of an operation. */
  private record Files(
      StoredTurn rewindTurn,
      long toolCall,
      WorkspaceBoundary boundary,
      DirectoryRewind directories,
      Map<Sha256, byte[]> contents,
      DamagedContents damaged,
      Map<Long, String> temporaryNames,
      Map<WorkspacePath, Observation> readByTheDryRun,
      boolean force) {

    Files withoutTheDryRunsReads() {
      return new Files(
          rewindTurn,
          toolCall,
          boundary,
          directories,
          contents,
          damaged,
          temporaryNames,
          Map.of(),
          force);
    }
  }

  /**
   * The entries still to do (planned, or started by an earlier run), by the step they are written
   * in ({@link RewindDecision#stepOf}).
   */
  private static Map<FileStep, List<StoredRewindEntry>> bySteps(
      List<StoredRewindEntry> entries, DirectoryRewind directories) {
    Set<WorkspacePath> whereDirectoriesGo = directories.whereDirectoriesGo();
    Set<WorkspacePath> removed = new HashSet<>(directories.createdByTurns());
    Map<FileStep, List<StoredRewindEntry>> steps = new EnumMap<>(FileStep.class);
    for (FileStep step : FileStep.values()) {
      steps.put(step, new ArrayList<>());
    }
    for (StoredRewindEntry entry : entries) {
      if (entry.status() == RewindStatus.PLANNED || entry.status() == RewindStatus.STARTED) {
        steps
            .get(
                RewindDecision.stepOf(
                    entry.path(), entry.target(), entry.expected(), whereDirectoriesGo, removed))
            .add(entry);
      }
    }
    return steps;
  }

  /**
   * One step of the files: the paths an earlier run left started are resumed, the planned ones
   * staged (see {@link #stagePlanned} and {@link #resumeStarted}), then each is put in place
   * ({@link #commitAll}). A step with no path does nothing. Returns the state of each file the step
   * put in place, as it left it.
   */
  private Map<WorkspacePath, Snapshot> applyFiles(List<StoredRewindEntry> entries, Files files) {
    if (entries.isEmpty()) {
      return Map.of();
    }
    WorkspaceBoundary boundary = files.boundary();
    List<StoredRewindEntry> started =
        entries.stream().filter(e -> e.status() == RewindStatus.STARTED).toList();
    List<StoredRewindEntry> planned =
        entries.stream().filter(e -> e.status() == RewindStatus.PLANNED).toList();
    // every staged file is renamed into place or removed, whatever happens on the way (an exception
    // included)
    Set<WriteOutcome.Staged> uncommitted = new LinkedHashSet<>();
    try {
      List<Pending> pending = new ArrayList<>();
      for (StoredRewindEntry entry : started) {
        resumeStarted(files, entry, uncommitted).ifPresent(pending::add);
      }
      pending.addAll(stagePlanned(planned, files, uncommitted));
      return commitAll(
          boundary, files.directories(), pending, uncommitted, files.rewindTurn().workspaceId());
    } finally {
      uncommitted.forEach(boundary::discard);
    }
  }

  /**
   * Stored contents loaded for writes, by hash: the sound ones, and which read back wrong ({@link
   * DamagedContents}).
   */
  record LoadedContents(Map<Sha256, byte[]> sound, DamagedContents damaged) {}

  /** The entries a run still writes: planned, or started by an earlier run. */
  private static List<StoredRewindEntry> stillToWrite(List<StoredRewindEntry> entries) {
    return entries.stream()
        .filter(
            entry ->
                entry.status() == RewindStatus.PLANNED || entry.status() == RewindStatus.STARTED)
        .toList();
  }

  /**
   * The stored contents the entries' writes may need, by hash (a content in chunks is streamed):
   * those among {@code loaded} as they are (checked by the plan that loaded them), the others from
   * the store, each checked against its hash ({@code Blobs.checkedContents}). Loading them again
   * was a thirtieth of a rewind's samples when the dry run had just loaded the same (the bench's
   * 57-file rewind under a wall-clock profile, docs/performance.md).
   */
  LoadedContents contents(List<StoredRewindEntry> entries, Map<Sha256, byte[]> loaded) {
    Set<Sha256> wanted = new HashSet<>();
    entries.forEach(
        entry -> {
          entry.target().storedContent().ifPresent(wanted::add);
          entry.expected().flatMap(Snapshot::storedContent).ifPresent(wanted::add);
          entry.merged().ifPresent(wanted::add);
        });
    wanted.removeAll(loaded.keySet());
    Blobs.CheckedContents read = store.read(tx -> tx.blobs().checkedContents(wanted));
    Map<Sha256, byte[]> sound = new HashMap<>(loaded);
    sound.putAll(read.sound());
    return new LoadedContents(sound, new DamagedContents(read.damaged()));
  }

  /**
   * Leaves, in the journal, each planned entry a content of which reads back wrong, as the plan
   * leaves one ({@link DamagedContents}); returns the entries as journaled then. An entry an
   * earlier run started is left where it is resumed, once it is known not to have landed ({@link
   * #resumeStarted}).
   */
  private List<StoredRewindEntry> leftWhereDamaged(
      StoredRewindOperation operation, List<StoredRewindEntry> entries, DamagedContents damaged) {
    Map<Long, RewindOperations.Mark> marks = new HashMap<>();
    for (StoredRewindEntry entry : entries) {
      if (entry.status() == RewindStatus.PLANNED) {
        damaged
            .leave(entry.target(), entry.expected(), entry.merged())
            .ifPresent(
                why ->
                    marks.put(
                        entry.id(),
                        new RewindOperations.Mark(
                            RewindStatus.SKIPPED,
                            Optional.of(SkipReason.DAMAGED),
                            Optional.of(why),
                            Optional.empty())));
      }
    }
    if (marks.isEmpty()) {
      return entries;
    }
    return store.write(
        tx -> {
          tx.rewinds().mark(marks);
          return tx.rewinds().entries(operation.id());
        });
  }

  /**
   * A path whose write is staged (a deletion stages nothing), journaled as started: the state it
   * held when its write was decided, which it must still hold when its staged file is put in place.
   */
  private record Pending(
      StoredRewindEntry entry,
      Snapshot decided,
      Write write,
      Optional<Sha256> merged,
      Optional<WriteOutcome.Staged> staged) {

    /** A decided write, with what staging it made: a file, or nothing (a deletion). */
    static Pending of(Decided decided, WriteOutcome staged) {
      Write write = (Write) decided.action();
      return new Pending(
          decided.entry(),
          decided.current().snapshot(),
          write,
          mergedContent(write),
          staged instanceof WriteOutcome.Staged temporary
              ? Optional.of(temporary)
              : Optional.empty());
    }

    /**
     * The state of a file this write put in place, as it left it: the content it wrote (a stored
     * one, by its hash) and what the staged file's own {@code fstat} said once written, which the
     * rename into place does not change (inode, size, modification time, mode). Empty for a
     * deletion, a link, and a file whose handle could not say: those are read after the run.
     */
    Optional<Snapshot> asLeft(BoundaryKind kind, Instant takenAt) {
      Optional<Sha256> content = write.merge() ? merged : write.state().storedContent();
      return staged
          .flatMap(WriteOutcome.Staged::written)
          .flatMap(
              stat ->
                  content.map(
                      hash -> Snapshot.regularFile(entry.path(), kind, stat, hash, takenAt)));
    }
  }

  /** The hash of what a merge writes; none for a write of a stored state. */
  private static Optional<Sha256> mergedContent(Write write) {
    return write.merge() ? write.content().map(Sha256::of) : Optional.empty();
  }

  /** A planned path's action, decided on the state it holds now. */
  private record Decided(StoredRewindEntry entry, Observation current, Action action) {}

  /**
   * Step 1 for the planned paths: decides each on its current state, journals every decided path
   * (skipped, already there, or started with its current state recorded in the rewind turn) in the
   * run's one synced commit, then stages the new content of each write under the temporary name
   * {@link #apply} journaled for it; a write whose staging is refused is journaled skipped. So the
   * commit that makes the rewind durable comes before its first file is made: every state a rename
   * will replace is stored, and every intended state known by hash. {@code uncommitted} gets each
   * staged file as it is made.
   */
  private List<Pending> stagePlanned(
      List<StoredRewindEntry> planned, Files files, Set<WriteOutcome.Staged> uncommitted) {
    List<Decided> decisions = decideAll(planned, files);
    Staging staging = Staging.of(decisions);
    journalDecided(files, staging);
    Map<Long, WriteOutcome> staged =
        stageWrites(files.boundary(), staging.writes(), files.temporaryNames(), uncommitted);
    List<Pending> pending = new ArrayList<>();
    Map<StoredRewindEntry, Leave> refused = new HashMap<>();
    for (Decided decided : staging.writes()) {
      WriteOutcome outcome = staged.get(decided.entry().id());
      if (outcome instanceof WriteOutcome.Refused refusal) {
        refused.put(decided.entry(), new Leave(SkipReason.REFUSED, refusal.reason()));
      } else {
        pending.add(Pending.of(decided, outcome));
      }
    }
    journalRefused(refused);
    return pending;
  }

  /**
   * Journals the writes whose staging was refused (every temporary name taken, a parent that is not
   * a directory) as skipped, with why; their current state stays recorded in the rewind turn, which
   * its after-state, the same, then joins.
   */
  private void journalRefused(Map<StoredRewindEntry, Leave> refused) {
    if (refused.isEmpty()) {
      return;
    }
    Map<Long, RewindOperations.Mark> marks = new HashMap<>();
    refused.forEach(
        (entry, leave) ->
            marks.put(
                entry.id(),
                new RewindOperations.Mark(
                    RewindStatus.SKIPPED,
                    Optional.of(leave.reason()),
                    Optional.of(leave.detail()),
                    Optional.empty())));
    store.write(
        tx -> {
          tx.rewinds().mark(marks);
          return null;
        });
  }

  /**
   * Each planned path's action, decided on its current state; the missing directories a file goes
   * into are made on the way, one at a time in path order (each is journaled), and a file under a
   * directory that could not be put back (a file or a link holds its name) is left with it.
   *
   * <p>The paths are read one after another on the caller's thread, as every step of a rewind's
   * files is (staging, the after-states). They ran on a pool of 8 threads made for each step while
   * each step waited for its own {@code fsync}; since the journal is the unit of durability no step
   * waits for the disk, and the pool's thread starts and hand-offs cost more than two cores gave
   * back: measured in one JVM, the modes alternated rewind by rewind, 57 files 85.7 ms with the
   * pool against 69.5 ms on the caller's thread, 1,070 files 999 against 857 ms
   * (docs/performance.md, "The rewind's thread count").
   */
  private List<Decided> decideAll(List<StoredRewindEntry> planned, Files files) {
    DirectoryRewind directories = files.directories();
    List<Decided> decisions =
        planned.stream()
            .map(
                entry ->
                    decide(
                        files.boundary(),
                        entry,
                        Optional.ofNullable(files.readByTheDryRun().get(entry.path())),
                        files.contents(),
                        files.force()))
            .toList();
    decisions.forEach(decided -> directories.notePresentAbove(decided.current()));
    for (Decided decided : decisions) {
      if (decided.action() instanceof Write write && write.putsAFile()) {
        directories.restoreParentsOf(decided.entry().path());
      }
    }
    return decisions.stream().map(decided -> leftWithItsDirectory(decided, directories)).toList();
  }

  /**
   * Stages the new content of each write under its journaled temporary name, one after another, not
   * synced (the sync after the answer makes them durable, {@link RewindService#makeDurable}).
   * Returns each write's outcome by its entry's id; {@code uncommitted} gets each staged file as it
   * is made.
   */
  private Map<Long, WriteOutcome> stageWrites(
      WorkspaceBoundary boundary,
      List<Decided> writes,
      Map<Long, String> temporaryNames,
      Set<WriteOutcome.Staged> uncommitted) {
    Map<Long, WriteOutcome> stagedById = new HashMap<>();
    for (Decided decided : writes) {
      WriteOutcome staged =
          underJournaledNames(
              boundary,
              decided.entry(),
              temporaryNames.get(decided.entry().id()),
              temporary -> stage(boundary, decided.entry(), (Write) decided.action(), temporary));
      if (staged instanceof WriteOutcome.Staged temporary) {
        uncommitted.add(temporary);
        hook.reached(TestHook.Point.REWIND_FILE_STAGED);
      }
      stagedById.put(decided.entry().id(), staged);
    }
    return stagedById;
  }

  /**
   * The planned paths as decided, journaled together: the paths left (with the reason), those that
   * already held their before-state, and the writes, each with the state it replaces (its {@link
   * Decided#current}), which is stored before anything is staged for it.
   */
  private record Staging(
      Map<Long, Leave> left, List<StoredRewindEntry> alreadyThere, List<Decided> writes) {

    /** Sorts the decisions by their action. */
    static Staging of(List<Decided> decisions) {
      Staging staging = new Staging(new HashMap<>(), new ArrayList<>(), new ArrayList<>());
      for (Decided decided : decisions) {
        StoredRewindEntry entry = decided.entry();
        switch (decided.action()) {
          case Leave leave -> staging.left().put(entry.id(), leave);
          case AlreadyThere there -> staging.alreadyThere().add(entry);
          case Write write -> staging.writes().add(decided);
        }
      }
      return staging;
    }
  }

  /**
   * Journals every decided path in one durable transaction, before anything is staged: the left
   * ones skipped, those already there restored, and for each write what it is about to replace
   * recorded in the rewind turn (and a merge's result stored) and the path started: what a rename
   * is about to replace is in the store, and what it puts there known by hash, whatever happens
   * next. A run killed after it resumes each started path: landed, still what it replaced (staged
   * again), or changed since (a conflict).
   */
  private void journalDecided(Files files, Staging staging) {
    // the marks in one statement per kind of mark (and 64 paths), not one per path
    Map<Long, RewindOperations.Mark> marks = new HashMap<>();
    staging
        .left()
        .forEach(
            (id, leave) ->
                marks.put(
                    id,
                    new RewindOperations.Mark(
                        RewindStatus.SKIPPED,
                        Optional.of(leave.reason()),
                        Optional.of(leave.detail()),
                        Optional.empty())));
    staging
        .alreadyThere()
        .forEach(
            entry ->
                marks.put(
                    entry.id(),
                    new RewindOperations.Mark(
                        RewindStatus.RESTORED,
                        Optional.empty(),
                        Optional.of("it already held its before-state"),
                        Optional.empty())));
    store.writeDurably(
        tx -> {
          Map<Long, RewindOperations.Mark> started = new HashMap<>(marks);
          for (Decided decided : staging.writes()) {
            Write write = (Write) decided.action();
            Optional<Sha256> merged = mergedContent(write);
            Observation current = decided.current();
            Observation replaced =
                new Observation(
                    RewindDecision.replaced(current.snapshot()),
                    current.via(),
                    current.content(),
                    current.streamed());
            recorder.recordBefore(
                tx, files.rewindTurn().id(), files.toolCall(), replaced, DetectedBy.SNAPSHOT);
            merged.ifPresent(sha -> tx.blobs().put(sha, write.content().orElseThrow()));
            started.put(
                decided.entry().id(),
                new RewindOperations.Mark(
                    RewindStatus.STARTED, Optional.empty(), Optional.empty(), merged));
          }
          tx.rewinds().mark(started);
          return null;
        });
  }

  /** A write of a file under a directory the rewind could not put back: left, refused. */
  private static Decided leftWithItsDirectory(Decided decided, DirectoryRewind directories) {
    if (!(decided.action() instanceof Write write && write.putsAFile())) {
      return decided;
    }
    return directories
        .notPutBackAbove(decided.entry().path())
        .map(
            why ->
                new Decided(decided.entry(), decided.current(), new Leave(SkipReason.REFUSED, why)))
        .orElse(decided);
  }

  /**
   * Decides a planned path on its current state, read as if stored: a path the rewind leaves is
   * never copied into the store. What a write replaces is stored completely first (the undo puts it
   * back), and decided on again as stored: it may have changed since it was hashed.
   *
   * <p>The dry run that came just before ({@code readByTheDryRun}) read and hashed the path
   * already, a few milliseconds ago: the run decides on that read rather than read and hash every
   * path a second time. Nothing is weakened by it. What the path held then is what the rewind turn
   * records as replaced and stores before the rename, and the check right before the rename ({@link
   * #commitAll}) reads the path again and puts nothing in place unless it still holds exactly that:
   * a path changed after the dry run read it is a conflict ("it changed while the rewind ran"), as
   * one changed after the run's own read always was. Only the verdict on such a path differs (its
   * change is not merged: the run did not see it).
   */
  private Decided decide(
      WorkspaceBoundary boundary,
      StoredRewindEntry entry,
      Optional<Observation> readByTheDryRun,
      Map<Sha256, byte[]> contents,
      boolean force) {
    Function<Observation, Action> decideOn =
        now ->
            RewindDecision.decide(
                entry.target(), entry.expected(), now.snapshot(), now.content(), contents, force);
    Observation current =
        readByTheDryRun.orElseGet(() -> boundary.observeExact(entry.path(), AS_IF_STORED));
    Action action = decideOn.apply(current);
    // what a write replaces is mostly stored already (the after-state the turn's finish streamed
    // in): then the one read stands, its content marked as looked up (a collection keeps it until
    // the rewind turn refers to it); else the path is read again into the store. A second whole
    // read of a 30 MB file was a fifth of a big file's rewind (docs/performance.md, "A big file").
    BlobSink storing = BlobSink.storing(store);
    if (action instanceof Write
        && current.streamed()
        && !storing.holds(current.snapshot().storedContent().orElseThrow())) {
      current = boundary.observeExact(entry.path(), storing);
      action = decideOn.apply(current);
    }
    return new Decided(entry, current, action);
  }

  /**
   * Steps 2 and 3 for every staged path, planned or resumed alike: put each staged file in place
   * (or unlink a deletion's name) only if the path still holds what it held when its write was
   * decided, read through the parent directory the rename then uses, right before it ({@code
   * commitIfUnchanged}, {@code deleteIfUnchanged}); sync each directory a name changed in (and
   * those the rewind made directories in), and journal every path as restored, merged or skipped,
   * in the transaction that takes what was put in place into the index of a tracked workspace
   * ({@link IndexedWrites}). A staged file not put in place is removed: by the boundary when the
   * path changed, and through {@code uncommitted} in any case. Returns the state of each file put
   * in place, as it left it ({@link Pending#asLeft}).
   */
  private Map<WorkspacePath, Snapshot> commitAll(
      WorkspaceBoundary boundary,
      DirectoryRewind directories,
      List<Pending> pending,
      Set<WriteOutcome.Staged> uncommitted,
      long workspaceId) {
    Map<Long, Leave> refused = new HashMap<>();
    Map<WorkspacePath, Snapshot> putInPlace = new HashMap<>();
    // a file over the size limit is read whole to be compared, and captured only when the store
    // holds it
    OverLimit checking = new OverLimit.Capture(BlobSink.checking(store));
    for (Pending write : pending) {
      hook.reached(TestHook.Point.BEFORE_REWIND_RENAME);
      Predicate<Snapshot> unchanged =
          now -> RewindDecision.unchangedSinceDecided(write.decided(), now);
      // the check and the rename (or unlink) happen through one held parent directory, one right
      // after the other
      WriteOutcome outcome =
          write.staged().isPresent()
              ? boundary.commitIfUnchanged(write.staged().get(), checking, unchanged)
              : boundary.deleteIfUnchanged(write.entry().path(), checking, unchanged);
      switch (outcome) {
        case WriteOutcome.Done done -> {
          write.staged().ifPresent(uncommitted::remove);
          write
              .asLeft(boundary.kind(), store.clock().instant())
              .ifPresent(left -> putInPlace.put(left.path(), left));
        }
        case WriteOutcome.Changed changed ->
            refused.put(
                write.entry().id(),
                new Leave(SkipReason.CONFLICT, "it changed while the rewind ran"));
        case WriteOutcome.Refused refusal ->
            refused.put(write.entry().id(), new Leave(SkipReason.REFUSED, refusal.reason()));
        default -> throw new IllegalStateException("a commit or delete never " + outcome);
      }
    }
    hook.reached(TestHook.Point.BEFORE_REWIND_JOURNALED_DONE);
    IndexedWrites indexed = new IndexedWrites();
    for (Pending write : pending) {
      if (!refused.containsKey(write.entry().id())) {
        indexed.wrote(write.entry().path(), write.write(), write.merged());
      }
    }
    // one statement per kind of mark (and 64 paths), not one per path
    Map<Long, RewindOperations.Mark> marks = new HashMap<>();
    for (Pending write : pending) {
      Leave leave = refused.get(write.entry().id());
      marks.put(
          write.entry().id(),
          leave != null
              ? new RewindOperations.Mark(
                  RewindStatus.SKIPPED,
                  Optional.of(leave.reason()),
                  Optional.of(leave.detail()),
                  write.merged())
              : new RewindOperations.Mark(
                  write.write().merge() ? RewindStatus.MERGED : RewindStatus.RESTORED,
                  Optional.empty(),
                  Optional.empty(),
                  write.merged()));
    }
    store.write(
        tx -> {
          indexed.intoTheIndex(tx, workspaceId);
          tx.rewinds().mark(marks);
          return null;
        });
    return putInPlace;
  }

  /**
   * Runs {@code attempt} with the temporary name journaled for the entry; when that name is taken
   * (by a file someone else made, which is left alone), journals a fresh one and tries again, a few
   * times.
   */
  WriteOutcome underJournaledNames(
      WorkspaceBoundary boundary,
      StoredRewindEntry entry,
      String journaled,
      Function<String, WriteOutcome> attempt) {
    String temporary = journaled;
    for (int tries = 1; ; tries++) {
      WriteOutcome outcome = attempt.apply(temporary);
      if (!(outcome instanceof WriteOutcome.NameTaken)) {
        return outcome;
      }
      if (tries == TEMPORARY_NAME_ATTEMPTS) {
        return new WriteOutcome.Refused(
            "every temporary name tried beside " + entry.path() + " was taken");
      }
      String next = boundary.newTemporaryName();
      store.writeDurably(
          tx -> {
            tx.rewinds().journalTemporaryNames(Map.of(entry.id(), next));
            return null;
          });
      temporary = next;
    }
  }

  /**
   * Stages the new content of a path, not synced (the syncfs at the operation's end makes it
   * durable, and {@link PowerLossRecovery} redoes it from the store when a power loss came first);
   * a deletion stages nothing (it happens at commit time).
   */
  WriteOutcome stage(
      WorkspaceBoundary boundary, StoredRewindEntry entry, Write write, String name) {
    Snapshot state = write.state();
    Optional<String> temporary = Optional.of(name);
    if (!write.merge() && state.presence() == Presence.ABSENT) {
      return new WriteOutcome.Done();
    }
    if (!write.merge() && state.type().orElseThrow() == FileType.SYMLINK) {
      return boundary.stageSymlink(entry.path(), state.linkTarget().orElseThrow(), temporary);
    }
    if (write.content().isEmpty()) {
      return boundary.stageFile(
          entry.path(),
          store.openContent(state.storedContent().orElseThrow()),
          write.mode(),
          temporary,
          Durability.SYNCED_AT_THE_END);
    }
    return boundary.stageFile(
        entry.path(), write.content().get(), write.mode(), temporary, Durability.SYNCED_AT_THE_END);
  }

  /**
   * Removes what a run that did not finish may have staged for the entry: a file under the
   * temporary name it journaled before making it (no one else could know that name; a name it did
   * not journal is never removed, whoever made it).
   */
  static void discardStagedByAnEarlierRun(WorkspaceBoundary boundary, StoredRewindEntry entry) {
    entry
        .temporaryName()
        .ifPresent(name -> boundary.discard(new WriteOutcome.Staged(entry.path(), name)));
  }

  /**
   * A path journaled as started by a run that did not finish: its rename either landed (the path
   * holds what was to be written: journaled done), or never did (it still holds the state it held
   * when its write was decided, which the rewind turn recorded: staged again under a fresh
   * journaled name, and put in place as a planned path is), or the path changed since (a conflict).
   * A temporary file the run staged is removed first.
   */
  private Optional<Pending> resumeStarted(
      Files files, StoredRewindEntry entry, Set<WriteOutcome.Staged> uncommitted) {
    StoredTurn rewindTurn = files.rewindTurn();
    WorkspaceBoundary boundary = files.boundary();
    Map<Sha256, byte[]> contents = files.contents();
    discardStagedByAnEarlierRun(boundary, entry);
    Observation current = boundary.observeExact(entry.path(), BlobSink.checking(store));
    Snapshot journaled =
        store.read(
            tx ->
                tx.fileChanges().ofTurn(rewindTurn.id()).stream()
                    .filter(change -> change.path().equals(entry.path()))
                    .findFirst()
                    .orElseThrow()
                    .before());
    boolean merge = entry.merged().isPresent();
    if (landed(entry, current.snapshot())) {
      markResumed(entry, merge ? RewindStatus.MERGED : RewindStatus.RESTORED, Optional.empty());
      return Optional.empty();
    }
    // what it was to write reads back wrong now: it cannot be written again, whatever the path
    // holds (what it held before the rewind is stored, in the rewind turn)
    Optional<String> unreadable = files.damaged().leaveWriteOf(entry.target(), entry.merged());
    if (unreadable.isPresent()) {
      markResumed(
          entry,
          RewindStatus.SKIPPED,
          Optional.of(new Leave(SkipReason.DAMAGED, unreadable.get())));
      return Optional.empty();
    }
    if (!RewindDecision.unchangedSinceDecided(journaled, current.snapshot())) {
      markResumed(
          entry,
          RewindStatus.SKIPPED,
          Optional.of(
              new Leave(SkipReason.CONFLICT, "it changed while the rewind was interrupted")));
      return Optional.empty();
    }
    Write write =
        merge
            ? new Write(
                entry.target(),
                Optional.of(contents.get(entry.merged().get())),
                journaled.metadata().map(m -> m.mode()).orElse(0644),
                true)
            : RewindDecision.restore(entry.target(), contents);
    String temporary = boundary.newTemporaryName();
    store.writeDurably(
        tx -> {
          tx.rewinds().journalTemporaryNames(Map.of(entry.id(), temporary));
          return null;
        });
    WriteOutcome staged =
        underJournaledNames(
            boundary, entry, temporary, name -> stage(boundary, entry, write, name));
    if (staged instanceof WriteOutcome.Refused refused) {
      markResumed(
          entry,
          RewindStatus.SKIPPED,
          Optional.of(new Leave(SkipReason.REFUSED, refused.reason())));
      return Optional.empty();
    }
    Optional<WriteOutcome.Staged> file =
        staged instanceof WriteOutcome.Staged temporaryFile
            ? Optional.of(temporaryFile)
            : Optional.empty();
    file.ifPresent(uncommitted::add);
    return Optional.of(new Pending(entry, journaled, write, entry.merged(), file));
  }

  /**
   * Whether the path holds what the entry's write was to leave there: the merge's result, or the
   * target.
   */
  static boolean landed(StoredRewindEntry entry, Snapshot now) {
    return entry.merged().isPresent()
        ? now.sha256().equals(entry.merged())
        : now.asFile().sameStateAs(entry.target().asFile());
  }

  /** Journals a resumed path done, or skipped with why. */
  private void markResumed(StoredRewindEntry entry, RewindStatus status, Optional<Leave> leave) {
    store.write(
        tx -> {
          tx.rewinds()
              .mark(
                  entry.id(),
                  status,
                  leave.map(Leave::reason),
                  leave.map(Leave::detail),
                  entry.merged());
          return null;
        });
  }

  /**
   * Records the after-state of every path the rewind touched, closes the rewind turn and the
   * operation (done, not yet synced), in one commit that is ordered, not synced ({@code
   * synchronous=NORMAL}): a power loss that takes it back leaves the operation unfinished, and its
   * next run finds every path landed or redoes it.
   */
  private void finish(
      StoredRewindOperation operation,
      StoredTurn rewindTurn,
      WorkspaceBoundary boundary,
      Map<Sha256, byte[]> known,
      Map<WorkspacePath, Snapshot> putInPlace) {
    List<StoredFileChange> touched = store.read(tx -> tx.fileChanges().ofTurn(rewindTurn.id()));
    // what a path held before the rewind is mostly what the turns left (an expected state loaded
    // for the plan): only the rest is read from the store again
    Map<Sha256, byte[]> before = new HashMap<>(known);
    List<Snapshot> unknown =
        touched.stream()
            .map(StoredFileChange::before)
            .filter(state -> state.storedContent().filter(before::containsKey).isEmpty())
            .toList();
    before.putAll(store.read(tx -> tx.blobs().contentsOf(unknown)));
    // each path's state as the rewind left it (a file it put in place as it wrote it, any other
    // path read on its own, one after another, captured whatever its size: leftAt), so that
    // undoing this rewind can tell the path still holds what it left. What a path was put back
    // to is a state the store holds (every content in before is one loaded from it: the targets,
    // merges and before-states): referenced by its hash, not compressed again (it was 7% of a
    // rewind's profile, docs/performance.md). The line diffs are left pending, as a finish leaves
    // them: diffing and compressing them was a tenth of a rewind's samples (docs/performance.md,
    // "The rewind's own work")
    List<ChangeRecorder.Completed> completed =
        touched.stream()
            .map(
                change ->
                    recorder.completeWithDiffPending(
                        change,
                        leftAt(change.path(), boundary, putInPlace),
                        before,
                        before::containsKey))
            .toList();
    DirectoryRewind.recordAfter(store, boundary, rewindTurn);
    store.write(
        tx -> {
          completed.forEach(done -> recorder.store(tx, done));
          tx.turns().markFinished(rewindTurn.id());
          tx.rewinds().markDone(operation.id());
          // a turn reads rewound while a whole rewind of it that put something back stands: not
          // after a rewind that only skipped, nor once the rewind is undone; a rewind of some of a
          // turn's paths does not rewind the turn (a rewind of the whole turn may follow, and
          // leaves the paths this one put back as they are)
          TurnStandings.afterRewind(tx, operation);
          return null;
        });
    diffsLater.accept(rewindTurn.id());
  }

  /**
   * The after-state of a path in the rewind turn: what the rewind left there. A file it put in
   * place is the state it wrote, known without a read: a third read and hash of each file, 3 % of a
   * 57-file rewind's samples (docs/performance.md, "A rewind reads less"). Its content is one the
   * store holds (a target or a merge stored before it was staged), so the observation carries it by
   * its hash alone, as a file streamed into the store while it was read is carried ({@code
   * streamed}). Any other path (one it deleted, a link, one it skipped, a file the fallback's
   * handle staged) is read now. What the rewind left is also what its undo must find there: a file
   * someone changed after the rename differs from it, so undoing the rewind keeps that change
   * (merged around, or left as a conflict), where a later read would have recorded the other's
   * change as the rewind's own and undone it.
   */
  private Observation leftAt(
      WorkspacePath path, WorkspaceBoundary boundary, Map<WorkspacePath, Snapshot> putInPlace) {
    Snapshot left = putInPlace.get(path);
    return left != null
        ? new Observation(left, Optional.empty(), Optional.empty(), true)
        : boundary.observeExact(path, BlobSink.storing(store));
  }
}
