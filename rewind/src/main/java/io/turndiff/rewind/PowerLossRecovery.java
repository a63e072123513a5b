package io.turndiff.rewind;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.OverLimit;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.capture.record.BlobSink;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Write;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Puts back what a power loss took from a rewind. A rewind writes and renames its files without
 * syncing each one and syncs the file system once at its end; until then the disk may hold, for a
 * path the journal says was written, the state the rewind replaced (the rename never reached it),
 * nothing, or a file cut short or holding zeros where its data never reached it. The journal has
 * every intended state by hash and the store has its content, so each such path is written again.
 *
 * <p>It runs for an operation that was not made durable and was last applied in another boot than
 * this one ({@link BootId}): one finished whose sync never came, or one left unfinished (before the
 * resumed run goes on). A path is redone only when what it holds now cannot be anyone's work: the
 * state the rewind replaced (stored, as every state a rewind replaces: the undo gives it back),
 * nothing, or a regular file no longer than what was written whose every byte is that content's
 * byte or zero (a power loss's residue: nothing in it is not already in the store). Anything else
 * (a file edited after the rewind, before the power went or since) is never written over: it is
 * left, with a note saying why, so the receipt shows it. So is a path a later turn of the workspace
 * recorded a change of, whatever it holds: that turn saw it after the rewind, and what it holds is
 * that turn's (an agent that wrote the replaced content again, an undo of the rewind), not a power
 * loss's, which matters where an operation is checked long after it ran (no boot id to tell, the
 * posix mode; no {@code syncfs}, the fallback boundary, checked at every boot).
 *
 * <p>A path's journal status is the operation's history and is never taken back: a path left, or
 * one whose redo was refused, stays {@code restored} or {@code merged} with the note in its detail.
 * The rewind did put it back; what the path holds now is a later change (or, after a power loss, a
 * change made over what the power loss left), which the operation must not disown. Later rewinds
 * plan on that history: a whole-turn rewind leaves a path that a standing rewind of some of the
 * turn's paths put back ({@link RewindPlanner}), and a turn reads rewound while a rewind that put
 * something back stands ({@link TurnStandings}). Journaling such a path {@code skipped} once made
 * the next whole-turn rewind with {@code --force} write the turn's before-state over the user's
 * edit, a write the user never asked of the path they had already rewound and then edited.
 */
final class PowerLossRecovery {

  /** How a redone path's journal entry begins its detail, which the receipt shows as a note. */
  static final String REDONE = "redone after a restart: ";

  /**
   * How the detail of a path checked and left as it is begins (it holds something no power loss
   * makes, or its redo was refused), which the receipt shows as a note; the path keeps its status.
   */
  static final String LEFT = "left after a restart: ";

  private final Store store;
  private final RewindJournal journal;

  PowerLossRecovery(Store store, RewindJournal journal) {
    this.store = store;
    this.journal = journal;
  }

  /** What one path holds after the restart, and what is done about it. */
  private sealed interface Verdict {}

  /** It holds what the rewind wrote. */
  private record Intact() implements Verdict {}

  /**
   * It is written again from the store; {@code found} says what it held instead, {@code residue}
   * whether that was what a power loss left of the write itself (gone, cut short, zeros).
   */
  private record Redo(Observation now, String found, boolean residue) implements Verdict {}

  /** It holds something no power loss makes: left as it is. */
  private record Left(String why) implements Verdict {}

  /**
   * What a check did: each path redone or left, with what it held or why ({@link #redo}'s answer),
   * and whether it wrote anything (a path redone; a redo refused writes nothing).
   */
  private record Checked(Map<WorkspacePath, String> outcome, boolean wrote) {}

  /**
   * Checks every path the operation journaled as restored or merged against what it was to hold,
   * and writes again each one a power loss took back (see the class comment); of the paths an
   * unfinished run journaled as started, those that hold what a power loss left of their write (the
   * rest the resumed run decides as ever). Returns the paths redone, each with what it held, and
   * those left, each with why.
   */
  Map<WorkspacePath, String> redo(
      StoredRewindOperation operation, StoredTurn rewindTurn, WorkspaceBoundary boundary) {
    return check(operation, rewindTurn, boundary).outcome();
  }

