package io.turndiff.boundary;

/** What a write, symlink creation or delete through the boundary did. */
public sealed interface WriteOutcome {

  /** The name now holds what was asked, durably (file and directory synced). */
  record Done() implements WriteOutcome {
  }

  /** Refused before anything was changed: a parent is a symlink, a file or another mount; and so on. */
  record Refused(String reason) implements WriteOutcome {
  }

  default boolean done() {
    return this instanceof Done;
  }
}
