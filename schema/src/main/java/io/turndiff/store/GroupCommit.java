package io.turndiff.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Lets concurrent writers share one write transaction: each caller queues its unit of work; the
 * first caller that finds no leader leads, takes every queued unit (its own included), has them run
 * in one transaction and committed once, and wakes them all. A caller returns only when the
 * transaction holding its unit has committed (or its unit failed), so what it was told is stored
 * survives a crash right after. A unit that arrives while a leader is busy waits for the next
 * group, which one of the waiting callers leads.
 */
final class GroupCommit {

  /** One caller's work and, once its group has run, what came of it. */
  static final class Unit<T> {

    private final Function<StoreTransaction, T> work;
    private T value;
    private Throwable failure;
    private boolean settled;

    private Unit(Function<StoreTransaction, T> work) {
      this.work = work;
    }

    /** Runs the work; its outcome is kept until the group's commit decides it. */
    void run(StoreTransaction tx) {
      value = work.apply(tx);
    }

    /** The unit failed on its own (its savepoint was rolled back): only its caller sees it. */
    void fail(Throwable cause) {
      failure = cause;
    }

    /** The whole group was rolled back: a unit that had not failed on its own fails with it. */
    void failWithGroup(Throwable cause) {
      if (failure == null) {
        failure = cause;
      }
    }

    boolean failed() {
      return failure != null;
    }

    private T outcome() {
      switch (failure) {
        case null -> {
          return value;
        }
        case RuntimeException e -> throw e;
        case Error e -> throw e;
        default -> throw new IllegalStateException(failure);
      }
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition groupDone = lock.newCondition();
  private final List<Unit<?>> queued = new ArrayList<>();
  private boolean leading;
  private long groupsRun;

  /**
   * Runs {@code work} in a group: {@code runGroup} is handed every queued unit at once and must run
   * each (marking the ones that failed) and commit them together, or fail them all.
   */
  <T> T submit(Function<StoreTransaction, T> work, Consumer<List<Unit<?>>> runGroup) {
    Unit<T> unit = new Unit<>(work);
    List<Unit<?>> group;
    lock.lock();
    try {
      queued.add(unit);
      while (leading && !unit.settled) {
        // uninterruptibly: the unit is queued, and a leader may commit it at any moment; the
        // caller learns how it ended
        groupDone.awaitUninterruptibly();
      }
      if (unit.settled) {
        return unit.outcome();
      }
      leading = true;
      groupsRun++;
      group = List.copyOf(queued);
      queued.clear();
    } finally {
      lock.unlock();
    }
    try {
      runGroup.accept(group);
    } catch (RuntimeException | Error e) {
      group.forEach(member -> member.failWithGroup(e));
    } finally {
      lock.lock();
      try {
        group.forEach(member -> member.settled = true);
        leading = false;
        groupDone.signalAll();
      } finally {
        lock.unlock();
      }
    }
    return unit.outcome();
  }

  /** How many units wait for the next group (for tests that line callers up). */
  int waiting() {
    lock.lock();
    try {
      return queued.size();
    } finally {
      lock.unlock();
    }
  }

  /** How many groups have been led so far (for tests that count commits). */
  long groupsRun() {
    lock.lock();
    try {
      return groupsRun;
    } finally {
      lock.unlock();
    }
  }
}
