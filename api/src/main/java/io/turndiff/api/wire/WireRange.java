package io.turndiff.api.wire;

import io.turndiff.review.RangeDiff;
import java.util.List;

/** A stretch of turns of one session: {@code GET /v1/range}. */
public record WireRange(String from, String to, String session, List<WireRangeRecord> files) {

  public static WireRange of(RangeDiff range) {
    return new WireRange(
        range.from().externalId(),
        range.to().externalId(),
        range.from().sessionExternalId(),
        range.changes().stream().map(WireRangeRecord::of).toList());
  }
}
