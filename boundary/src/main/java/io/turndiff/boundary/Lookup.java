package io.turndiff.boundary;

/** What an {@code lstat} of a workspace path found, with no symlink followed in any component. */
sealed interface Lookup {

  /**
   * The final component exists; {@code stat} describes it (a symlink is described, not followed).
   */
  record Found(StatInfo stat) implements Lookup {}

  /**
   * A component does not exist, or a parent component is not a directory: the path cannot exist.
   */
  record Missing() implements Lookup {}

  /** A parent component is a symlink; nothing was followed. */
  record LinkInPath() implements Lookup {}

  /** A component is on another mount than the root. */
  record OtherMount() implements Lookup {}

  /** The kernel refused or failed; whether the path exists is not known. */
  record Failed(String detail) implements Lookup {}
}
