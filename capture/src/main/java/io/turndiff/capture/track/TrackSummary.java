package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.List;

/** What building or refreshing an index did. */
public record TrackSummary(
    String workspace,
    int files,
    long bytes,
    int contentRead,
    boolean partial,
    List<WorkspacePath> leftOut,
    List<String> unlisted,
    long elapsedNanos,
    IgnoredFilesSeen ignoredFiles) {}
