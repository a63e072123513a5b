package io.turndiff.capture;

import io.turndiff.boundary.Observation;
import io.turndiff.model.GivenPath;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.BeforeLog;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.StoreTransaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The before-states one snapshot call read, appended to the before log within the call's
 * transaction ({@link BeforeLog}): which is the first of its path in the turn (the first
 * before-state wins), which content the store does not hold yet (logged raw then, for the fold to
 * compress: {@link BlobEncoder#unencoded}), and the log's rows, all of the call's in one append.
 *
 * <p>A call that names one path (what runtimes send before most tools) asks the store in one
 * prepared query of one path ({@link BeforeLog#sightOf}): merged into the many-path queries below
 * it was slower. A call that names many (a patch over many files, a runtime that sends a tool's
 * paths at once) asks once per few hundred paths whether the turn holds each, and whether the store
 * holds each content, and reads them on the common pool, as a finish reads its files.
 */
final class CallBefores {

  /** From this many paths a call's paths are read on the common pool (as a finish's). */
  static final int PARALLEL_PATHS = 8;

  private CallBefores() {}

  /** What one call names: its id, its tool's name, when it came. */
  record Call(long turnId, String id, Optional<String> toolName, long calledAtMillis) {}

  /**
   * Appends the before-state of each observation (each read for the given path at the same index)
   * to the before log and returns the call's verdicts in the same order.
   */
  static List<SnapshotVerdict> append(
      StoreTransaction tx, Call call, List<GivenPath> inputs, List<Observation> observations) {
    Map<Sha256, byte[]> read = contentsRead(observations);
    Held held = held(tx, call.turnId(), observations, read.keySet());
    Map<Sha256, EncodedBlob> newContents = newContents(read, held.contents());
    Set<WorkspacePath> namedInThisCall = new HashSet<>();
    List<BeforeLog.Entry> entries = new ArrayList<>(observations.size());
    List<SnapshotVerdict> verdicts = new ArrayList<>(observations.size());
    for (int i = 0; i < observations.size(); i++) {
      Observation observation = observations.get(i);
      WorkspacePath path = observation.snapshot().path();
      // the first before-state of a path in the turn wins: one folded, one logged, or one this
      // call read already (a path it names twice, or reaches through a link and by name)
      boolean first = !held.paths().test(path) && namedInThisCall.add(path);
      // a content the call read twice is logged once, with the first row that read it; the fold
      // stores it before it meets the second
      Optional<EncodedBlob> content =
          observation.snapshot().storedContent().map(newContents::remove);
      entries.add(
          new BeforeLog.Entry(
              call.turnId(),
              call.id(),
              call.toolName(),
              call.calledAtMillis(),
              observation.snapshot(),
              observation.via(),
              content));
      verdicts.add(
          new SnapshotVerdict(inputs.get(i), observation.snapshot(), observation.via(), first));
    }
    tx.beforeLog().appendAll(entries);
    return verdicts;
  }

  /**
   * What the store holds already of what the call read.
   *
   * @param paths whether the turn holds a before-state of a path already: folded into its records,
   *     or logged
   * @param contents whether the store holds a content
   */
  private record Held(Predicate<WorkspacePath> paths, Predicate<Sha256> contents) {}

  /**
   * What the store holds of the observations' paths and of the contents they read: for one path one
   * prepared query ({@link BeforeLog#sightOf}), for many a few queries per few hundred.
   */
  private static Held held(
      StoreTransaction tx, long turnId, List<Observation> observations, Set<Sha256> contents) {
    if (observations.size() == 1) {
      WorkspacePath only = observations.getFirst().snapshot().path();
      BeforeLog.PathSight sight =
          tx.beforeLog().sightOf(turnId, only, contents.stream().findFirst());
      return new Held(path -> sight.pathHeld() && path.equals(only), sha -> sight.contentHeld());
    }
    List<WorkspacePath> paths =
        observations.stream().map(observation -> observation.snapshot().path()).toList();
    Set<WorkspacePath> heldPaths = new HashSet<>(tx.fileChanges().recordedAmong(turnId, paths));
    heldPaths.addAll(tx.beforeLog().holding(turnId, paths));
    Set<Sha256> heldContents = contents.isEmpty() ? Set.of() : tx.blobs().containedAmong(contents);
    return new Held(heldPaths::contains, heldContents::contains);
  }

  /** The contents the observations read, by hash, each once, in the order they were read. */
  private static Map<Sha256, byte[]> contentsRead(List<Observation> observations) {
    Map<Sha256, byte[]> read = new LinkedHashMap<>();
    for (Observation observation : observations) {
      observation
          .content()
          .ifPresent(
              content ->
                  read.putIfAbsent(observation.snapshot().storedContent().orElseThrow(), content));
    }
    return read;
  }

  /**
   * The contents read that the store does not hold, by hash, kept raw: most before-states of a tree
   * the store has seen are held; the others are compressed by the fold, which meets them together
   * at the turn's finish (on the common pool), not on the call, where zstd was a fifth of a
   * one-path call's time in a big turn. Within the call's transaction: a collection that removed a
   * content before it ran has the call log the content; one after it folds the log first, so the
   * content is referred to by then.
   */
  private static Map<Sha256, EncodedBlob> newContents(
      Map<Sha256, byte[]> read, Predicate<Sha256> held) {
    Map<Sha256, EncodedBlob> bySha = new LinkedHashMap<>();
    read.forEach(
        (sha, content) -> {
          if (!held.test(sha)) {
            bySha.put(sha, BlobEncoder.unencoded(sha, content));
          }
        });
    return bySha;
  }
}
