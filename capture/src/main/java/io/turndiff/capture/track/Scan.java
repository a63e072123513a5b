package io.turndiff.capture.track;

import io.turndiff.boundary.ScannedEntry;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a scan found against the index: the paths to read, the indexed paths it did not see, the
 * directories it did not look into (ignored, left out, unlisted), the files it ignored, and what
 * the budgets counted.
 *
 * @param startedAtNanos wall-clock time the scan started: the written index's reference for the
 *     racy rule
 * @param directories every directory the walk entered, with its permission bits
 * @param ignoredFiles the files git ignores that the walk took in, as the workspace's {@link
 *     IgnoredFiles} says (their content is stored, or with {@link IgnoredFiles#METADATA} only
 *     hashed)
 * @param ignoredOverCap the files git ignores that were bigger than the cap: not indexed
 * @param ignoredGone the indexed files git ignores that the walk did not see (deleted): judged by
 *     the rules it loaded for their directories, as they would have been had they been there
 */
record Scan(
    List<Candidate> candidates,
    List<IndexEntry> unseen,
    Set<WorkspacePath> notCovered,
    Set<WorkspacePath> ignored,
    List<WorkspacePath> leftOut,
    List<String> unlisted,
    int files,
    long bytes,
    boolean partial,
    long startedAtNanos,
    DirectoryModes directories,
    IgnoredFiles keptOfIgnored,
    Set<WorkspacePath> ignoredFiles,
    List<WorkspacePath> ignoredOverCap,
    Set<WorkspacePath> ignoredGone) {

  /**
   * Whether a change found at {@code path} is one of a file git ignores: taken in by this walk, or
   * indexed and now gone. The record of the change says so (a {@code .env}'s diff may hold
   * secrets).
   */
  boolean ignoredByGit(WorkspacePath path) {
    return ignoredFiles.contains(path) || ignoredGone.contains(path);
  }

  /**
   * A path whose stat does not prove it unchanged since the index ({@code indexed} empty: a new
   * path).
   */
  record Candidate(ScannedEntry entry, Optional<IndexEntry> indexed) {}
}
