package io.turndiff.api.wire;

import io.turndiff.store.GarbageCollector;
import io.turndiff.store.RemovedTurn;
import java.util.List;

/**
 * What {@code turndiff gc} removed (or, with {@code --dry-run}, would remove) and the space freed.
 */
public record WireGcReport(
    boolean dryRun,
    int turnsRemoved,
    List<Turn> turns,
    int groupsKept,
    long blobsRemoved,
    long blobBytesFreed,
    long fileBytesBefore,
    long fileBytesAfter,
    long fileBytesFreed,
    long bytesInUse,
    boolean convertedToIncrementalVacuum) {

  /** One turn removed, with its workspace and session. */
  public record Turn(
      String workspace, String session, String turn, long seq, String kind, String finishedAt) {

    static Turn of(RemovedTurn turn) {
      return new Turn(
          turn.workspace(),
          turn.session(),
          turn.turn(),
          turn.seq(),
          turn.kind(),
          turn.finishedAt().toString());
    }
  }

  public static WireGcReport of(GarbageCollector.Result result) {
    return new WireGcReport(
        result.dryRun(),
        result.turnsRemoved().size(),
        result.turnsRemoved().stream().map(Turn::of).toList(),
        result.groupsKept(),
        result.blobsRemoved(),
        result.blobBytesFreed(),
        result.fileBytesBefore(),
        result.fileBytesAfter(),
        result.fileBytesBefore() - result.fileBytesAfter(),
        result.bytesInUse(),
        result.convertedToIncrementalVacuum());
  }
}
