package io.turndiff.capture.record;

import io.turndiff.boundary.Observation;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.DeltaBase;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.FileChanges;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Records file changes: a before-state as a snapshot (content into the blob table), and the
 * completion of a change with its after-state, kind, line counts and stored diff. Agent turns and
 * rewind turns both use it.
 */
public final class ChangeRecorder {

  private final GitPatchWriter summaryWriter =
      new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);

  /**
   * A file change with its after-state observed and its diff computed, ready to store: {@code
   * blobs} holds the new content and the diff already compressed (off the store's lock), {@code
   * diff} the diff's hash. With {@code diffPending}, the line diff is left to be computed after the
   * turn is stored ({@code patch} is none then).
   */
  public record Completed(
      StoredFileChange change,
      Observation after,
      ChangeKind kind,
      FilePatch patch,
      List<EncodedBlob> blobs,
      Optional<Sha256> diff,
      boolean diffPending) {}

  /**
   * What a completed change adds to the blob table, compressed now: a changed after-state and the
   * diff. The after-state is compressed against the before-state when the store holds that ({@link
   * BlobEncoder#encode(Sha256, byte[], Optional)}: the delta alone when it is far smaller, else
   * both, the smaller stored), and the diff against the after-state (or the before-state, when the
   * file is gone).
   */
  private record NewBlobs(List<EncodedBlob> blobs, Optional<Sha256> diff) {

    /**
     * As above: {@code bases} gives the stored content of a before-state, {@code held} says which
     * after-states the store holds already, or the transaction stores first, which are not
     * compressed again.
     */
    static NewBlobs of(
        Snapshot before,
        Observation after,
        ChangeKind kind,
        FilePatch patch,
        Function<Sha256, Optional<DeltaBase>> bases,
        Predicate<Sha256> held) {
      Optional<DeltaBase> beforeBase = before.storedContent().flatMap(bases);
      Optional<DeltaBase> afterBase =
          after
              .content()
              .map(c -> new DeltaBase(after.snapshot().storedContent().orElseThrow(), c));
      List<EncodedBlob> blobs = new ArrayList<>(2);
      if (kind != ChangeKind.UNCHANGED
          && afterBase.isPresent()
          && !held.test(afterBase.get().sha256())) {
        blobs.add(
            BlobEncoder.encode(afterBase.get().sha256(), afterBase.get().content(), beforeBase));
      }
      Optional<Sha256> diff = Optional.empty();
      if (!patch.isEmpty()) {
        byte[] text = patch.text().getBytes(StandardCharsets.UTF_8);
        diff = Optional.of(Sha256.of(text));
        blobs.add(BlobEncoder.encode(diff.get(), text, afterBase.or(() -> beforeBase)));
      }
      return new NewBlobs(List.copyOf(blobs), diff);
    }

    /** The before-states' contents in {@code contents} as bases of unknown depth. */
    static Function<Sha256, Optional<DeltaBase>> basesIn(Map<Sha256, byte[]> contents) {
      return sha -> Optional.ofNullable(contents.get(sha)).map(c -> new DeltaBase(sha, c));
    }
  }

  /** Stores an observation's content (if any) and its snapshot; returns the snapshot row. */
  public long insertSnapshot(StoreTransaction tx, Observation observation) {
    observation
        .content()
        .ifPresent(
            content ->
                tx.blobs().put(observation.snapshot().storedContent().orElseThrow(), content));
    return tx.snapshots().insert(observation.snapshot());
  }

  /**
   * Records the before-state of a path in a turn, unless the turn already has one (the first wins),
   * and notes the tool call; returns whether this call recorded it.
   *
   * <p>A later call of the turn that names the path again keeps the before-state it found on its
   * link to the change: the state a rewind to before that call puts back (issue 24). It costs a
   * snapshot row and, when a tool changed the content since the first call, that content as a blob
   * (stored once by its hash) — only for paths two calls of one turn named, never a walk of the
   * tree.
   */
  public boolean recordBefore(
      StoreTransaction tx,
      long turnRow,
      long toolCallRow,
      Observation observation,
      DetectedBy detectedBy) {
    Optional<Long> existing = tx.fileChanges().idOf(turnRow, observation.snapshot().path());
    if (existing.isPresent()) {
      if (tx.fileChanges().linkToolCall(existing.get(), toolCallRow)) {
        tx.fileChanges()
            .keepCallBefore(existing.get(), toolCallRow, insertSnapshot(tx, observation));
      }
      return false;
    }
    long snapshotRow = insertSnapshot(tx, observation);
    long changeRow =
        tx.fileChanges()
            .begin(
                turnRow, observation.snapshot().path(), observation.via(), detectedBy, snapshotRow);
    tx.fileChanges().linkToolCall(changeRow, toolCallRow);
    return true;
  }

  /** Classifies a change and writes its diff (outside any transaction: it only computes). */
  public Completed complete(
      StoredFileChange change, Observation after, Map<Sha256, byte[]> contents) {
    Snapshot before = change.before();
    ChangeKind kind = ChangeKind.between(before, after.snapshot());
    FilePatch patch =
        kind == ChangeKind.UNCHANGED
            ? FilePatch.NONE
            : summaryWriter.write(
                change.path(),
                PatchSide.of(before, before.storedContent().map(contents::get)),
                PatchSide.of(after.snapshot(), after.content()));
    NewBlobs blobs =
        NewBlobs.of(before, after, kind, patch, NewBlobs.basesIn(contents), sha -> false);
    return new Completed(change, after, kind, patch, blobs.blobs(), blobs.diff(), false);
  }

  /**
   * As {@link #completeWithDiffPending(StoredFileChange, Observation, Map, Set)}, for an
   * after-state that may be content the store already holds ({@code held}), as a rewind turn's is:
   * the state it puts back is a stored state by definition. Such an after-state is referenced by
   * its hash; it is not compressed or delta-encoded again only for {@code Blobs.put} to find it
   * stored and drop the encoding. Another is stored as a delta of its before-state when {@code
   * contents} holds that. The line diff is left pending, as a finish leaves it: a rewind's caller
   * waits for the files and the journal, not for the rewind turn's diffs (computed in the
   * background, or by the first query that needs them).
   */
  public Completed completeWithDiffPending(
      StoredFileChange change,
      Observation after,
      Map<Sha256, byte[]> contents,
      Predicate<Sha256> held) {
    ChangeKind kind = ChangeKind.between(change.before(), after.snapshot());
    NewBlobs blobs =
        NewBlobs.of(change.before(), after, kind, FilePatch.NONE, NewBlobs.basesIn(contents), held);
    return new Completed(
        change, after, kind, FilePatch.NONE, blobs.blobs(), blobs.diff(), diffPending(kind));
  }

  /**
   * Classifies a change and compresses its new content (a delta of its before-state when {@code
   * bases} holds that, {@code Blobs.deltaBasesOf}), leaving its line diff pending (a change that is
   * not {@code unchanged}): what a finish must do before the runtime goes on. Outside any
   * transaction. A content among {@code storedFirst} is not compressed: the store holds it, or the
   * transaction this change is stored in stores it first, as a tracked workspace's scan does the
   * contents it compressed ({@code Tracker.Comparison#contentsCompressed}); the change refers to it
   * by its hash.
   */
  public Completed completeWithDiffPending(
      StoredFileChange change,
      Observation after,
      Map<Sha256, DeltaBase> bases,
      Set<Sha256> storedFirst) {
    ChangeKind kind = ChangeKind.between(change.before(), after.snapshot());
    NewBlobs blobs =
        NewBlobs.of(
            change.before(), after, kind, FilePatch.NONE, baseIn(bases), storedFirst::contains);
    return new Completed(
        change, after, kind, FilePatch.NONE, blobs.blobs(), blobs.diff(), diffPending(kind));
  }

  private static Function<Sha256, Optional<DeltaBase>> baseIn(Map<Sha256, DeltaBase> bases) {
    return sha -> Optional.ofNullable(bases.get(sha));
  }

  private static boolean diffPending(ChangeKind kind) {
    return kind != ChangeKind.UNCHANGED;
  }

  /**
   * A change a scan found (no tool announced it): its before-state, its after-state and its diff;
   * {@code ignoredByGit} when the file is one git ignores (the scan's verdict).
   */
  public record Detected(
      WorkspacePath path,
      Snapshot before,
      Observation after,
      ChangeKind kind,
      FilePatch patch,
      List<EncodedBlob> blobs,
      Optional<Sha256> diff,
      boolean diffPending,
      boolean ignoredByGit) {}

  /**
   * Classifies a change a scan found and compresses its new content, unless it is among {@code
   * storedFirst}, leaving its line diff pending as {@link
   * #completeWithDiffPending(StoredFileChange, Observation, Map, Set)} does (outside any
   * transaction).
   */
  public Detected detectWithDiffPending(
      WorkspacePath path,
      Snapshot before,
      Observation after,
      Map<Sha256, DeltaBase> bases,
      Set<Sha256> storedFirst,
      boolean ignoredByGit) {
    ChangeKind kind = ChangeKind.between(before, after.snapshot());
    NewBlobs blobs =
        NewBlobs.of(before, after, kind, FilePatch.NONE, baseIn(bases), storedFirst::contains);
    return new Detected(
        path,
        before,
        after,
        kind,
        FilePatch.NONE,
        blobs.blobs(),
        blobs.diff(),
        diffPending(kind),
        ignoredByGit);
  }

  /**
   * Records the changes a scan found as file changes of the turn, detected by scan and made {@code
   * during} those calls (or none known); returns their rows, in the order of {@code found}. All of
   * them in a few statements, as {@link #storeAll(StoreTransaction, List)} stores completed
   * changes: their new contents ({@code Blobs.putAll}, then an after-state read some other way),
   * their before- and after-snapshots in one multi-row insert, their records, each written whole
   * with its completion, in another ({@code FileChanges.recordFound}). A Stop's changes that only
   * the watched scan found were stored one at a time, six or seven statements each, a third of its
   * write transaction's CPU at 250,000 files (docs/performance.md, "A found change's rows in a few
   * statements").
   */
  public long[] recordFound(
      StoreTransaction tx, long turnRow, List<Detected> found, MadeDuring during) {
    if (found.isEmpty()) {
      return new long[0];
    }
    tx.blobs().putAll(found.stream().flatMap(change -> change.blobs().stream()).toList());
    storeContents(tx, found.stream().map(Detected::after).toList());
    List<Snapshot> snapshots = new ArrayList<>(2 * found.size());
    found.forEach(change -> snapshots.add(change.before()));
    found.forEach(change -> snapshots.add(change.after().snapshot()));
    long[] snapshotRows = tx.snapshots().insertAll(snapshots);
    List<FileChanges.Found> rows = new ArrayList<>(found.size());
    for (int i = 0; i < found.size(); i++) {
      Detected change = found.get(i);
      rows.add(
          new FileChanges.Found(
              turnRow,
              change.path(),
              snapshotRows[i],
              snapshotRows[found.size() + i],
              change.kind(),
              change.patch().added(),
              change.patch().removed(),
              change.diff(),
              change.diffPending(),
              during,
              change.ignoredByGit()));
    }
    return tx.fileChanges().recordFound(rows);
  }

  private static void complete(
      StoreTransaction tx,
      long changeRow,
      long afterRow,
      ChangeKind kind,
      FilePatch patch,
      Optional<Sha256> diff,
      boolean diffPending) {
    if (diffPending) {
      tx.fileChanges().completeWithDiffPending(changeRow, afterRow, kind);
    } else {
      tx.fileChanges().complete(changeRow, afterRow, kind, patch.added(), patch.removed(), diff);
    }
  }

  /**
   * Stores completed changes, as {@link #store(StoreTransaction, Completed)} stores each, in a few
   * statements for all of them: their new contents ({@code Blobs.putAll}), then their
   * after-snapshots ({@code Snapshots.insertAll}), then their completions ({@code
   * FileChanges.completeAll}). What a finish of many files stores in its one transaction.
   */
  public void storeAll(StoreTransaction tx, List<Completed> completed) {
    if (completed.isEmpty()) {
      return;
    }
    tx.blobs().putAll(completed.stream().flatMap(done -> done.blobs().stream()).toList());
    storeContents(tx, completed.stream().map(Completed::after).toList());
    long[] afterRows =
        tx.snapshots().insertAll(completed.stream().map(done -> done.after().snapshot()).toList());
    List<FileChanges.Completion> completions = new ArrayList<>(completed.size());
    for (int i = 0; i < completed.size(); i++) {
      Completed done = completed.get(i);
      completions.add(
          new FileChanges.Completion(
              done.change().id(),
              afterRows[i],
              done.kind(),
              done.patch().added(),
              done.patch().removed(),
              done.diff(),
              done.diffPending()));
    }
    tx.fileChanges().completeAll(completions);
  }

  /**
   * Stores the content each of {@code observations} read, unless the store holds it (as {@link
   * #insertSnapshot} does before it inserts a snapshot): the store is asked about all of them at
   * once. A completed change's content is among its blobs when it changed, and is its before-state,
   * stored already, when it did not; so this stores something only for a state read some other way.
   */
  private static void storeContents(StoreTransaction tx, List<Observation> observations) {
    Map<Sha256, byte[]> contents = new LinkedHashMap<>();
    for (Observation observation : observations) {
      observation
          .content()
          .ifPresent(
              content ->
                  contents.putIfAbsent(
                      observation.snapshot().storedContent().orElseThrow(), content));
    }
    Set<Sha256> held = tx.blobs().containedAmong(contents.keySet());
    contents.forEach(
        (sha256, content) -> {
          if (!held.contains(sha256)) {
            tx.blobs().put(sha256, content);
          }
        });
  }

  /**
   * Stores a completed change: its after-snapshot, its diff as a blob, its kind and line counts.
   */
  public void store(StoreTransaction tx, Completed done) {
    done.blobs().forEach(tx.blobs()::put);
    long afterRow = insertSnapshot(tx, done.after());
    complete(
        tx,
        done.change().id(),
        afterRow,
        done.kind(),
        done.patch(),
        done.diff(),
        done.diffPending());
  }
}
