package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.List;

/**
 * What a turn recorded of some of its paths ({@link ReviewQueries#recordsAt}): the turn, its
 * workspace's real root, and its file changes of those paths, ordered by path bytes.
 */
public record PathRecords(StoredTurn turn, String workspaceRoot, List<StoredFileChange> changes) {

  public PathRecords {
    changes = List.copyOf(changes);
  }
}
