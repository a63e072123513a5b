package io.turndiff.boundary;

/** What creating or removing a directory through the boundary did. */
public sealed interface DirectoryOutcome {

  /** Created, or removed. */
  record Done() implements DirectoryOutcome {
  }

  /** Nothing to do: the directory already existed (create), or was already gone (remove). */
  record AlreadySo() implements DirectoryOutcome {
  }

  /** Not removed: it holds something. */
  record NotEmpty() implements DirectoryOutcome {
  }

  /** Refused before anything changed: a file or a link is there, a parent is a link, a permission... */
  record Refused(String reason) implements DirectoryOutcome {
  }
}
