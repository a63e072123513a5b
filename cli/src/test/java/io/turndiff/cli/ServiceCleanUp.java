package io.turndiff.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.service.ProcessStart;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The end of a test that may leave per-user services running: every service recorded in the test
 * user's run directory ({@code $XDG_RUNTIME_DIR/turndiff}, a discovery file naming its pid and
 * start time) is sent SIGTERM, as {@code service stop} sends it, and SIGKILL if it has not ended
 * within 10 s, as {@code --force} then does; this returns once each has ended.
 *
 * <p>Before, each such test ended with {@code service stop --force --wait 10} run as a process: a
 * JVM started only to send that signal, about half a second of CPU per test (docs/build.md, "What
 * CI costs"), and started as well after a test that had stopped its service itself, where it found
 * nothing to do. No test is about that clean-up (nothing checks what it prints or how it exits);
 * the tests whose subject is stopping the service run {@code service stop} themselves.
 */
final class ServiceCleanUp {

  private static final Duration GRACEFUL = Duration.ofSeconds(10);

  private ServiceCleanUp() {}

  /** Stops every service recorded under {@code environment}'s {@code XDG_RUNTIME_DIR}. */
  static void stopServices(Map<String, String> environment)
      throws IOException, InterruptedException {
    String runtime = environment.get("XDG_RUNTIME_DIR");
    if (runtime == null) {
      throw new IllegalArgumentException("a test's services run in its own XDG_RUNTIME_DIR");
    }
    List<ProcessHandle> stopping = new ArrayList<>();
    for (ProcessHandle service : recorded(Path.of(runtime, "turndiff"))) {
      service.destroy();
      stopping.add(service);
    }
    for (ProcessHandle service : stopping) {
      if (!ended(service, GRACEFUL)) {
        service.destroyForcibly();
        ended(service, GRACEFUL);
      }
    }
  }

  /**
   * The live processes the discovery files in {@code runDirectory} name: the pid with the start
   * time recorded beside it, so that a pid reused since is never signalled.
   */
  private static List<ProcessHandle> recorded(Path runDirectory) throws IOException {
    List<ProcessHandle> services = new ArrayList<>();
    if (!Files.isDirectory(runDirectory, LinkOption.NOFOLLOW_LINKS)) {
      return services;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(runDirectory, "*.json")) {
      for (Path file : files) {
        JsonNode discovery;
        try {
          discovery = Json.mapper().readTree(Files.readAllBytes(file));
        } catch (JsonProcessingException notOne) {
          // as service stop takes it: not a record of a service (a test may have written it so)
          continue;
        }
        long pid = discovery.path("pid").asLong();
        JsonNode ticks = discovery.path("proc_start_ticks");
        OptionalLong now = ProcessStart.ticks(pid);
        if (pid > 0
            && now.isPresent()
            && (!ticks.isNumber() || ticks.asLong() == now.getAsLong())) {
          ProcessHandle.of(pid).ifPresent(services::add);
        }
      }
    }
    return services;
  }

  /** Whether {@code service} ended (an unreaped zombie counts) within {@code wait}. */
  private static boolean ended(ProcessHandle service, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (ProcessStart.running(service.pid())) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }
}
