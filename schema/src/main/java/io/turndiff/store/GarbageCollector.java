package io.turndiff.store;

import io.turndiff.model.TestHook;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.SQLDialect;

/**
 * A collection ({@code turndiff gc}): removes the finished turns a {@link RetentionPolicy} lets go,
 * then the blobs no row refers to, then gives the freed pages back to the file system.
 *
 * <p>Every step is one short write transaction that leaves the store whole: one group of turns with
 * every row that is theirs alone ({@link Retention#remove}, which checks the group again in that
 * transaction), or a batch of blobs that nothing refers to at that moment, or a few hundred pages
 * of incremental vacuum. A process killed at any point loses only the steps it had not committed,
 * and another process's capture or rewind waits at most one step for the write lock. A blob stored
 * or looked up within the policy's grace period is kept even when nothing refers to it yet, since a
 * capture in another process writes the row that refers to it in a later transaction.
 */
public final class GarbageCollector {

  /** Blobs removed per transaction. */
  private static final int BLOB_BATCH = 500;

  /** Pages given back per step (1 MiB at SQLite's default page size). */
  private static final int VACUUM_PAGES = 256;

  private static final int AUTO_VACUUM_INCREMENTAL = 2;

  private final Store store;
  private final TestHook hook;
  private final boolean mayConvert;
  private volatile boolean stopping;

  public GarbageCollector(Store store, TestHook hook) {
    this(store, hook, true);
  }

  private GarbageCollector(Store store, TestHook hook, boolean mayConvert) {
    this.store = store;
    this.hook = hook;
    this.mayConvert = mayConvert;
  }

  /**
   * A collector that never holds the store for long, as {@code serve} runs it: on a store made
   * before incremental vacuum it gives no space back (the freed pages are reused) instead of
   * converting the store with one full {@code VACUUM}.
   */
  public GarbageCollector withoutFullVacuum() {
    return new GarbageCollector(store, hook, false);
  }

  /** Whether freed pages are given back in steps (the store has incremental vacuum). */
  public boolean givesSpaceBackInSteps() {
    // a pragma has no jOOQ DSL; it is SQLite's own statement
    return store.outsideTransaction(
            dsl -> ((Number) dsl.fetchValue("PRAGMA auto_vacuum")).intValue())
        == AUTO_VACUUM_INCREMENTAL;
  }

  /**
   * Ends a collection running on another thread once the step it is in has committed: {@link
   * #collect} then throws {@link Stopped}. What was committed stays; the next collection does the
   * rest.
   */
  public void stop() {
    stopping = true;
  }

