package io.turndiff.boundary;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A workspace root named by its path, as the file system resolves that name now: for finding a
 * stored workspace by the real path of a name a client gives. Nothing is opened; a root is only
 * ever read through a {@link WorkspaceBoundary}.
 */
public final class WorkspaceRoot {

  private WorkspaceRoot() {}

  /**
   * The real path {@code absolute} names now, or empty when it cannot be resolved (gone,
   * unreadable).
   */
  public static Optional<Path> real(Path absolute) {
    try {
      return Optional.of(absolute.toRealPath());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
