package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ahead-of-time cache a command starts from holds the service's classes too: {@code serve}
 * started from it, as {@code service start} spawns the daemon with the cache the command started
 * from, finds Jetty's server and the service's own edge, gates and spool in the cache ("shared
 * objects file" in the JVM's class log) rather than reading them from the jar. The cache is the one
 * {@link StartupCache} trains on {@link AotTraining}, the launcher's workload; before the training
 * ran the service, every one of these came from the jar.
 */
class ServiceStartupCacheIT {

  /** Classes of each layer a service's start goes through, before it answers its first call. */
  private static final List<String> SERVICE_CLASSES =
      List.of(
          "org.eclipse.jetty.server.Server",
          "org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector",
          "io.turndiff.server.HttpService",
          "io.turndiff.server.Edge",
          "io.turndiff.server.HookEndpoints",
          "io.turndiff.cli.SpooledHookCalls",
          "io.turndiff.service.DaemonFiles");

  @TempDir Path temp;

  @Test
  void aServiceStartedFromTheCommandsCacheFindsItsClassesInIt() throws Exception {
    Path classLog = temp.resolve("classes.log");
    Path run = Files.createDirectory(temp.resolve("run"));
    Path store = temp.resolve("store/turndiff.db");
    Process serve =
        CliProcess.builder(
                CliProcess.jar(),
                new String[0],
                List.of("-Xlog:class+load=info:file=" + classLog),
                Map.of(),
                "serve",
                "--db",
                store.toString(),
                "--daemon",
                "--discovery",
                run.resolve("d.json").toString(),
                "--token-file",
                run.resolve("t.token").toString(),
                "--port",
                "0",
                "--socket",
                run.resolve("t.sock").toString())
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
      // serve prints one JSON line once it listens and its files are published
      String line = out.readLine();
      while (line != null && !line.startsWith("{\"url\"")) {
        line = out.readLine();
      }
      assertTrue(line != null, "serve did not say it started");
    } finally {
      serve.destroy();
      serve.waitFor(60, TimeUnit.SECONDS);
    }

    List<String> log = Files.readAllLines(classLog, StandardCharsets.UTF_8);
    for (String name : SERVICE_CLASSES) {
      String line =
          log.stream()
              .filter(entry -> entry.contains(" " + name + " source:"))
              .findFirst()
              .orElse(name + " not loaded");
      assertEquals(
          name + " source: shared objects file",
          line.substring(line.indexOf(name)),
          "where " + name + " came from");
    }
  }
}
