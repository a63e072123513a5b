package io.turndiff.boundary;

/**
 * Why a handle operation did not happen. The fd handles map an errno here, the stream handle a JDK
 * exception, each in one place; everything above the handles (the walker, the reader, the write
 * protocol) decides on these alone.
 */
sealed interface HandleFailure {

  /** The name is not there ({@code ENOENT}; {@code ENOTDIR} on a parent). */
  record Missing() implements HandleFailure {}

  /** A directory was needed and the name is something else ({@code ENOTDIR}). */
  record NotDirectory() implements HandleFailure {}

  /** The name is a symlink, and nothing was followed ({@code ELOOP}). */
  record Symlink() implements HandleFailure {}

  /** The name is on another mount than the root ({@code EXDEV}, another device, a mount root). */
  record OtherMount() implements HandleFailure {}

  /**
   * The name is taken ({@code EEXIST}): a temporary name someone else holds, a directory already
   * there.
   */
  record Exists() implements HandleFailure {}

  /** A directory to remove still holds names ({@code ENOTEMPTY}). */
  record NotEmpty() implements HandleFailure {}

  /** A special file without a driver or a socket: it cannot be opened ({@code ENXIO}). */
  record NoDevice() implements HandleFailure {}

  /** The open did not return in time (the stream handle, which cannot open without blocking). */
  record Blocked() implements HandleFailure {}

  /** The kernel or the JDK refused or failed; {@code detail} says how. */
  record Failed(String detail) implements HandleFailure {}

  /** What went wrong, for a refusal text. */
  default String describe() {
    return switch (this) {
      case Missing missing -> "it does not exist";
      case NotDirectory notDirectory -> "it is not a directory";
      case Symlink symlink -> "it is a symlink; it is never followed";
      case OtherMount otherMount -> "it is on another mount";
      case Exists exists -> "the name is taken";
      case NotEmpty notEmpty -> "it is not empty";
      case NoDevice noDevice -> "it cannot be opened";
      case Blocked blocked -> "the open did not return";
      case Failed failed -> failed.detail();
    };
  }
}
