package io.turndiff.rewind;

/**
 * Told which operation a rewind is, once it is stored and before its first write, so that a caller
 * can show the id (the command line prints it on stderr, the HTTP service sends it as a header): an
 * interrupted rewind can then be named, though running the same request again finds and resumes it
 * anyway.
 */
@FunctionalInterface
public interface RewindStarted {

  RewindStarted NONE = (operation, resumed) -> {};

  /**
   * @param resumed whether this run resumes an operation an earlier run left unfinished
   */
  void started(String operation, boolean resumed);
}
