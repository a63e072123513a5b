package io.turndiff.boundary;

/** A {@code statx} answer: the stat, or the errno it failed with. */
record StatResult(StatInfo stat, int errno) {

  static StatResult of(StatInfo stat) {
    return new StatResult(stat, 0);
  }

  static StatResult failed(int errno) {
    return new StatResult(null, errno);
  }

  boolean ok() {
    return stat != null;
  }
}
