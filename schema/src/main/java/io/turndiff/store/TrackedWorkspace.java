package io.turndiff.store;

/**
 * A tracked workspace's index header.
 *
 * @param indexedAtNanos wall-clock time when the scan that wrote the index began
 * @param version incremented on every write of the index
 * @param partial the budgets left some subtrees out
 * @param ignoredFiles what the index keeps of the files git ignores: {@code none}, {@code metadata}
 *     or {@code small} (V18)
 * @param ignoredMaxBytes the size above which an ignored file is not indexed
 */
public record TrackedWorkspace(
    long workspaceId,
    long indexedAtNanos,
    long version,
    boolean partial,
    long maxFiles,
    long maxBytes,
    String ignoredFiles,
    long ignoredMaxBytes) {}
