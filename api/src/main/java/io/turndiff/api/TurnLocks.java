package io.turndiff.api;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Serializes the calls that change one turn (snapshot, finish, rewind) while calls on other turns
 * proceed: a fixed set of locks, a turn id picking one. Two turns may share a lock; that only costs
 * them parallelism.
 */
public final class TurnLocks {

  private final ReentrantLock[] stripes;

  public TurnLocks(int stripes) {
    this.stripes = new ReentrantLock[stripes];
    for (int i = 0; i < stripes; i++) {
      this.stripes[i] = new ReentrantLock();
    }
  }

  public ReentrantLock of(String turn) {
    return stripes[Math.floorMod(turn.hashCode(), stripes.length)];
  }
}
