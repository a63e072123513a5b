package io.turndiff.capture.track;

/**
 * The budgets of a tracked workspace's baseline: how many files and how many bytes of content the
 * index holds at most. Past either, the rest of the tree is left out and the workspace is partially
 * tracked.
 */
public record TrackingOptions(long maxFiles, long maxBytes) {

  public static final TrackingOptions DEFAULTS = new TrackingOptions(200_000, 2L << 30);

  public TrackingOptions {
    if (maxFiles < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "budgets must be positive: " + maxFiles + " files, " + maxBytes + " bytes");
    }
  }
}
