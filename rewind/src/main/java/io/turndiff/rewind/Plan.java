package io.turndiff.rewind;

import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.util.List;

/**
 * A rewind as planned before its first write: the turn named, its session, the turns it rewinds
 * (newest first) and every path they recorded (at or under the {@code named} paths), with the chain
 * rule's verdict on each.
 */
record Plan(
    StoredTurn target,
    StoredSession session,
    List<StoredTurn> turns,
    List<PlannedPath> paths,
    NamedPaths named) {

  Plan {
    turns = List.copyOf(turns);
    paths = List.copyOf(paths);
  }
}
