package io.turndiff.boundary;

import io.turndiff.model.WorkspacePath;
import java.util.Optional;
import java.util.Set;

/** What a scan of the workspace asks and tells its caller, directory by directory. */
public interface ScanVisitor {

  /** What to do with a directory found in the walk. */
  enum Descend {
    /** List it and walk on into it. */
    ENTER,
    /** Ignored: never listed, nothing under it is looked at. */
    IGNORE,
    /** Left out (a budget): never listed, reported as left out. */
    LEAVE_OUT
  }

  /**
   * A directory was listed ({@code empty} for the root), before any of its names is handed out: the
   * visitor may read the files named {@code interesting} it asked for (its ignore files) that are
   * present.
   */
  void entering(Optional<WorkspacePath> directory, Set<String> interestingPresent);

  /** Names the visitor wants to know about in each directory before its entries (ignore files). */
  default Set<String> interesting() {
    return Set.of();
  }

  Descend directory(WorkspacePath directory);

  /** A directory the walk enters (after {@link #directory} said so), with its permission bits. */
  default void entered(WorkspacePath directory, int mode) {}

  /** Whether a non-directory name is ignored (an ignored name is never read, only listed). */
  boolean ignored(WorkspacePath path);

  /**
   * A name that is not a directory the scan entered: a file, link, special file, or another mount.
   */
  void found(ScannedEntry entry);

  /**
   * A directory that could not be listed (it changed into a link meanwhile, a permission error...).
   */
  void unlisted(WorkspacePath directory, String why);
}
