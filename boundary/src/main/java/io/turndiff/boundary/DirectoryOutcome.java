package io.turndiff.boundary;

/** What creating or removing a directory, or setting its mode, through the boundary did. */
public sealed interface DirectoryOutcome {

  /** Created, removed, or its mode set. */
  record Done() implements DirectoryOutcome {}

  /**
   * Nothing to do: the directory already existed (create), was already gone (remove), or already
   * had the mode asked for (mode).
   */
  record AlreadySo() implements DirectoryOutcome {}

  /** Not removed: it holds something. */
  record NotEmpty() implements DirectoryOutcome {}

  /**
   * Not changed: the directory's permission bits are neither those expected nor those asked for.
   */
  record Changed(int mode) implements DirectoryOutcome {}

  /**
   * Refused before anything changed: a file or a link is there, a parent is a link, a permission...
   */
  record Refused(String reason) implements DirectoryOutcome {}
}
