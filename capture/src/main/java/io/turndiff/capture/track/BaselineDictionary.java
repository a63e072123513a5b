package io.turndiff.capture.track;

import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.FileType;
import io.turndiff.store.ContentDictionary;
import io.turndiff.store.DictionaryTraining;
import io.turndiff.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The zstd dictionary a tracked workspace's files are compressed with as a read stores them ({@link
 * ContentReader}): the workspace's own, or, when it has none and the read is to store many small
 * files (a first track), one trained now on a sample of them and kept with the store.
 *
 * <p>Why: a file compressed on its own learns nothing from the files beside it, and a tree is
 * mostly small files that share much (headers, imports, idioms). On `bench scale`'s 250,000 files a
 * dictionary takes their frames to 0.44x, on spring-framework's sources to 0.67x
 * (docs/performance.md, "A tracked workspace's dictionary"). The sample is read through the same
 * boundary as every other read (nothing outside the workspace), only to train: the read that stores
 * the files reads them again, so a file changed in between is stored as it is then.
 */
final class BaselineDictionary {

  private final Store store;

  BaselineDictionary(Store store) {
    this.store = store;
  }

  /**
   * The dictionary of {@code workspaceId}; when it has none and {@code mayTrain} (a track), one
   * trained on a sample of {@code entries} if enough of them are samples ({@link #samplesOf}), else
   * none. A track whose training fails, or whose tree has too few samples, leaves none, and the
   * next track tries again.
   */
  Optional<ContentDictionary> forReading(
      long workspaceId, WorkspaceBoundary boundary, List<ScannedEntry> entries, boolean mayTrain) {
    // without folding: the before log, which a read folds first, holds no dictionary
    Optional<ContentDictionary> kept =
        store.readWithoutFolding(tx -> tx.dictionaries().ofWorkspace(workspaceId));
    if (kept.isPresent() || !mayTrain) {
      return kept;
    }
    List<ScannedEntry> samples = samplesOf(entries);
    if (samples.isEmpty()) {
      return Optional.empty();
    }
    Optional<byte[]> trained = DictionaryTraining.train(contentsOf(boundary, samples));
    if (trained.isEmpty()) {
      return Optional.empty();
    }
    // In a transaction of its own, committed before any frame is compressed with it (an id added
    // in a transaction rolled back would be free for another dictionary); another track of the
    // same workspace that trained first wins, and this one uses its dictionary. Then read back
    // once committed, so that the store keeps it, digested, for every later read of this process:
    // a service's first turn after the track does not read and digest it again.
    long id =
        store.write(
            tx ->
                tx.dictionaries()
                    .ofWorkspace(workspaceId)
                    .orElseGet(() -> tx.dictionaries().add(workspaceId, trained.get()))
                    .id());
    return Optional.of(store.readWithoutFolding(tx -> tx.dictionaries().byId(id)));
  }

  /**
   * The entries a dictionary is trained on: of the regular files of one link, neither empty nor
   * larger than {@link DictionaryTraining#LARGEST_SAMPLE}, every n-th in the tree's order, n such
   * that they are at most {@link DictionaryTraining#MOST_SAMPLES} files and about {@link
   * DictionaryTraining#SAMPLE_BYTES} bytes: spread over the whole tree, not its first directories.
   * None when fewer than {@link DictionaryTraining#FEWEST_FILES} files could be samples.
   */
  static List<ScannedEntry> samplesOf(List<ScannedEntry> entries) {
    List<ScannedEntry> candidates =
        entries.stream()
            .filter(
                entry ->
                    entry.type() == FileType.REGULAR
                        && entry.nlink() == 1
                        && !entry.otherMount()
                        && entry.size() > 0
                        && entry.size() <= DictionaryTraining.LARGEST_SAMPLE)
            .toList();
    if (candidates.size() < DictionaryTraining.FEWEST_FILES) {
      return List.of();
    }
    long bytes = candidates.stream().mapToLong(ScannedEntry::size).sum();
    long stride =
        Math.max(
            ceilingOf(bytes, DictionaryTraining.SAMPLE_BYTES),
            ceilingOf(candidates.size(), DictionaryTraining.MOST_SAMPLES));
    List<ScannedEntry> spread = new ArrayList<>();
    for (long i = 0; i < candidates.size(); i += stride) {
      spread.add(candidates.get((int) i));
    }
    return spread;
  }

  private static long ceilingOf(long dividend, long divisor) {
    return (dividend + divisor - 1) / divisor;
  }

  /**
   * The contents of {@code samples} as read through the boundary; a file it could not read left
   * out.
   */
  private static List<byte[]> contentsOf(WorkspaceBoundary boundary, List<ScannedEntry> samples) {
    List<byte[]> contents = new ArrayList<>(samples.size());
    for (ScannedEntry sample : samples) {
      boundary
          .observeExact(sample.path(), DictionaryTraining.LARGEST_SAMPLE)
          .content()
          .ifPresent(contents::add);
    }
    return contents;
  }
}
