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
 * <p>A class, not a record: the service forgets a turn by this very entry ({@code Map.remove(key,
 * value)}), and a record's equality would follow its directories as they fill.
 */
final class OpenTurn {

  private final StoredTurn row;
  private final Map<WorkspacePath, DirectoryState> directories = new ConcurrentHashMap<>();

  private OpenTurn(StoredTurn row) {
    this.row = row;
  }

  /** A turn seen open that has recorded no directory yet. */
  static OpenTurn of(StoredTurn row) {
    return new OpenTurn(row);
  }

  /** The turn's row as read; its state is checked again inside each write transaction. */
  StoredTurn row() {
    return row;
  }

  /** The directory states recorded in the turn, by path. */
  Map<WorkspacePath, DirectoryState> directories() {
    return directories;
  }

  /**
   * Whether {@code other} is the same turn row: its id, external id and start ({@link
   * io.turndiff.store.Turns#state}).
   */
  boolean isRow(StoredTurn other) {
    return row.id() == other.id()
        && row.externalId().equals(other.externalId())
        && row.beganAt().equals(other.beganAt());
  }
}
