package io.turndiff.rewind;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Presence;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Write;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.TrackedWorkspace;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The states a rewind wrote, taken into the index of a tracked workspace in the transaction that
 * journals them done (review finding 2 of issue 27). Without it the next scan finds the rewind's
 * writes as changes since the index and records them in whichever agent turns are open then: a turn
 * of another session would show a change it never made, and undoing the rewind would meet it as
 * that session's later work.
 *
 * <p>An entry is the exact state written: its type, mode, content hash and stored content (or link
 * text), and a path the rewind deleted leaves the index. Its stat is not the file's: the rewind
 * knows what it wrote, not the inode, times and size the file system gave it. So each entry's
 * change time is 0, which no file has, and no scan takes the entry's stat as proof that the file is
 * unchanged ({@link StatProof#provesUnchangedSince}): the next scan reads the file, finds the same
 * content, type and mode, and records nothing, only the real stat; a file someone changed since the
 * rewind wrote it is a change, as any other. The rest of the index (its other entries, the time of
 * the scan that wrote them, what was left out) is kept as it was: what other sessions changed
 * before the rewind is still found by the next scan and recorded in their turns.
 */
final class IndexedWrites {

  private final List<IndexEntry> upserts = new ArrayList<>();
  private final List<WorkspacePath> removals = new ArrayList<>();

  /** Notes that the rewind put {@code write} at {@code path}, {@code merged} its merge's result. */
  void wrote(WorkspacePath path, Write write, Optional<Sha256> merged) {
    if (write.merge()) {
      // a merge's result is stored under its hash before it is put in place
      Sha256 content = merged.orElseThrow();
      long size = write.content().map(bytes -> (long) bytes.length).orElse(0L);
      upserts.add(
          new IndexEntry(
              path,
              unprovable(FileType.REGULAR, size, write.mode()),
              Optional.empty(),
              Optional.of(content),
              Optional.of(content),
              Optional.empty()));
      return;
    }
    Snapshot state = write.state();
    if (state.presence() == Presence.ABSENT) {
      removals.add(path);
      return;
    }
    FileMetadata metadata = state.metadata().orElseThrow();
    upserts.add(
        new IndexEntry(
            path,
            unprovable(metadata.type(), metadata.size(), write.mode()),
            state.linkTarget(),
            state.sha256(),
            state.storedContent(),
            Optional.empty()));
  }

  /**
   * Writes the entries into the workspace's index within {@code tx}, as a new version of it (a scan
   * that read the index before then compares again); nothing when the workspace is not tracked or
   * the rewind wrote nothing.
   */
  void intoTheIndex(StoreTransaction tx, long workspaceId) {
    Optional<TrackedWorkspace> tracked = tx.indexes().tracked(workspaceId);
    if (tracked.isEmpty() || (upserts.isEmpty() && removals.isEmpty())) {
      return;
    }
    TrackedWorkspace header = tracked.get();
    tx.indexes()
        .write(
            workspaceId,
            header.indexedAtNanos(),
            header.partial(),
            header.maxFiles(),
            header.maxBytes(),
            upserts,
            removals,
            Optional.empty());
  }

  /** A stat no file has (change time 0): the next scan reads the file to compare it. */
  private static StatProof unprovable(FileType type, long size, int mode) {
    return new StatProof(type, size, 0, 0, 0, mode & 07777, 1);
  }
}
