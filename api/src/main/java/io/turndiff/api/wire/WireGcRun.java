package io.turndiff.api.wire;

import io.turndiff.store.GarbageCollector;
import java.time.Instant;

/**
 * One collection {@code serve} ran on its own, as its log line and {@code GET /v1/service/status}
 * give it: why it ran ({@code "schedule"} or {@code "size"}), when, what it freed, and the error or
 * the note (a store that gives no space back) when there is one. The figures are those of {@link
 * WireGcReport}, without the list of turns.
 */
public record WireGcRun(
    String trigger,
    String startedAt,
    String finishedAt,
    String outcome,
    int turnsRemoved,
    int groupsKept,
    long blobsRemoved,
    long blobBytesFreed,
    long fileBytesBefore,
    long fileBytesAfter,
    long fileBytesFreed,
    long bytesInUse,
    String note) {

  /** {@code outcome}: the collection did all its steps. */
  public static final String DONE = "done";

  /** {@code outcome}: the service stopped it between two steps. */
  public static final String STOPPED = "stopped";

  /** {@code outcome}: a step failed; {@code note} says how. */
  public static final String FAILED = "failed";

  public static WireGcRun done(
      String trigger,
      Instant startedAt,
      Instant finishedAt,
      GarbageCollector.Result result,
      String note) {
    return new WireGcRun(
        trigger,
        startedAt.toString(),
        finishedAt.toString(),
        DONE,
        result.turnsRemoved().size(),
        result.groupsKept(),
        result.blobsRemoved(),
        result.blobBytesFreed(),
        result.fileBytesBefore(),
        result.fileBytesAfter(),
        result.fileBytesBefore() - result.fileBytesAfter(),
        result.bytesInUse(),
        note);
  }

  /** A collection that ended early ({@link #STOPPED} or {@link #FAILED}): no figures. */
  public static WireGcRun ended(
      String trigger, Instant startedAt, Instant finishedAt, String outcome, String note) {
    return new WireGcRun(
        trigger,
        startedAt.toString(),
        finishedAt.toString(),
        outcome,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        note);
  }
}
