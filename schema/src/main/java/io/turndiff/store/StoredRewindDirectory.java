package io.turndiff.store;

import io.turndiff.model.WorkspacePath;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a rewind does to one directory, and where that stands.
 *
 * @param mode for a directory it creates, the permission bits it gets (empty: the default of {@code
 *     mkdir}); for one it removes, the bits it had; for one whose mode it puts back, the bits it
 *     sets
 */
public record StoredRewindDirectory(
    long id,
    WorkspacePath path,
    Action action,
    OptionalInt mode,
    Status status,
    Optional<String> reason,
    Optional<String> detail) {

  /**
   * Create a directory a rewound turn removed or a restored file needs; remove one a turn created;
   * set back the mode of one a turn changed the mode of.
   */
  public enum Action {
    CREATE,
    REMOVE,
    MODE;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Planned (journaled before it is done); done; skipped (with a reason). */
  public enum Status {
    PLANNED,
    DONE,
    SKIPPED;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