  private Checked check(
      StoredRewindOperation operation, StoredTurn rewindTurn, WorkspaceBoundary boundary) {
    List<StoredRewindEntry> written =
        store.read(tx -> tx.rewinds().entries(operation.id())).stream()
            .filter(
                entry ->
                    entry.status() == RewindStatus.RESTORED
                        || entry.status() == RewindStatus.MERGED
                        || entry.status() == RewindStatus.STARTED)
            .toList();
    Map<WorkspacePath, Snapshot> replaced = new HashMap<>();
    store
        .read(tx -> tx.fileChanges().ofTurn(rewindTurn.id()))
        .forEach(change -> replaced.put(change.path(), replacedBy(change)));
    RewindJournal.LoadedContents loaded = journal.contents(written, Map.of());
    Map<Sha256, byte[]> contents = loaded.sound();
    Map<WorkspacePath, StoredTurn> changedSince =
        store.read(
            tx ->
                changedByLaterTurns(
                    tx, rewindTurn, written.stream().map(StoredRewindEntry::path).toList()));
    Map<WorkspacePath, String> outcome = new TreeMap<>();
    boolean wrote = false;
    for (StoredRewindEntry entry : written) {
      Observation now = boundary.observeExact(entry.path(), BlobSink.checking(store));
      Verdict verdict =
          verdict(
              entry,
              Optional.ofNullable(replaced.get(entry.path())),
              Optional.ofNullable(changedSince.get(entry.path())),
              now,
              loaded.damaged());
      if (entry.status() == RewindStatus.STARTED
          && !(verdict instanceof Redo redo && redo.residue())) {
        // the resumed run decides a started path as it always has: landed, still the state it
        // replaced (written again), or changed since (a conflict); only what a power loss left of
        // its write is this class's to redo
        continue;
      }
      switch (verdict) {
        case Intact intact -> {}
        case Left left -> {
          journalNote(entry, LEFT + left.why());
          outcome.put(entry.path(), "left: " + left.why());
        }
        case Redo redo -> {
          Optional<String> refused =
              rewrite(
                  boundary,
                  entry,
                  redo.now(),
                  Optional.ofNullable(replaced.get(entry.path())),
                  contents);
          if (refused.isPresent()) {
            journalNote(entry, LEFT + refused.get());
            outcome.put(entry.path(), "left: " + refused.get());
          } else {
            journalRedone(entry, redo.found());
            outcome.put(entry.path(), "redone: " + redo.found());
            wrote = true;
          }
        }
      }
    }
    return new Checked(outcome, wrote);
  }

  /**
   * Whether the operation was last applied in another boot than this one (or one the system cannot
   * tell apart): what it wrote may not be on the disk, and is checked again. Within this boot the
   * page cache holds all it wrote, and only the sync is missing.
   */
  boolean mayBeFromAnotherBoot(StoredRewindOperation operation) {
    return BootId.mayBeAnotherThanNow(store.read(tx -> tx.rewinds().bootId(operation.id())));
  }

  /**
   * For a finished operation from another boot: {@link #redo}, then records what the check found
   * out, so that an operation is checked until what it wrote is known to be on the disk, and never
   * after. Returns what {@link #redo} did.
   *
   * <p>When the check wrote nothing (every path held what the rewind wrote, or something no power
   * loss makes, which it left) and the operation was last applied in a boot known to be another
   * than this one ({@link BootId#knownToBeAnotherThanNow}), what it read came from the disk: the
   * page cache of the boot that wrote it is gone. The operation is then settled, marked synced with
   * no sync needed, and never checked again. This is what bounds the check where the file system
   * cannot be synced (the fallback boundary): it used to check such an operation at every boot,
   * each time long after its rewind, and so took a file the rewind wrote that the user deleted in
   * the meantime, outside any turn, for a rename a power loss took back, and wrote it again.
   *
   * <p>Otherwise (a path redone: its write is in this boot's page cache only; or no boot to tell
   * apart, the posix mode) the check is recorded as made in this boot, so that it is not made again
   * before the next restart, and the operation is settled by the {@link #syncAndMark} that follows
   * it; where that sync cannot be made, the next boot checks it again, and settles it once it finds
   * everything in place. What is not bounded: an operation with neither a boot id nor a sync (the
   * fallback boundary where {@code /proc} cannot be read) is checked at every rewind of its
   * workspace; and a file deleted between the rewind's answer and the first check is written again
   * (nothing on the disk tells that deletion from a rename a power loss took back).
   */
  Map<WorkspacePath, String> redoFinished(
      StoredRewindOperation operation, StoredTurn rewindTurn, WorkspaceBoundary boundary) {
    Checked checked = check(operation, rewindTurn, boundary);
    boolean readFromTheDisk =
        !checked.wrote()
            && BootId.knownToBeAnotherThanNow(
                store.read(tx -> tx.rewinds().bootId(operation.id())));
    store.writeDurably(
        tx -> {
          if (readFromTheDisk) {
            tx.rewinds().markSynced(operation.id());
          } else {
            tx.rewinds().runningInBoot(operation.id(), BootId.now());
          }
          return null;
        });
    return checked.outcome();
  }

