package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Path;
import java.util.Map;

/**
 * The setting of the ITs of issue 21, item 0 (a runtime at work in a workspace with none of its
 * hooks arriving, seen from outside the hooks: {@link SessionFileEvidenceIT}, {@link
 * ProcessEvidenceIT}): the test's store with its per-user service started, workspaces whose
 * runtime's hooks are installed or were installed and taken out again, and what {@code hooks
 * status} and {@code doctor} say about one of them. A test makes it in its {@code @BeforeEach} and
 * closes it in its {@code @AfterEach}, which stops the service.
 */
final class EvidenceFixture implements AutoCloseable {

  private final Path temp;
  private final HookTestStore store;

  private EvidenceFixture(Path temp, HookTestStore store) {
    this.temp = temp;
    this.store = store;
  }

  /** The test store under {@code temp} (a JUnit {@code @TempDir}), its service started. */
  static EvidenceFixture started(Path temp) throws Exception {
    HookTestStore store = HookTestStore.in(temp);
    store.startService();
    return new EvidenceFixture(temp, store);
  }

  HookTestStore store() {
    return store;
  }

  /** The CLI's environment, which a test may add to ({@code CODEX_HOME}). */
  Map<String, String> env() {
    return store.env();
  }

  /**
   * A workspace {@code name} in the temp dir with one file, by its real path: the name {@code
   * /proc} gives a process working in it.
   */
  Path workspace(String name) throws Exception {
    return TestWorkspace.in(temp.resolve(name)).file("notes.txt", "n\n").root().toRealPath();
  }

  /** {@code workspace} with the hooks of {@code runtime} installed. */
  Path hooked(String runtime, Path workspace) throws Exception {
    store.installHooks(runtime, "--workspace", workspace.toString());
    return workspace;
  }

  /**
   * {@code workspace} with the hooks of {@code runtime} installed and taken out again ({@code hooks
   * uninstall}): the runtime finds none there, and status knows the workspace.
   */
  Path unhooked(String runtime, Path workspace) throws Exception {
    hooked(runtime, workspace);
    CliProcess.run(
            env(), "hooks", "uninstall", "--runtime", runtime, "--workspace", workspace.toString())
        .expect(0);
    return workspace;
  }

  /** {@code hooks status --json} in {@code workspace} with {@code cliEnv}, which must succeed. */
  static JsonNode status(Map<String, String> cliEnv, Path workspace) throws Exception {
    CommandRun status =
        CommandRun.ofProcess(
            CliProcess.builder(
                cliEnv, "hooks", "status", "--json", "--workspace", workspace.toString()));
    assertEquals(0, status.exitCode(), status.err());
    return Json.mapper().readTree(status.out());
  }

  /**
   * {@code hooks status} in {@code workspace} prints {@code WARNING: warning…}, and {@code doctor}
   * has the check {@code check} with the verdict {@code warn}, finding {@code warning…}.
   *
   * @return what {@code hooks status} printed, for what it says to do
   */
  static String assertWarned(
      Map<String, String> cliEnv, Path workspace, String warning, String check) throws Exception {
    CommandRun text =
        CommandRun.ofProcess(
            CliProcess.builder(cliEnv, "hooks", "status", "--workspace", workspace.toString()));
    assertTrue(text.out().contains("WARNING: " + warning), text.out());

    CommandRun doctor =
        CommandRun.ofProcess(
            CliProcess.builder(cliEnv, "doctor", "--json", "--workspace", workspace.toString()));
    boolean warned = false;
    for (JsonNode each : Json.mapper().readTree(doctor.out()).get("checks")) {
      if (each.get("name").asText().equals(check)) {
        warned = each.get("found").asText().startsWith(warning);
        assertEquals("warn", each.get("verdict").asText().toLowerCase(), each.toString());
      }
    }
    assertTrue(warned, doctor.out());
    return text.out();
  }

  /** Stops the service whatever it is doing. */
  @Override
  public void close() throws Exception {
    store.stopService();
  }
}
