package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    ServeClassLog log =
        ServeClassLog.of(
            CliProcess.builder(
                CliProcess.jar(),
                new String[0],
                List.of("-Xlog:class+load=info:file=" + classLog),
                Map.of(),
                ServeClassLog.serveArguments(temp.resolve("store/turndiff.db"), run)
                    .toArray(String[]::new)),
            classLog);
    for (String name : SERVICE_CLASSES) {
      assertEquals(
          name + " source: shared objects file", log.source(name), "where " + name + " came from");
    }
    // what only a hook loads is not in it: the service's own cache, trained on its hooks, is
    // (ServiceHookTrainingIT)
    for (String name : ServiceHookTrainingIT.HOOK_PATH_CLASSES) {
      assertNotEquals(
          name + " source: shared objects file", log.source(name), "where " + name + " came from");
    }
  }
}
