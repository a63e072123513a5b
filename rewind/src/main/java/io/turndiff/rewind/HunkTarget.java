package io.turndiff.rewind;

import io.turndiff.diff.HunkReversal;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.RequestException;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Blobs;
import io.turndiff.store.StoreException;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a rewind of one hunk puts back (issue 22 item 8): the turn's after-state of the path with
 * that hunk reversed ({@link HunkReversal}), every other hunk of the turn left as it made it.
 *
 * <p>It is a before-state like any other to the rest of the rewind, so a hunk rewind is planned,
 * decided, journaled, reported and undone as a rewind of that one path is: a file that still holds
 * the turn's after-state gets {@code target} written; a file changed since gets the difference
 * between the after-state and {@code target} (the one hunk) reversed onto it by the reverse merge,
 * with exact context, or is left as a {@code conflict}. The one difference is that {@code target}
 * is made here, not captured: the plan holds its {@code content}, and the run stores it (content
 * and snapshot row) in the transaction that stores the plan, so that the journal, a resumed run and
 * the receipt read it from the store as they read every target.
 *
 * @param number the hunk, from 1, as the turn's diff of {@code path} numbers its hunks
 * @param content what {@code target} holds
 */
record HunkTarget(WorkspacePath path, int number, byte[] content, Snapshot.RegularFile target) {

  /**
   * The target of hunk {@code number} of {@code path} in {@code turn}; refuses, naming it, a path
   * the turn did not change as one file, a change that has no hunks (a file the turn created or
   * deleted, a link, binary or uncaptured content) and a hunk the change does not have.
   */
  static HunkTarget of(
      StoreTransaction tx,
      StoredTurn turn,
      WorkspacePath path,
      Optional<List<StoredFileChange>> changes,
      int number) {
    String of = "path '" + path.display() + "' of turn '" + turn.externalId() + "'";
    if (changes.isEmpty()) {
      throw refused(
          of
              + " is not a file the turn changed: a hunk is one file's (name the file, not a"
              + " directory)");
    }
    Snapshot before = changes.get().getFirst().before();
    Optional<Snapshot> after = changes.get().getLast().after();
    if (before.presence() == Presence.ABSENT) {
      throw refused(
          of
              + " was created by the turn: its one hunk is the whole file; rewind the path to"
              + " delete it");
    }
    if (after.filter(state -> state.presence() == Presence.ABSENT).isPresent()) {
      throw refused(
          of
              + " was deleted by the turn: it has no hunk to reverse; rewind the path to put it"
              + " back");
    }
    if (!(before instanceof Snapshot.RegularFile old)
        || !(after.orElse(null) instanceof Snapshot.RegularFile made)) {
      throw refused(
          of
              + " is not a regular file captured before and after the turn: only a text change"
              + " has hunks; rewind the path instead");
    }
    // checked: the target is made from these bytes and written into the workspace
    Blobs.CheckedContents checked = tx.blobs().checkedContentsOf(List.of(old, made));
    checked.damaged().entrySet().stream()
        .findFirst()
        .ifPresent(
            damaged -> {
              throw new StoreException(
                  of
                      + ": its stored content "
                      + damaged.getKey()
                      + " "
                      + damaged.getValue()
                      + ": the store is damaged; nothing is written");
            });
    Map<Sha256, byte[]> contents = checked.sound();
    byte[] oldContent = contents.get(old.content());
    byte[] newContent = contents.get(made.content());
    if (oldContent == null || newContent == null) {
      throw refused(
          of + " is stored in chunks, too large to diff by hunk; rewind the path instead");
    }
    int hunks =
        HunkReversal.count(oldContent, newContent)
            .orElseThrow(
                () -> refused(of + " is binary: it has no hunks; rewind the path instead"));
    byte[] content =
        HunkReversal.withoutHunk(oldContent, newContent, number)
            .orElseThrow(
                () ->
                    refused(
                        "the turn's diff of "
                            + of
                            + " has "
                            + hunks
                            + (hunks == 1 ? " hunk" : " hunks")
                            + ": there is no hunk "
                            + number));
    FileMetadata stat = made.stat();
    return new HunkTarget(
        path,
        number,
        content,
        new Snapshot.RegularFile(
            path,
            made.boundary(),
            // the after-state's file with other bytes: its mode is kept, as a merge keeps it
            new FileMetadata(
                FileType.REGULAR,
                content.length,
                stat.mtimeNanos(),
                stat.mode(),
                stat.inode(),
                stat.nlink()),
            Sha256.of(content),
            made.takenAt()));
  }

  /** Stores the content and the snapshot within {@code tx}: the target's snapshot row. */
  long store(StoreTransaction tx) {
    tx.blobs().put(target.content(), content);
    return tx.snapshots().insert(target);
  }

  /**
   * Whether {@code planned} is the hunk's path, put back: the one whose before-state this target
   * takes the place of (a path the chain rule leaves or finds unchanged keeps its own).
   */
  boolean targets(PlannedPath planned) {
    return planned.path().equals(path) && planned.status() == RewindStatus.PLANNED;
  }

  /** {@code planned} (the hunk's path) with this target in place of its before-state. */
  PlannedPath in(PlannedPath planned) {
    return new PlannedPath(
        planned.path(),
        planned.targetRow(),
        target,
        planned.expectedRow(),
        planned.expected(),
        planned.status(),
        planned.reason(),
        planned.detail());
  }

  private static RequestException refused(String why) {
    return new RequestException(RequestException.Problem.BAD_INPUT, why);
  }
}
