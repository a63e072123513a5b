package io.turndiff.rewind;

import io.turndiff.model.RequestException;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredRewindOperation;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Who applies a rewind operation: exactly one runner at a time. A process claims an operation by
 * storing itself as its runner (in a write transaction, so two processes never both claim it), and
 * only when the runner stored before is gone; within one process, an operation being applied by
 * another thread is refused.
 */
final class OperationClaims {

  /** The operations this process is applying now, by store file and operation row. */
  private static final Set<String> APPLYING_HERE = ConcurrentHashMap.newKeySet();

  private final Store store;

  OperationClaims(Store store) {
    this.store = store;
  }

  private String key(long operationId) {
    return store.address().display() + "#" + operationId;
  }

  /** Claims a new operation inside the transaction that creates it. */
  void claimNew(StoreTransaction tx, StoredRewindOperation operation) {
    if (!APPLYING_HERE.add(key(operation.id()))) {
      throw new IllegalStateException(
          "a new operation is already being applied: " + operation.externalId());
    }
    tx.rewinds().setRunner(operation.id(), RewindRunner.current().stored());
  }

  /**
   * Claims an operation an earlier run left applying.
   *
   * @throws RequestException when a live process (this one included) is applying it now
   */
  void claim(StoredRewindOperation operation) {
    if (!APPLYING_HERE.add(key(operation.id()))) {
      throw new RequestException(
          RequestException.Problem.WRONG_STATE,
          "rewind operation '"
              + operation.externalId()
              + "' is being applied right now; wait for it to finish");
    }
    try {
      store.write(
          tx -> {
            RewindRunner self = RewindRunner.current();
            Optional<RewindRunner> runner =
                tx.rewinds().runner(operation.id()).flatMap(RewindRunner::parse);
            if (runner.isPresent() && !runner.get().equals(self) && runner.get().isAlive()) {
              throw new RequestException(
                  RequestException.Problem.WRONG_STATE,
                  "rewind operation '"
                      + operation.externalId()
                      + "' is being applied right now by process "
                      + runner.get().pid()
                      + "; wait for it to finish");
            }
            tx.rewinds().setRunner(operation.id(), self.stored());
            return null;
          });
    } catch (RuntimeException e) {
      release(operation);
      throw e;
    }
  }

  /**
   * Gives the operation up, when applying it ended (done, or failed mid-way): the store no longer
   * names this process as its runner, so that another process may resume it while this one lives on
   * (a long-running {@code serve}). The runner is cleared before this process's own claim goes, so
   * no other thread of it can have claimed the operation meanwhile.
   */
  void release(StoredRewindOperation operation) {
    try {
      store.write(
          tx -> {
            tx.rewinds().clearRunner(operation.id(), RewindRunner.current().stored());
            return null;
          });
    } finally {
      APPLYING_HERE.remove(key(operation.id()));
    }
  }

  /**
   * Runs {@code work}, then releases every operation in {@code claimed} (which the work may add
   * to): a failure to release never hides the work's own failure, it is added to it.
   */
  <T> T releasingAfter(List<StoredRewindOperation> claimed, Supplier<T> work) {
    T result;
    try {
      result = work.get();
    } catch (RuntimeException | Error failure) {
      for (StoredRewindOperation operation : claimed) {
        try {
          release(operation);
        } catch (RuntimeException alsoFailed) {
          failure.addSuppressed(alsoFailed);
        }
      }
      throw failure;
    }
    claimed.forEach(this::release);
    return result;
  }
}