  /**
   * Syncs the workspace's file system once and marks {@code operations} synced, in one commit; when
   * the sync cannot be made (the fallback boundary) nothing is written, and they are checked again
   * from the next boot. The commit is ordered, not synced ({@code synchronous=NORMAL}): the files
   * are on the disk before it is written, and a power loss that takes the mark back only has the
   * operations checked once more. Returns whether the sync was made.
   */
  boolean syncAndMark(List<StoredRewindOperation> operations, WorkspaceBoundary boundary) {
    if (operations.isEmpty() || !(boundary.syncFileSystem() instanceof WriteOutcome.Done)) {
      return false;
    }
    store.write(
        tx -> {
          operations.forEach(operation -> tx.rewinds().markSynced(operation.id()));
          return null;
        });
    return true;
  }

  private static Snapshot replacedBy(StoredFileChange change) {
    return RewindDecision.replaced(change.before());
  }

  /**
   * The newest turn recorded after {@code rewindTurn} in its workspace (a captured turn, another
   * rewind's or an outside one) that changed each of {@code paths}; a path none changed is not in
   * the map. What such a path holds is that turn's work or what it found there, recorded by it:
   * never a power loss's to redo, whatever it equals (an agent that writes again the very content
   * the rewind replaced, an undo of the rewind). Turns are ordered by their ids, which the store
   * gives in the order turns begin.
   */
  private static Map<WorkspacePath, StoredTurn> changedByLaterTurns(
      StoreTransaction tx, StoredTurn rewindTurn, List<WorkspacePath> paths) {
    Map<Long, StoredTurn> later = new HashMap<>();
    for (StoredSession session : tx.sessions().ofWorkspace(rewindTurn.workspaceId())) {
      tx.turns().ofSession(session.id()).stream()
          .filter(turn -> turn.id() > rewindTurn.id())
          .forEach(turn -> later.put(turn.id(), turn));
    }
    Map<WorkspacePath, StoredTurn> changed = new HashMap<>();
    // ordered by turn: the newest turn to change a path is the one that stays
    for (StoredFileChange change : tx.fileChanges().ofTurnsAt(later.keySet(), paths)) {
      if (change.change().filter(kind -> kind == ChangeKind.UNCHANGED).isEmpty()) {
        changed.put(change.path(), later.get(change.turnId()));
      }
    }
    return changed;
  }

  /**
   * What {@code now} is, for a path whose write the journal says landed; {@code changedSince}, the
   * newest later turn that recorded a change of it; {@code damaged}, the stored contents that read
   * back wrong.
   */
  private Verdict verdict(
      StoredRewindEntry entry,
      Optional<Snapshot> replaced,
      Optional<StoredTurn> changedSince,
      Observation now,
      DamagedContents damaged) {
    Snapshot state = now.snapshot();
    if (RewindJournal.landed(entry, state)) {
      return new Intact();
    }
    if (changedSince.isPresent()) {
      return new Left(
          "turn '"
              + changedSince.get().externalId()
              + "' changed it after the rewind: left as that turn recorded it");
    }
    // what the rewind wrote, read back as other bytes now, can neither be compared with what a
    // power loss left nor written again: the path is left, named
    Optional<String> unreadable = damaged.leaveWriteOf(entry.target(), entry.merged());
    if (unreadable.isPresent()) {
      return new Left(unreadable.get());
    }
    if (state.presence() == Presence.ABSENT) {
      return new Redo(now, "it was gone", true);
    }
    if (replaced.isPresent() && state.sameStateAs(replaced.get())) {
      return new Redo(now, "it held again what the rewind replaced", false);
    }
    Optional<Sha256> intended = intendedContent(entry);
    if (intended.isPresent()
        && state.type().filter(type -> type == FileType.REGULAR).isPresent()
        && now.content().isPresent()
        && isResidueOf(now.content().get(), intended.get())) {
      return new Redo(
          now,
          "it held "
              + now.content().get().length
              + " bytes of what was written, the rest lost (or zeros)",
          true);
    }
    return new Left(
        "it holds neither what the rewind wrote nor what it replaced (changed since?): left as it"
            + " is");
  }

