package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.record.BlobSink;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.ContentDictionary;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads the paths a scan could not prove unchanged, through the boundary ({@code observeExact}: the
 * content and the stat it was read with), on a pool of threads, or on the caller's thread when they
 * are fewer than one thread's share; with {@code storeContent}, the new content is compressed on
 * those threads and written to the blob table in batches of {@value #BLOB_BATCH}, one transaction
 * each, as it is read. The last batch, which is all of a hook's few files, is not written here: it
 * is returned, for the transaction that writes the index to store ({@link Reading#unstored}), so
 * that a finish of a few small files adds no commit of its own for them. A file too large to hold
 * in memory (over 2 MiB) and within the size limit is streamed into the store in chunks as a
 * capture's is ({@link WorkspaceBoundary#observeCapturing}), against the content the index held for
 * the path when that is stored in chunks too ({@link BlobSink#storingAgainst}): a tracked baseline
 * holds a big file as a turn's snapshot call would, so that a change a scan finds in it can be
 * rewound, and a few changed lines cost a chunk's delta.
 */
final class ContentReader {

  private static final int BLOB_BATCH = 256;

  /**
   * Paths per reading thread: fewer changed paths than this are read on the caller's thread, more
   * on a pool of one thread per this many (at most one per core).
   */
  private static final int PATHS_PER_THREAD = 64;

  private final Store store;
  private final BaselineDictionary dictionaries;

  ContentReader(Store store) {
    this.store = store;
    this.dictionaries = new BaselineDictionary(store);
  }

  /**
   * What a read found: each path's observation, the compressed contents of the last batch, which
   * the caller stores in the transaction that writes the index, and the hashes of the earlier
   * batches, stored already.
   */
  record Reading(
      Map<WorkspacePath, Observation> observations,
      List<EncodedBlob> unstored,
      Set<Sha256> stored) {

    static final Reading NONE = new Reading(Map.of(), List.of(), Set.of());
  }

  /**
   * What each of {@code entries} holds now, by path; {@code indexed} is the content the index holds
   * for a path, which a big file's chunks are stored against; {@code progress} hears of every batch
   * read. The contents of the last batch are returned unstored ({@link Reading}). Content is
   * compressed with the workspace's dictionary; with {@code mayTrain} (a track) one is trained on
   * {@code entries} first when the workspace has none ({@link BaselineDictionary}).
   */
  Reading read(
      long workspaceId,
      WorkspaceBoundary boundary,
      List<ScannedEntry> entries,
      Map<WorkspacePath, Sha256> indexed,
      boolean storeContent,
      boolean mayTrain,
      Tracker.Progress progress) {
    if (entries.isEmpty()) {
      return Reading.NONE;
    }
    Map<WorkspacePath, Observation> read = new HashMap<>();
    Optional<ContentDictionary> dictionary =
        storeContent
            ? dictionaries.forReading(workspaceId, boundary, entries, mayTrain)
            : Optional.empty();
    // Fewer paths than one thread's share (a turn's few changed files) are read on this thread: a
    // pool of one made for each read cost its thread's start, the hand-off of every path and the
    // wait for its close while this thread only waited (103 of a warm finish's 755 wall-clock
    // samples at 100,000 files, docs/performance.md "A hook's questions sized to their answers").
    // More (a track, a big turn) go to a pool, whose reads are stored in batches as they come in,
    // however few cores there are. A null pool is no resource to close.
    boolean inline = entries.size() < PATHS_PER_THREAD;
    int threads =
        Math.max(
            1,
            Math.min(
                Runtime.getRuntime().availableProcessors(), entries.size() / PATHS_PER_THREAD + 1));
    try (ExecutorService pool = inline ? null : Executors.newFixedThreadPool(threads)) {
      List<Future<Map.Entry<Observation, Optional<EncodedBlob>>>> futures =
          new ArrayList<>(entries.size());
      for (ScannedEntry entry : entries) {
        futures.add(
            pool == null
                ? CompletableFuture.completedFuture(
                    observed(boundary, entry, indexed, storeContent, dictionary))
                : pool.submit(() -> observed(boundary, entry, indexed, storeContent, dictionary)));
      }
      List<EncodedBlob> batch = new ArrayList<>(BLOB_BATCH);
      Set<Sha256> stored = new HashSet<>();
      for (int i = 0; i < futures.size(); i++) {
        // An interrupted caller gets no observations, whoever read them. A read on the caller's
        // thread once it is interrupted may fail for that alone (a channel of the fallback
        // boundary closes on an interrupt) and would be recorded as a file that could not be read;
        // and a finished future's get() does not look at the interrupt.
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
        Map.Entry<Observation, Optional<EncodedBlob>> result = futures.get(i).get();
        read.put(entries.get(i).path(), result.getKey());
        result.getValue().ifPresent(batch::add);
        if (batch.size() >= BLOB_BATCH) {
          batch.forEach(blob -> stored.add(blob.sha256()));
          storeBlobs(batch);
          progress.read(i + 1, futures.size());
        }
      }
      progress.read(futures.size(), futures.size());
      return new Reading(read, List.copyOf(batch), stored);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the workspace", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(e.getCause());
    }
  }

  /**
   * What {@code entry} holds now, read through the boundary, and with {@code storeContent} its
   * content encoded for the blob table, with the workspace's {@code dictionary} when it has one.
   */
  private Map.Entry<Observation, Optional<EncodedBlob>> observed(
      WorkspaceBoundary boundary,
      ScannedEntry entry,
      Map<WorkspacePath, Sha256> indexed,
      boolean storeContent,
      Optional<ContentDictionary> dictionary) {
    Observation observation =
        storeContent
            ? boundary.observeCapturing(
                entry.path(),
                BlobSink.storingAgainst(store, Optional.ofNullable(indexed.get(entry.path()))))
            : boundary.observeExact(entry.path());
    Optional<EncodedBlob> blob = Optional.empty();
    if (storeContent && observation.content().isPresent()) {
      Sha256 sha256 = observation.snapshot().storedContent().orElseThrow();
      byte[] content = observation.content().get();
      blob =
          Optional.of(
              dictionary.isPresent()
                  ? BlobEncoder.encode(sha256, content, dictionary.get())
                  : BlobEncoder.encode(sha256, content));
    }
    return Map.entry(observation, blob);
  }

  private void storeBlobs(List<EncodedBlob> batch) {
    if (batch.isEmpty()) {
      return;
    }
    List<EncodedBlob> copy = List.copyOf(batch);
    batch.clear();
    store.write(
        tx -> {
          // the index that refers to them is written later, in another transaction: a collection
          // meanwhile keeps them for its grace period
          copy.forEach(tx.blobs()::putRetained);
          return null;
        });
  }
}
