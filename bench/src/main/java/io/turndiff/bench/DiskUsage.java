package io.turndiff.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** How much a directory or file takes: its bytes, and its disk blocks as {@code du} counts them. */
final class DiskUsage {

  private DiskUsage() {}

  /**
   * {@code du -sk}, in bytes: what the files occupy on disk (a small git object still takes a
   * block).
   */
  static long diskBytes(Path... paths) throws IOException, InterruptedException {
    long total = 0;
    for (Path path : paths) {
      if (!Files.exists(path)) {
        continue;
      }
      Process du =
          new ProcessBuilder("du", "-sk", path.toString()).redirectErrorStream(true).start();
      String output =
          new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      du.waitFor(1, TimeUnit.MINUTES);
      total += Long.parseLong(output.split("\\s+", 2)[0]) * 1024;
    }
    return total;
  }
}
