package io.turndiff.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The bench jar, {@code bench/target/turndiff-bench.jar}, run as {@code ./turndiff bench} runs it:
 * it carries JMH and the list of benchmarks its annotation processor made, and answers the
 * product's commands too.
 */
class BenchJarIT {

  private static Path jar() {
    String jar = System.getProperty("turndiff.bench.jar");
    if (jar == null) {
      throw new IllegalStateException("run by failsafe, which sets -Dturndiff.bench.jar");
    }
    return Path.of(jar);
  }

  private static CommandRun run(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                jar().toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("TURNDIFF_DB");
    return CommandRun.ofProcess(builder);
  }

  @Test
  void theBenchJarCarriesJmhAndItsBenchmarkList() throws Exception {
    try (JarFile jar = new JarFile(jar().toFile())) {
      assertEquals(
          BenchMain.class.getName(), jar.getManifest().getMainAttributes().getValue("Main-Class"));
      assertNotNull(jar.getEntry("org/openjdk/jmh/runner/Runner.class"));
      String benchmarks =
          new String(jar.getInputStream(jar.getEntry("META-INF/BenchmarkList")).readAllBytes());
      assertTrue(benchmarks.contains("io.turndiff.bench.jmh.BoundaryReadBenchmark"), benchmarks);
      assertTrue(benchmarks.contains("io.turndiff.bench.jmh.SnapshotCallBenchmark"), benchmarks);
      assertTrue(benchmarks.contains("io.turndiff.bench.jmh.HookCallBenchmark"), benchmarks);
      assertTrue(benchmarks.contains("io.turndiff.bench.jmh.HookTurnBenchmark"), benchmarks);
      assertTrue(benchmarks.contains("io.turndiff.bench.jmh.WatchedPromptBenchmark"), benchmarks);
      assertTrue(benchmarks.contains("io.turndiff.bench.jmh.SnapshotEventBenchmark"), benchmarks);
    }
  }

  @Test
  void itRunsTheBenchCommandsInPlaceOfThePlaceholder() throws Exception {
    CommandRun help = run("bench", "jmh", "--help").expect(0);
    assertTrue(help.out().contains("JMH microbenchmarks"), help.out());
    CommandRun refused = run("bench", "--turns", "0").expect(2);
    assertTrue(refused.err().contains("--turns must be positive"), refused.err());
  }

  @Test
  void benchHooksMeasuresTheHookScriptAgainstARunningService() throws Exception {
    // the script of this checkout, found beside the jar; the service started and stopped by it
    CommandRun run =
        run("bench", "hooks", "--calls", "5", "--warmup", "1", "--turns", "2", "--files", "20")
            .expect(0);
    assertTrue(run.out().contains("through bin/turndiff-hook (new process)"), run.out());
    // the hook client beside the script, when the build made it (the hooks module, with a C
    // compiler)
    Path checkout = jar().toAbsolutePath().getParent().getParent().getParent();
    if (Files.isExecutable(checkout.resolve("bin/turndiff-hook-client"))) {
      assertTrue(run.out().contains("through bin/turndiff-hook-client (new process)"), run.out());
      assertTrue(run.out().contains("the client: p50 "), run.out());
    }
    assertTrue(run.out().contains("direct HTTP"), run.out());
    assertTrue(run.err().contains("snapshots recorded"), run.err());
  }

  @Test
  void benchScaleDrivesWatchedTurnsThroughARunningServiceBesideGit() throws Exception {
    // a small tree: the rows are produced (each turn checked to record its 10 files), not timed
    JsonNode result =
        run(
                "bench",
                "scale",
                "--files",
                "1200",
                "--turns",
                "3",
                "--warmup",
                "1",
                "--idle",
                "1",
                "--json")
            .expect(0)
            .json();
    assertEquals(1200, result.get("tree").get("files").asInt());
    assertEquals(3, result.get("turns").asInt());
    assertTrue(result.get("turndiff_track_ms").asDouble() > 0);
    assertTrue(result.get("git_initial_commit_ms").asDouble() > 0);
    for (String operation :
        new String[] {"turndiff_begin", "turndiff_finish", "git_status", "git_add_all_commit"}) {
      assertTrue(
          result.get("operations_ms").get(operation).get("p50").asDouble() > 0,
          operation + " was measured");
    }
    JsonNode memory = result.get("service_memory_bytes");
    assertTrue(memory.get("resident_after_turns").asLong() > 1 << 20, memory.toString());
    assertTrue(memory.get("resident_after_idle").asLong() > 1 << 20, memory.toString());
    assertTrue(
        memory.get("peak").asLong() >= memory.get("resident_after_turns").asLong(),
        memory.toString());
    assertTrue(result.get("disk_bytes").get("turndiff_store").asLong() > 0);
    assertTrue(result.get("disk_bytes").get("shadow_git_gc").asLong() > 0);
    CommandRun refused = run("bench", "scale", "--files", "5");
    refused.expect(2);
    assertTrue(refused.err().contains("--files must be at least 10"), refused.err());
  }

  @Test
  void itAnswersTheProductsCommandsToo() throws Exception {
    CommandRun version = run("--version").expect(0);
    assertTrue(version.out().contains("turndiff"), version.out());
  }
}
