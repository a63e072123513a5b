package io.turndiff.boundary;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

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
   *
   * @param written what the staged file's own descriptor said once its content and mode were
   *     written ({@code fstat}): the inode, size, modification time and mode the target holds once
   *     it is renamed into place, since a rename changes none of them. Empty for a symlink, a file
   *     staged by a handle that cannot say, and a staged file named by a journal.
   */
  record Staged(WorkspacePath path, String temporaryName, Optional<FileMetadata> written)
      implements WriteOutcome {

    /** A staged file known by its name alone: one a journal names, to be discarded. */
    public Staged(WorkspacePath path, String temporaryName) {
      this(path, temporaryName, Optional.empty());
    }
  }

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