  /** Thrown by {@link #collect} when {@link #stop} ended it between two steps. */
  public static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("the collection was stopped between two steps");
    }
  }

  /**
   * What a collection did, or in a dry run would do.
   *
   * @param blobBytesFreed stored bytes of the blobs removed
   * @param fileBytesBefore the database file and its log before (the same after, in a dry run)
   * @param bytesInUse the bytes of the file's pages that hold something once the turns and blobs
   *     are gone
   * @param convertedToIncrementalVacuum the store was created before turndiff gave back space in
   *     steps: this collection gave it all back with one full {@code VACUUM} and converted it
   */
  public record Result(
      boolean dryRun,
      List<RemovedTurn> turnsRemoved,
      int groupsKept,
      long blobsRemoved,
      long blobBytesFreed,
      long fileBytesBefore,
      long fileBytesAfter,
      long bytesInUse,
      boolean convertedToIncrementalVacuum) {}

  public Result collect(RetentionPolicy policy, boolean dryRun) {
    long now = store.clock().millis();
    if (!dryRun) {
      // the log's pages moved into the file first, so that before and after measure the same thing
      store.checkpoint();
    }
    long before = store.fileBytes();
    if (dryRun) {
      try {
        store.write(
            tx -> {
              throw new DryRun(removeAll(policy, now, false));
            });
      } catch (DryRun outcome) {
        return outcome.result(before);
      }
      throw new IllegalStateException("a dry run always rolls back");
    }
    Steps steps = removeAll(policy, now, true);
    boolean converted = giveSpaceBack();
    store.checkpoint();
    return new Result(
        false,
        steps.turns,
        steps.groupsKept,
        steps.blobs,
        steps.bytes,
        before,
        store.fileBytes(),
        steps.bytesInUse,
        converted);
  }

  /** What the removals did; in a dry run all of it happens inside one transaction, rolled back. */
  private static final class Steps {
    final List<RemovedTurn> turns = new ArrayList<>();
    int groupsKept;
    long blobs;
    long bytes;
    long bytesInUse;
  }

  private Steps removeAll(RetentionPolicy policy, long now, boolean inSteps) {
    Steps steps = new Steps();
    if (policy.choosesTurns()) {
      removeGroups(
          store.read(tx -> tx.retention().groups(policy.olderThan(), policy.keepTurns(), now)),
          steps,
          inSteps);
    }
    long storedBefore = now - policy.grace().toMillis();
    removeBlobs(storedBefore, steps, inSteps);
    if (policy.maxSize().isPresent()) {
      long max = policy.maxSize().getAsLong();
      // one group at a time, with the blobs it let go, measured after each: no more turns go than
      // the size needs
      List<Set<Long>> oldest =
          store.read(tx -> tx.retention().groups(Optional.empty(), policy.keepTurns(), now));
      for (Set<Long> group : oldest) {
        if (store.write(tx -> tx.retention().bytesInUse()) <= max) {
          break;
        }
        removeGroup(group, steps, inSteps)
            .ifPresent(blobs -> removeBlobsAmong(blobs, storedBefore, steps, inSteps));
      }
    }
    steps.bytesInUse = store.write(tx -> tx.retention().bytesInUse());
    return steps;
  }

  private void removeGroups(List<Set<Long>> groups, Steps steps, boolean inSteps) {
    for (Set<Long> group : groups) {
      removeGroup(group, steps, inSteps);
    }
  }

  /** Removes one group; returns the blobs its rows referred to, empty when it was kept. */
  private Optional<Set<String>> removeGroup(Set<Long> group, Steps steps, boolean inSteps) {
    Optional<Retention.Removal> removed = store.write(tx -> tx.retention().remove(group));
    removed.ifPresentOrElse(
        removal -> steps.turns.addAll(removal.turns()), () -> steps.groupsKept++);
    if (inSteps) {
      stepCommitted();
    }
    return removed.map(Retention.Removal::blobs);
  }

  private void removeBlobs(long storedBefore, Steps steps, boolean inSteps) {
    String after = "";
    Set<String> bases = new HashSet<>();
    while (true) {
      String from = after;
      Retention.BlobBatch batch =
          store.write(tx -> tx.retention().removeUnreferencedBlobs(storedBefore, from, BLOB_BATCH));
      steps.blobs += batch.blobs();
      steps.bytes += batch.bytes();
      bases.addAll(batch.bases());
      if (inSteps) {
        stepCommitted();
      }
      if (batch.last().isEmpty()) {
        break;
      }
      after = batch.last().get();
    }
    removeBlobsAmong(bases, storedBefore, steps, inSteps);
  }

  /**
   * Removes those of {@code shas} that nothing refers to, then the bases that the deltas removed
   * left without a delta, and so on down the chains (at most {@link Blobs#MAX_DEPTH} rounds for
   * chains this build made): a base is kept while any delta on it is, so every step leaves each
   * kept content decodable, and a base a killed collection left behind is removed by the next one.
   */
  private void removeBlobsAmong(Set<String> shas, long storedBefore, Steps steps, boolean inSteps) {
    Set<String> next = shas;
    while (!next.isEmpty()) {
      Set<String> among = next;
      Retention.BlobBatch batch =
          store.write(tx -> tx.retention().removeUnreferencedBlobsAmong(among, storedBefore));
      steps.blobs += batch.blobs();
      steps.bytes += batch.bytes();
      if (inSteps) {
        stepCommitted();
      }
      next = batch.bases();
    }
  }

  /**
   * Gives the free pages back: in steps of {@link #VACUUM_PAGES} on a store with incremental
   * vacuum, else with one full {@code VACUUM} that also converts the store to incremental vacuum.
   *
   * @return whether the store was converted
   */
  private boolean giveSpaceBack() {
    if (store.dialect() != SQLDialect.SQLITE) {
      // PostgreSQL's autovacuum makes deleted rows' space reusable on its own; only SQLite's file
      // is given back here
      return false;
    }
    // pragmas and VACUUM have no jOOQ DSL; they are SQLite's own statements
    if (!givesSpaceBackInSteps()) {
      if (!mayConvert) {
        return false;
      }
      store.outsideTransaction(
          dsl -> {
            dsl.execute("PRAGMA auto_vacuum=INCREMENTAL");
            return dsl.execute("VACUUM");
          });
      stepCommitted();
      return true;
    }
    long free = store.freePages();
    while (free > 0) {
      long left = store.write(tx -> tx.retention().givePagesBack(VACUUM_PAGES));
      stepCommitted();
      if (left >= free) {
        return false; // nothing more could be given back now
      }
      free = left;
    }
    return false;
  }

  private void stepCommitted() {
    hook.reached(TestHook.Point.GC_STEP_COMMITTED);
    if (stopping) {
      throw new Stopped();
    }
  }

  /** Carries a dry run's figures out of the transaction it rolls back. */
  private static final class DryRun extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Steps steps;

    DryRun(Steps steps) {
      super(null, null, false, false);
      this.steps = steps;
    }

    Result result(long fileBytes) {
      return new Result(
          true,
          steps.turns,
          steps.groupsKept,
          steps.blobs,
          steps.bytes,
          fileBytes,
          fileBytes,
          steps.bytesInUse,
          false);
    }
  }
}
