package io.turndiff.capture;

import io.turndiff.boundary.Observation;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Records file changes: a before-state as a snapshot (content into the blob table), and the completion of a
 * change with its after-state, kind, line counts and stored diff. Agent turns and rewind turns both use it.
 */
public final class ChangeRecorder {

  private final GitPatchWriter summaryWriter = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);

  /** A file change with its after-state observed and its diff computed, ready to store. */
  public record Completed(StoredFileChange change, Observation after, ChangeKind kind, FilePatch patch) {
  }

  /** Stores an observation's content (if any) and its snapshot; returns the snapshot row. */
  public long insertSnapshot(StoreTransaction tx, Observation observation) {
    observation.content().ifPresent(content ->
        tx.blobs().put(observation.snapshot().storedContent().orElseThrow(), content));
    return tx.snapshots().insert(observation.snapshot());
  }

  /**
   * Records the before-state of a path in a turn, unless the turn already has one (the first wins), and notes
   * the tool call; returns whether this call recorded it.
   */
  public boolean recordBefore(StoreTransaction tx, long turnRow, long toolCallRow, Observation observation,
                              DetectedBy detectedBy) {
    Optional<Long> existing = tx.fileChanges().idOf(turnRow, observation.snapshot().path());
    long changeRow;
    if (existing.isPresent()) {
      changeRow = existing.get();
    } else {
      long snapshotRow = insertSnapshot(tx, observation);
      changeRow = tx.fileChanges().begin(turnRow, observation.snapshot().path(), observation.via(), detectedBy,
          snapshotRow);
    }
    tx.fileChanges().linkToolCall(changeRow, toolCallRow);
    return existing.isEmpty();
  }

  /** Classifies a change and writes its diff (outside any transaction: it only computes). */
  public Completed complete(StoredFileChange change, Observation after, Map<Sha256, byte[]> contents) {
    Snapshot before = change.before();
    ChangeKind kind = ChangeKind.between(before, after.snapshot());
    FilePatch patch = kind == ChangeKind.UNCHANGED ? FilePatch.NONE : summaryWriter.write(change.path(),
        PatchSide.of(before, before.storedContent().map(contents::get)),
        PatchSide.of(after.snapshot(), after.content()));
    return new Completed(change, after, kind, patch);
  }

  /** A change a scan found (no tool announced it): its before-state, its after-state and its diff. */
  public record Detected(WorkspacePath path, Snapshot before, Observation after, ChangeKind kind, FilePatch patch) {
  }

  /** Classifies a change a scan found and writes its diff (outside any transaction). */
  public Detected detect(WorkspacePath path, Snapshot before, Observation after, Map<Sha256, byte[]> contents) {
    ChangeKind kind = ChangeKind.between(before, after.snapshot());
    FilePatch patch = kind == ChangeKind.UNCHANGED ? FilePatch.NONE : summaryWriter.write(path,
        PatchSide.of(before, before.storedContent().map(contents::get)),
        PatchSide.of(after.snapshot(), after.content()));
    return new Detected(path, before, after, kind, patch);
  }

  /** Records a change a scan found as a file change of the turn, detected by scan. */
  public void store(StoreTransaction tx, long turnRow, Detected detected) {
    long beforeRow = tx.snapshots().insert(detected.before());
    long changeRow = tx.fileChanges().begin(turnRow, detected.path(), Optional.empty(), DetectedBy.SCAN, beforeRow);
    long afterRow = insertSnapshot(tx, detected.after());
    Optional<Sha256> diff = detected.patch().isEmpty() ? Optional.empty()
        : Optional.of(tx.blobs().put(detected.patch().text().getBytes(StandardCharsets.UTF_8)));
    tx.fileChanges().complete(changeRow, afterRow, detected.kind(), detected.patch().added(),
        detected.patch().removed(), diff);
  }

  /** Stores a completed change: its after-snapshot, its diff as a blob, its kind and line counts. */
  public void store(StoreTransaction tx, Completed done) {
    long afterRow = insertSnapshot(tx, done.after());
    Optional<Sha256> diff = done.patch().isEmpty() ? Optional.empty()
        : Optional.of(tx.blobs().put(done.patch().text().getBytes(StandardCharsets.UTF_8)));
    tx.fileChanges().complete(done.change().id(), afterRow, done.kind(), done.patch().added(),
        done.patch().removed(), diff);
  }

  /** The stored contents of the captured regular files among {@code snapshots}, by hash. */
  public static Map<Sha256, byte[]> contents(Store store, Collection<Snapshot> snapshots) {
    return store.read(tx -> {
      Map<Sha256, byte[]> contents = new HashMap<>();
      for (Snapshot snapshot : snapshots) {
        snapshot.storedContent().ifPresent(sha -> contents.computeIfAbsent(sha, tx.blobs()::require));
      }
      return contents;
    });
  }
}
