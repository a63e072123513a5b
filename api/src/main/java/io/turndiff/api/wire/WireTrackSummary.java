package io.turndiff.api.wire;

import io.turndiff.capture.track.TrackSummary;
import io.turndiff.model.WorkspacePath;
import java.util.List;

/** What {@code track} indexed: counts, what it left out, and how long it took. */
public record WireTrackSummary(
    String workspace,
    int files,
    long bytes,
    int contentRead,
    boolean partial,
    List<String> leftOut,
    List<String> unlisted,
    double elapsedMs,
    WireIgnoredFiles ignoredFiles) {

  public static WireTrackSummary of(TrackSummary summary) {
    return new WireTrackSummary(
        summary.workspace(),
        summary.files(),
        summary.bytes(),
        summary.contentRead(),
        summary.partial(),
        summary.leftOut().stream().map(WorkspacePath::display).toList(),
        summary.unlisted(),
        summary.elapsedNanos() / 1e6,
        WireIgnoredFiles.of(summary.ignoredFiles()));
  }
}
