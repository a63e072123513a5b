package io.turndiff.capture.track;

import java.util.Optional;

/**
 * The budgets of a tracked workspace's baseline: how many files and how many bytes of content the
 * index holds at most. Past either, the rest of the tree is left out and the workspace is partially
 * tracked. And what it keeps of the files git ignores ({@link IgnoredFiles}; empty: the store's
 * default, {@link IgnoredFiles#SMALL} in a local store, {@link IgnoredFiles#METADATA} in a shared
 * one), each up to {@code ignoredCap} bytes (empty: what the workspace had, else {@link
 * #IGNORED_MAX_BYTES}).
 */
public record TrackingOptions(
    long maxFiles, long maxBytes, Optional<IgnoredFiles> ignoredFiles, Optional<Long> ignoredCap) {

  /** The size above which an ignored file is not indexed: 5 MiB. */
  public static final long IGNORED_MAX_BYTES = 5L << 20;

  /**
   * The default budgets: a million files, 2 GiB of content. Trees where other checkpointing tools
   * break (OpenCode at 238,000 files, Cline at 252,000) are taken whole: a generated 250,000-file
   * tree was left a fifth out at the former 200,000. What bounds it is memory: the tracker holds
   * every entry in memory ({@code docs/performance.md}, "Scale where peers break"); a bigger tree
   * is tracked by asking for more, and is partial otherwise, every status naming what was left out.
   */
  public static final TrackingOptions DEFAULTS = new TrackingOptions(1_000_000, 2L << 30);

  public TrackingOptions {
    if (maxFiles < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "budgets must be positive: " + maxFiles + " files, " + maxBytes + " bytes");
    }
    if (ignoredCap.isPresent() && ignoredCap.get() < 0) {
      throw new IllegalArgumentException(
          "the size cap of ignored files must not be negative: " + ignoredCap.get());
    }
  }

  /** Budgets, with ignored files as the store's default has them. */
  public TrackingOptions(long maxFiles, long maxBytes) {
    this(maxFiles, maxBytes, Optional.empty(), Optional.empty());
  }

  /** These budgets, with ignored files kept as {@code ignored} says. */
  public TrackingOptions withIgnoredFiles(IgnoredFiles ignored) {
    return new TrackingOptions(maxFiles, maxBytes, Optional.of(ignored), ignoredCap);
  }

  /** These budgets, with ignored files over {@code bytes} left out of the index. */
  public TrackingOptions withIgnoredMaxBytes(long bytes) {
    return new TrackingOptions(maxFiles, maxBytes, ignoredFiles, Optional.of(bytes));
  }

  /** The size above which an ignored file is not indexed: as given, else 5 MiB. */
  public long ignoredMaxBytes() {
    return ignoredCap.orElse(IGNORED_MAX_BYTES);
  }

  /** What is kept of ignored files: as given, else {@code storeDefault}. */
  IgnoredFiles ignoredFilesOr(IgnoredFiles storeDefault) {
    return ignoredFiles.orElse(storeDefault);
  }
}
