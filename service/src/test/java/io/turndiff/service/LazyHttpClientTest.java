package io.turndiff.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A probe that finds no discovery file builds no HTTP client: {@code service start} probes first,
 * before it spawns the daemon, and a client built there cost that start 0.22–0.26 s of CPU before
 * the daemon's JVM even began (docs/service.md, "Cold start"); {@link
 * ServiceProbe#prepareClient()}, which a start calls once the daemon is spawned, builds it. Run in
 * a JVM of its own ({@link LazyHttpClientProbe}): a client, once built, lives for the JVM's life.
 */
class LazyHttpClientTest {

  @Test
  void aProbeThatFindsNothingBuildsNoClientUntilOneIsPrepared(@TempDir Path run) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LazyHttpClientProbe.class.getName(),
                run.toString())
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    assertEquals(0, process.exitValue(), out);

    assertEquals(List.of("Nothing 0", "prepared 1"), out.strip().lines().toList(), out);
  }
}
