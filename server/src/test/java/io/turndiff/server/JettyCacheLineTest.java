package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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

  /** The modules a release's runtime is linked from (dist/pom.xml, {@code release.modules}). */
  static final String RELEASE_MODULES =
      "java.base,java.sql,java.net.http,jdk.net,java.naming,java.management,java.security.jgss";

  @Test
  void theEdgeStartsWithoutThePlatformMBeanServer() throws Exception {
    String[] edge = probe(List.of(), "edge").split(" ");

    assertEquals("0", edge[1], "MBean servers after the edge started");
  }

  @Test
  void jettyPadsWithTheNumberItWouldHaveFoundItself() throws Exception {
    String[] edge = probe(List.of(), "edge").split(" ");
    String[] jettyAlone = probe(List.of(), "jetty").split(" ");

    assertEquals("1", jettyAlone[1], "Jetty alone creates the MBean server to ask");
    assertEquals(jettyAlone[0], edge[0], "references per cache line");
  }

  /**
   * A release's runtime is linked without {@code jdk.management} (dist/pom.xml's {@code
   * release.modules}): the edge still starts, without the MBean server, and pads as Jetty does
   * there.
   */
  @Test
  void inARuntimeWithoutJdkManagementTheEdgeStartsAndPadsAsJettyWould() throws Exception {
    List<String> release = List.of("--limit-modules", RELEASE_MODULES);
    String[] edge = probe(release, "edge").split(" ");
    String[] jettyAlone = probe(release, "jetty").split(" ");

    assertEquals("0", edge[1], "MBean servers after the edge started");
    assertEquals(jettyAlone[0], edge[0], "references per cache line");
  }

  /** Runs {@link JettyCacheLineProbe} with {@code mode} in a JVM of its own; what it printed. */
  private static String probe(List<String> jvmOptions, String mode)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            JettyCacheLineProbe.class.getName(),
            mode));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
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
