package io.turndiff.rewind;

import io.turndiff.model.WorkspacePath;
import java.util.Map;

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

  /**
   * Told, before a rewind, that an earlier finished rewind of the workspace had writes a power loss
   * took back, and what became of each ({@code redone: …} or {@code left: …}); its receipt says the
   * same in its notes.
   */
  default void recovered(String operation, Map<WorkspacePath, String> paths) {}
}
