package io.turndiff.review;

import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredWorkspace;
import java.util.Optional;

/**
 * The one thing a blame needs from outside the store: a path's state now, read by whoever may read
 * a workspace (the review module never does). A blame compares it with the last after-state the
 * store holds; the lines that differ were written outside any turn.
 */
@FunctionalInterface
public interface CurrentFile {

  /** The state of exactly {@code path} in {@code workspace} now. */
  Now read(StoredWorkspace workspace, WorkspacePath path);

  /**
   * A path's state now, with its content when the snapshot stores some.
   *
   * @param content the bytes of a captured regular file
   */
  record Now(Snapshot snapshot, Optional<byte[]> content) {

    public Now {
      if (content.isPresent() != snapshot.storedContent().isPresent()) {
        throw new IllegalArgumentException("content comes with exactly the states that store it");
      }
    }
  }
}
