package io.turndiff.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * The most bytes a request's body may hold: a body declared larger is refused before a byte of it
 * is read, and one that turns out larger (chunked, with no length declared) is refused once the
 * limit is passed, so a client never makes the service hold more than the limit and a byte.
 */
record BodyLimit(int bytes) {

  BodyLimit {
    if (bytes < 0) {
      throw new IllegalArgumentException("a body limit is never negative: " + bytes);
    }
  }

  /** Refuses a body whose {@code Content-Length} is over the limit, before reading any of it. */
  void requireDeclaredWithin(Optional<String> contentLength) {
    if (contentLength.isPresent() && Long.parseLong(contentLength.get().strip()) > bytes) {
      throw new ApiError(
          413,
          "too_large",
          "the body is " + contentLength.get().strip() + " bytes, over the limit of " + shown());
    }
  }

  /**
   * The body, read to its end: one whose {@code Content-Length} was declared (and checked by {@link
   * #requireDeclaredWithin}) into an array of that size, where HTTP's framing ends it; one without
   * (chunked, or none at all, as a {@code GET} has) up to the limit and a byte.
   *
   * <p>Sized rather than buffered: {@link InputStream#readNBytes(int)} starts with a buffer of up
   * to 16 KiB whatever arrives, and for the limit's read that was most of what a request allocated
   * (a health check: about 16 of its 27 KiB, JFR's allocation samples on {@code bench http}).
   */
  byte[] read(InputStream in, Optional<String> contentLength) throws IOException {
    if (contentLength.isPresent()) {
      long declared = Long.parseLong(contentLength.get().strip());
      if (declared <= bytes) {
        return in.readNBytes((int) declared);
      }
    }
    return read(in);
  }

  /** A body whose length was not declared, read to its end (a chunked one up to the limit). */
  byte[] read(InputStream in) throws IOException {
    int first = in.read();
    if (first < 0) {
      return new byte[0];
    }
    byte[] rest = in.readNBytes(bytes);
    if (rest.length + 1 > bytes) {
      throw new ApiError(413, "too_large", "the body is over the limit of " + shown());
    }
    byte[] body = new byte[rest.length + 1];
    body[0] = (byte) first;
    System.arraycopy(rest, 0, body, 1, rest.length);
    return body;
  }

  /** The limit in bytes, in MiB too when it is a whole number of them. */
  private String shown() {
    return bytes + " bytes" + (bytes % (1 << 20) == 0 ? " (" + (bytes >> 20) + " MiB)" : "");
  }
}
