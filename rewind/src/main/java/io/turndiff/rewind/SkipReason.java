package io.turndiff.rewind;

/**
 * Why a rewind leaves a path as it is, beyond the snapshot reasons (which are reported as they
 * are).
 */
final class SkipReason {

  /**
   * The file changed since the turn, and the turn's hunks do not reverse cleanly on top of the
   * change.
   */
  static final String CONFLICT = "conflict";

  /** Between two of the rewound turns the file changed outside any of them. */
  static final String CHAIN_BROKEN = "chain_broken";

  /**
   * The boundary refused the write: a parent is a symlink, a file or another mount; a directory is
   * in the way.
   */
  static final String REFUSED = "refused";

  /**
   * A directory the rewound turns created still holds something once the files are written: it is
   * left.
   */
  static final String DIRECTORY_NOT_EMPTY = "directory_not_empty";

  /**
   * A state the rewind would rely on was not captured (the turn's after-state, or a state between
   * two rewound turns), so it cannot tell whether the path changed outside the turns; {@code
   * --force} goes on where the path's current state can be recorded first.
   */
  static final String UNVERIFIED = "unverified";

  /**
   * A stored content the path's rewind needs reads back as other bytes than its hash says: the
   * store is damaged, and the file is left rather than written with what the store holds now.
   */
  static final String DAMAGED = "damaged";

  /** The before-state is not known completely, for no more specific reason. */
  static final String NOT_CAPTURED = "not_captured";

  private SkipReason() {}
}
