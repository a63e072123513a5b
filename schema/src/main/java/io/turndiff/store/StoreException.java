package io.turndiff.store;

/** The store could not be opened or used; the message names the file or the record. */
public final class StoreException extends RuntimeException {

  /**
   * What kind of trouble, so that a caller can tell a store that cannot be used from a failed
   * request.
   */
  public enum Problem {
    /**
     * Not a turndiff store, or its pages are damaged: nothing is written to it; it needs a human.
     */
    DAMAGED,
    /**
     * The store (or its folder) cannot be written: it answers queries, nothing can be recorded in
     * it.
     */
    READ_ONLY,
    /**
     * Another process held the store's write lock for longer than the busy timeout; trying again
     * may work.
     */
    BUSY,
    /** Anything else: a missing record, an I/O error, a failed migration. */
    OTHER
  }

  private final Problem problem;

  public StoreException(String message) {
    this(Problem.OTHER, message, null);
  }

  public StoreException(String message, Throwable cause) {
    this(Problem.OTHER, message, cause);
  }

  public StoreException(Problem problem, String message, Throwable cause) {
    super(message, cause);
    this.problem = problem;
  }

  public Problem problem() {
    return problem;
  }
}
