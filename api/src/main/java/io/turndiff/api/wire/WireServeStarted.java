package io.turndiff.api.wire;

import java.nio.file.Path;

/** The line {@code turndiff serve} prints once it listens. */
public record WireServeStarted(String url, String tokenFile, String store, long pid) {

  public static WireServeStarted of(String url, Path tokenFile, Path store, long pid) {
    return new WireServeStarted(url, tokenFile.toString(), store.toString(), pid);
  }
}
