package io.turndiff.store;

/** The store could not be opened or used; the message names the file or the record. */
public final class StoreException extends RuntimeException {

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
