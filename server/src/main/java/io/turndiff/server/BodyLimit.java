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

  /** The body, read to its end (a chunked one up to the limit). */
  byte[] read(InputStream in) throws IOException {
    byte[] body = in.readNBytes(bytes + 1);
    if (body.length > bytes) {
      throw new ApiError(413, "too_large", "the body is over the limit of " + shown());
    }
    return body;
  }

  /** The limit in bytes, in MiB too when it is a whole number of them. */
  private String shown() {
    return bytes + " bytes" + (bytes % (1 << 20) == 0 ? " (" + (bytes >> 20) + " MiB)" : "");
  }
}
