package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.review.HistoryEntry;
import java.util.List;

/**
 * A turn that recorded a path, with how it stands to rewinds and that path's record: one entry of
 * {@code turndiff log}.
 */
public record WireHistoryEntry(
    @JsonUnwrapped WireTurn turn, @JsonUnwrapped WireTurnRewinds rewinds, WireFileRecord file) {

  public static WireHistoryEntry of(HistoryEntry entry) {
    return new WireHistoryEntry(
        WireTurn.of(entry.turn()),
        WireTurnRewinds.of(entry.rewinds()),
        WireFileRecord.of(entry.change()));
  }

  public static List<WireHistoryEntry> of(List<HistoryEntry> entries) {
    return entries.stream().map(WireHistoryEntry::of).toList();
  }
}
