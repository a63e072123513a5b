package io.turndiff.boundary;

import io.turndiff.model.WorkspacePath;

/** What a write, symlink creation or delete through the boundary did. */
public sealed interface WriteOutcome {

  /** The name now holds what was asked, durably (file and directory synced). */
  record Done() implements WriteOutcome {}

  /**
   * Refused before anything was changed: a parent is a symlink, a file or another mount; and so on.
   */
  record Refused(String reason) implements WriteOutcome {}

  /**
   * Written under a temporary name beside its target and not yet renamed over it: {@link
   * WorkspaceBoundary#commit} puts it in place, {@link WorkspaceBoundary#discard} removes it.
   */
  record Staged(WorkspacePath path, String temporaryName) implements WriteOutcome {}

  /**
   * Nothing written: the temporary name the caller gave is taken (by a file someone else made,
   * which is left as it is). The caller, which journaled that name, journals another and tries
   * again.
   */
  record NameTaken(String temporaryName) implements WriteOutcome {}

  /**
   * Nothing changed at the name: it no longer holds what the caller expected ({@link
   * WorkspaceBoundary#commitIfUnchanged}, {@link WorkspaceBoundary#deleteIfUnchanged}); {@code now}
   * is what it holds, observed through the same held parent right before the rename or unlink. A
   * staged file was removed.
   */
  record Changed(Observation now) implements WriteOutcome {}

  default boolean done() {
    return this instanceof Done;
  }
}
