package io.turndiff.boundary;

/** A workspace could not be opened, or its root is no longer the directory that was opened. */
public final class BoundaryException extends RuntimeException {

  public BoundaryException(String message) {
    super(message);
  }
}