  /** The content the entry's write put there, when it was a regular file's. */
  private static Optional<Sha256> intendedContent(StoredRewindEntry entry) {
    if (entry.merged().isPresent()) {
      return entry.merged();
    }
    Snapshot target = entry.target().asFile();
    return target.type().filter(type -> type == FileType.REGULAR).isPresent()
        ? target.storedContent()
        : Optional.empty();
  }

  /**
   * Whether {@code found} is what a power loss leaves of {@code intended}: no longer, and every
   * byte either the intended one at its offset or zero (a block whose data never reached the disk
   * reads as zeros). Nothing in such a file is not in the store already.
   */
  private boolean isResidueOf(byte[] found, Sha256 intended) {
    try (InputStream written = store.openContent(intended)) {
      byte[] expected = written.readNBytes(found.length + 1);
      if (expected.length < found.length) {
        return false;
      }
      for (int i = 0; i < found.length; i++) {
        if (found[i] != 0 && found[i] != expected[i]) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes the entry's intended state again, as the rewind did: staged under a journaled temporary
   * name (not synced: the caller syncs once after all), put in place only if the path still holds
   * what was just looked at. Returns why not, when it was not.
   */
  private Optional<String> rewrite(
      WorkspaceBoundary boundary,
      StoredRewindEntry entry,
      Observation now,
      Optional<Snapshot> replaced,
      Map<Sha256, byte[]> contents) {
    // a merge kept the mode of the file it merged onto, which the rewind turn recorded
    Write write =
        entry.merged().isPresent()
            ? new Write(
                entry.target(),
                Optional.of(contents.get(entry.merged().get())),
                replaced.flatMap(Snapshot::metadata).map(m -> m.mode()).orElse(0644),
                true)
            : RewindDecision.restore(entry.target(), contents);
    OverLimit checking = new OverLimit.Capture(BlobSink.checking(store));
    Predicate<Snapshot> unchanged =
        later -> RewindDecision.unchangedSinceDecided(now.snapshot(), later);
    if (!write.merge() && write.state().presence() == Presence.ABSENT) {
      return asRefusal(boundary.deleteIfUnchanged(entry.path(), checking, unchanged));
    }
    RewindJournal.discardStagedByAnEarlierRun(boundary, entry);
    String name = boundary.newTemporaryName();
    store.writeDurably(
        tx -> {
          tx.rewinds().journalTemporaryNames(Map.of(entry.id(), name));
          return null;
        });
    WriteOutcome staged =
        journal.underJournaledNames(
            boundary, entry, name, temporary -> journal.stage(boundary, entry, write, temporary));
    if (!(staged instanceof WriteOutcome.Staged file)) {
      return asRefusal(staged);
    }
    // a kill -9 from here on leaves the file under the journaled name, which the next run removes
    WriteOutcome committed = boundary.commitIfUnchanged(file, checking, unchanged);
    if (!(committed instanceof WriteOutcome.Done)) {
      boundary.discard(file);
    }
    return asRefusal(committed);
  }

  private static Optional<String> asRefusal(WriteOutcome outcome) {
    return switch (outcome) {
      case WriteOutcome.Done done -> Optional.empty();
      case WriteOutcome.Changed changed -> Optional.of("it changed while it was being redone");
      case WriteOutcome.Refused refused -> Optional.of(refused.reason());
      default -> Optional.of("it could not be written again: " + outcome);
    };
  }

  /** A path written again: restored or merged (a {@code started} one of an unfinished run too). */
  private void journalRedone(StoredRewindEntry entry, String found) {
    store.write(
        tx -> {
          tx.rewinds()
              .mark(
                  entry.id(),
                  entry.merged().isPresent() ? RewindStatus.MERGED : RewindStatus.RESTORED,
                  Optional.empty(),
                  Optional.of(REDONE + found),
                  entry.merged());
          return null;
        });
  }

  /**
   * Records what the check found of a path in its entry's detail, the status kept: the receipt
   * shows it among its notes (see the class comment for why the status is never changed).
   */
  private void journalNote(StoredRewindEntry entry, String note) {
    store.write(
        tx -> {
          tx.rewinds()
              .mark(entry.id(), entry.status(), entry.reason(), Optional.of(note), entry.merged());
          return null;
        });
  }
}
