package io.turndiff.capture;

import io.turndiff.model.DirectoryState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredTurn;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A turn as this service saw it open, and the directory states it recorded in it: kept together, so
 * that a turn forgotten, or begun again under the same id as another row, never lends its
 * directories to the other. The directories are not looked at again within the turn ({@link
 * DirectoryFacts}).
 *
 * @param row the turn's row as read; its state is checked again inside each write transaction
 * @param directories the directory states recorded in the turn, by path
 */
record OpenTurn(StoredTurn row, Map<WorkspacePath, DirectoryState> directories) {

  /** A turn seen open that has recorded no directory yet. */
  static OpenTurn of(StoredTurn row) {
    return new OpenTurn(row, new ConcurrentHashMap<>());
  }

  /** Whether {@code other} is the same turn row: its id, external id and start. */
  boolean isRow(StoredTurn other) {
    return row.id() == other.id()
        && row.externalId().equals(other.externalId())
        && row.beganAt().equals(other.beganAt());
  }
}
