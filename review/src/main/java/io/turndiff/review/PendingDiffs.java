package io.turndiff.review;

import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The line diff of a finished change whose diff is pending (a finish leaves them to be computed
 * after it): computed from the change's two stored states exactly as a finish computed it before it
 * left them pending — the summary-style git patch of the before-state's stored content against the
 * after-state's, content stored in chunks shown as too large. The background stores it ({@link
 * BackgroundDiffs}); a query that meets a pending one computes the same on the spot.
 */
public final class PendingDiffs {

  private final GitPatchWriter summary = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);

  /** The patch of {@code change}, a finished change, from its states stored as {@code tx} sees. */
  public FilePatch patchOf(StoreTransaction tx, StoredFileChange change) {
    return patchOf(tx, change, summary);
  }

  /** The patch of {@code change}, a finished change, as {@code writer} draws it. */
  static FilePatch patchOf(StoreTransaction tx, StoredFileChange change, GitPatchWriter writer) {
    Snapshot before = change.before();
    Snapshot after =
        change
            .after()
            .orElseThrow(
                () -> new IllegalArgumentException("change " + change.id() + " is not finished"));
    Map<Sha256, byte[]> contents = tx.blobs().contentsOf(List.of(before, after));
    return writer.write(
        change.path(),
        PatchSide.of(before, before.storedContent().map(contents::get)),
        PatchSide.of(after, after.storedContent().map(contents::get)));
  }

  /** The hash a patch's text is stored under, none for an empty patch. */
  public static Optional<Sha256> hashOf(FilePatch patch) {
    return patch.isEmpty()
        ? Optional.empty()
        : Optional.of(Sha256.of(patch.text().getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * {@code changes} with every pending line diff computed now (not stored): line counts and the
   * diff's hash, as the background will store them.
   */
  public List<StoredFileChange> filled(StoreTransaction tx, List<StoredFileChange> changes) {
    if (changes.stream().noneMatch(StoredFileChange::diffPending)) {
      return changes;
    }
    List<StoredFileChange> filled = new ArrayList<>(changes.size());
    for (StoredFileChange change : changes) {
      if (!change.diffPending()) {
        filled.add(change);
        continue;
      }
      FilePatch patch = patchOf(tx, change);
      filled.add(change.withLineDiff(patch.added(), patch.removed(), hashOf(patch)));
    }
    return filled;
  }
}
