package io.turndiff.model;

import java.util.Objects;

/**
 * Why a state was not captured: the {@link Reason}, and what the boundary said about it (the errno,
 * the link that escapes, the size over the limit), or "". Every metadata-only snapshot is made with
 * one ({@link Snapshot#unknown}, {@link Snapshot#notCaptured}, {@link Snapshot.MetadataOnly#of}).
 */
public record NotCaptured(Reason reason, String detail) {

  public NotCaptured {
    Objects.requireNonNull(reason, "a state that was not captured has the reason why");
    Objects.requireNonNull(detail, "detail");
  }
}
