package io.turndiff.capture.track;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a tracked workspace's index keeps of the files git ignores inside the directories it walks
 * (a {@code .env}, a log, a build output beside the sources). A directory git ignores as a whole
 * ({@code node_modules}, {@code target}) is never entered, whatever this says: it can hold millions
 * of files, and the agent's own tool edits still snapshot any file in it they name.
 */
public enum IgnoredFiles {
  /** Not indexed: a turn that deletes one records nothing of it (the behaviour before issue 24). */
  NONE,
  /**
   * Indexed with their stat and hash only: a change is recorded, but its content is not stored, so
   * a rewind cannot put it back (the default of a shared PostgreSQL store: a {@code .env} holds
   * secrets, and the store's readers are not only this user).
   */
  METADATA,
  /**
   * Indexed with their content up to {@link TrackingOptions#ignoredMaxBytes()} per file; a bigger
   * one is not indexed, and {@code status} names it (the default of a local SQLite store).
   */
  SMALL;

  /** The name the CLI, the API and the store spell it with. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static IgnoredFiles fromCode(String code) {
    return Arrays.stream(values())
        .filter(value -> value.code().equals(code))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "ignored files must be none, metadata or small, not " + code));
  }
}
