package io.turndiff.capture.track;

import io.turndiff.model.DirectoryState;

/** A directory as the index had it and as a scan found it (a directory is never a file change). */
public record DirectoryDelta(DirectoryState before, DirectoryState after) {

  public DirectoryDelta {
    if (!before.path().equals(after.path())) {
      throw new IllegalArgumentException(
          "one directory: " + before.path() + " and " + after.path());
    }
  }
}
