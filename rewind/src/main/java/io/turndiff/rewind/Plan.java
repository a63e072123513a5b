package io.turndiff.rewind;

import io.turndiff.model.Sha256;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredToolCall;
import io.turndiff.store.StoredTurn;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A rewind as planned before its first write: the turn named, its session, the turns it rewinds
 * (newest first) and every path they recorded (at or under the {@code named} paths), with the chain
 * rule's verdict on each; for a rewind to before a tool call of the turn ({@code beforeToolCall}),
 * only the paths that call and the later ones touched, or that the plan names as left; for a rewind
 * of one hunk ({@code hunk}), the one path, whose target is the after-state without that hunk; and
 * the stored contents its planned paths need ({@code contents}, by hash), each checked against its
 * hash when it was loaded (a path whose content was not is left as {@code damaged}).
 */
record Plan(
    StoredTurn target,
    StoredSession session,
    List<StoredTurn> turns,
    List<PlannedPath> paths,
    NamedPaths named,
    Optional<StoredToolCall> beforeToolCall,
    Optional<HunkTarget> hunk,
    Map<Sha256, byte[]> contents) {

  Plan {
    turns = List.copyOf(turns);
    paths = List.copyOf(paths);
    contents = Map.copyOf(contents);
  }

  /**
   * The paths whose directories the rewind acts on: those named; for a rewind to before a tool
   * call, the paths it plans (a directory the turn made is removed only when every file in it goes
   * back, as for named paths).
   */
  NamedPaths directoryScope() {
    return beforeToolCall.isEmpty()
        ? named
        : NamedPaths.selected(paths.stream().map(PlannedPath::path).toList());
  }
}
