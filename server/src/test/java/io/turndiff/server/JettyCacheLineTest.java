package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The service's edge starts without the platform MBean server (and with it the flight recorder's
 * configuration) that Jetty would create to learn the width of a reference, and Jetty pads with the
 * number it would have found itself. Each side runs in a fresh JVM, since the MBean server and
 * Jetty's number live for a JVM's life.
 */
class JettyCacheLineTest {

  @Test
  void theEdgeStartsWithoutThePlatformMBeanServer() throws Exception {
    String[] edge = probe("edge").split(" ");

    assertEquals("0", edge[1], "MBean servers after the edge started");
  }

  @Test
  void jettyPadsWithTheNumberItWouldHaveFoundItself() throws Exception {
    String[] edge = probe("edge").split(" ");
    String[] jettyAlone = probe("jetty").split(" ");

    assertEquals("1", jettyAlone[1], "Jetty alone creates the MBean server to ask");
    assertEquals(jettyAlone[0], edge[0], "references per cache line");
  }

  /** Runs {@link JettyCacheLineProbe} with {@code mode} in a JVM of its own; what it printed. */
  private static String probe(String mode) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    JettyCacheLineProbe.class.getName(),
                    mode))
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    assertEquals(0, process.exitValue(), out);
    List<String> lines = out.strip().lines().toList();
    return lines.getLast();
  }
}
