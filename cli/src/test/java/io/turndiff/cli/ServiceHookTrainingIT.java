package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's own ahead-of-time cache, as the launcher trains it: {@link ServiceHookTraining} run
 * with the service's options and {@code -XX:AOTCacheOutput} ends with a cache written and every
 * turn it posted recorded, and a service started from that cache finds its hook path's classes in
 * it, which the commands' cache does not hold: no command runs a hook. (The methods' profiles the
 * cache keeps are not visible to a test; docs/performance.md, "The service trained on its hooks",
 * measures what they buy.)
 */
class ServiceHookTrainingIT {

  /**
   * The service's options as the checkout's launcher gives {@code serve} and its training: read
   * from the launcher ({@code service_heap_flags=(…)}), so that this test trains as it does.
   */
  private static List<String> serviceFlags() throws IOException {
    String launcher =
        Files.readString(Path.of("").toAbsolutePath().getParent().resolve("turndiff"));
    Matcher flags = Pattern.compile("(?m)^service_heap_flags=\\(([^)]*)\\)").matcher(launcher);
    assertTrue(flags.find(), "no service_heap_flags=(...) in the launcher");
    List<String> found = List.of(flags.group(1).trim().split("\\s+"));
    assertTrue(found.contains("-XX:G1PeriodicGCInterval=15000"), found.toString());
    return found;
  }

  /**
   * Classes only a hook's call loads, none of them in the commands' cache (a service started from
   * that one loads each from the jar, if at all): a hook's reading and its outcome, a patch's
   * paths, the prompt's note, a shell call, the watcher's state between turns.
   */
  static final List<String> HOOK_PATH_CLASSES =
      List.of(
          "io.turndiff.hooks.HookCall",
          "io.turndiff.hooks.HookOutcome",
          "io.turndiff.hooks.ApplyPatchPaths",
          "io.turndiff.hooks.PromptNote",
          "io.turndiff.capture.ShellCall",
          "io.turndiff.capture.track.Watching$State");

  private static final long TRAINING_LIMIT_SECONDS = 300;

  @TempDir Path temp;

  @Test
  void theTrainingRecordsItsTurnsAndAServiceFindsItsHookPathInTheCache() throws Exception {
    Path cache = temp.resolve("turndiff-service.aot");
    Path store = temp.resolve("training.db");

    train(cache, store);

    assertTrue(Files.size(cache) > 0, "the cache was written");
    for (String session : List.of("codex:training", "claude-code:training")) {
      JsonNode turns =
          StoreCommands.run(store, "turns", "--session", session).expect(0).json().get("turns");
      List<String> states = new ArrayList<>();
      // each turn finished with its three files: the edit snapshotted before it, the shell
      // call's, the one written with no hook
      turns.forEach(
          turn ->
              states.add(
                  turn.get("kind").asText()
                      + " "
                      + turn.get("state").asText()
                      + " "
                      + turn.get("files").asInt()));
      assertEquals(ServiceHookTraining.TURNS / 2, states.size(), turns.toString());
      assertTrue(states.stream().allMatch("agent finished 3"::equals), states.toString());
    }

    ServeClassLog log = serveFrom(cache);
    for (String name : HOOK_PATH_CLASSES) {
      assertEquals(
          name + " source: shared objects file", log.source(name), "where " + name + " came from");
    }
  }

  /** Runs the training as the launcher does, in its own temporary folder; fails if it failed. */
  private void train(Path cache, Path store) throws Exception {
    Path folder = Files.createDirectory(temp.resolve("training"));
    Path log = temp.resolve("training.log");
    Process training =
        serviceJvm(
                List.of(
                    "-Djava.io.tmpdir=" + folder,
                    "-XX:AOTCacheOutput=" + cache,
                    "-Xlog:aot=warning",
                    "-cp",
                    CliProcess.jar().toString(),
                    ServiceHookTraining.class.getName(),
                    store.toString()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    training.getOutputStream().close();
    if (!training.waitFor(TRAINING_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      training.descendants().forEach(ProcessHandle::destroyForcibly);
      training.destroyForcibly();
      training.waitFor();
    }
    assertEquals(0, training.exitValue(), Files.readString(log));
  }

  /** The class log of {@code serve} started from {@code cache} as the launcher starts it. */
  private ServeClassLog serveFrom(Path cache) throws Exception {
    Path classLog = temp.resolve("classes.log");
    Path run = Files.createDirectory(temp.resolve("run"));
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "-XX:AOTCache=" + cache,
                "-Xlog:class+load=info:file=" + classLog,
                "-jar",
                CliProcess.jar().toString()));
    arguments.addAll(ServeClassLog.serveArguments(temp.resolve("store/turndiff.db"), run));
    return ServeClassLog.of(serviceJvm(arguments), classLog);
  }

  /**
   * This JVM's {@code java} with the service's options, then {@code arguments}, in an environment
   * without the test run's {@code TURNDIFF_*}.
   */
  private static ProcessBuilder serviceJvm(List<String> arguments) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(serviceFlags());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("TURNDIFF_"));
    return builder;
  }
}
