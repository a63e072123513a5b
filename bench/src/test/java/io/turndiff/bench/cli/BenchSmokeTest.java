package io.turndiff.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import org.junit.jupiter.api.Test;

/**
 * Smoke runs of the benchmarks with tiny parameters, so that they cannot rot (the real runs are not
 * part of the test suite: see the README's Performance section). They assert the shape of the
 * figures, not their size.
 */
class BenchSmokeTest {

  @Test
  void theTurnBenchRunsAgainstShadowGitAndReportsItsFigures() {
    JsonNode result =
        CommandRun.inProcess(
                BenchMain::run,
                "bench",
                "--files",
                "80",
                "--turn-files",
                "5",
                "--turns",
                "3",
                "--warmup",
                "1",
                "--json")
            .expect(0)
            .json();
    assertEquals(80, result.get("tree").get("files").asInt());
    assertEquals(5, result.get("turn").get("edited").asInt());
    assertEquals(1, result.get("turn").get("created").asInt());
    assertEquals(0, result.get("turn").get("deleted").asInt());
    JsonNode operations = result.get("operations_ms");
    for (String operation :
        new String[] {
          "turndiff_capture",
          "turndiff_snapshot_call",
          "turndiff_finish",
          "git_add_all_commit",
          "git_add_touched_commit",
          "floor_read_sha256",
          "turndiff_rewind",
          "git_checkout_rewind",
          "turndiff_shell_call_attributed",
          "turndiff_shell_call_attributed_10_files",
          "git_commit_all_per_shell_call_10_files"
        }) {
      assertTrue(
          operations.get(operation).get("median").asDouble() > 0, operation + " was measured");
    }
    assertEquals(3, operations.get("turndiff_capture").get("samples").asInt());
    assertTrue(result.get("ratios").get("git_add_all_over_turndiff_capture").asDouble() > 0);
    assertTrue(result.get("disk_bytes").get("turndiff_store").asLong() > 0);
    assertTrue(result.get("disk_bytes").get("shadow_git").asLong() > 0);
  }

  @Test
  void theShellCallBenchRunsAloneOnATreeOfSmallFilesBesideGitsCommits() {
    JsonNode result =
        CommandRun.inProcess(
                BenchMain::run,
                "bench",
                "shell-calls",
                "--files",
                "1200",
                "--rounds",
                "3",
                "--warmup",
                "1",
                "--json")
            .expect(0)
            .json();
    assertEquals(1200, result.get("tree").get("files").asInt());
    assertTrue(result.get("tree").get("bytes").asLong() > 1200 * 100L);
    assertEquals(3, result.get("rounds").asInt());
    assertTrue(result.get("git_initial_commit_ms").asDouble() > 0);
    assertTrue(result.get("turndiff_track_ms").asDouble() > 0);
    JsonNode operations = result.get("operations_ms");
    for (String operation :
        new String[] {
          "turndiff_shell_call_attributed",
          "git_commit_all_per_shell_call",
          "turndiff_shell_call_attributed_10_files",
          "git_commit_all_per_shell_call_10_files"
        }) {
      assertTrue(operations.get(operation).get("p50").asDouble() > 0, operation + " was measured");
    }
    assertTrue(result.get("ratios").get("git_commit_all_over_shell_call").asDouble() > 0);
    assertTrue(result.get("ratios").get("git_commit_all_over_shell_call_10_files").asDouble() > 0);
  }

  @Test
  void theHttpBenchMeasuresSnapshotCallsOverLoopback() {
    JsonNode result =
        CommandRun.inProcess(
                BenchMain::run, "bench", "http", "--calls", "20", "--warmup", "5", "--json")
            .expect(0)
            .json();
    assertEquals(20, result.get("calls").asInt());
    assertTrue(result.get("http_snapshot_us").get("p50").asDouble() > 0);
    assertTrue(result.get("in_process_snapshot_us").get("p99").asDouble() > 0);
    assertTrue(result.get("http_over_in_process_p50").asDouble() > 0);
    for (String row :
        new String[] {
          "tcp_snapshot_us",
          "tcp_health_us",
          "socket_snapshot_us",
          "socket_connection_per_call_snapshot_us",
          "socket_connection_per_call_health_us",
          "socket_health_back_to_back_us"
        }) {
      assertTrue(result.get(row).get("p50").asDouble() > 0, row);
    }
    // the service's side of a call, counted: a health check allocates something, a snapshot more
    long health = result.get("service_cost_socket_health_bytes").asLong();
    assertTrue(health > 0, "a health check allocates");
    assertTrue(result.get("service_cost_socket_snapshot_bytes").asLong() > health);
    assertTrue(result.get("service_cost_socket_snapshot_cpu_us").asDouble() > 0);
  }

  @Test
  void badParametersAreUsageErrors() {
    CommandRun.inProcess(BenchMain::run, "bench", "--turns", "0").expect(2);
    CommandRun.inProcess(BenchMain::run, "bench", "shell-calls", "--rounds", "0").expect(2);
  }
}
