package io.turndiff.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The store, run directory and home of a hooked runtime's end-to-end test, all in its temp dir, as
 * the environment every {@code turndiff} process of the test gets: the per-user service it starts
 * and the hooks find is the test's own, never a user's or another test's.
 */
final class HookTestStore implements AutoCloseable {

  private final Path temp;
  private final Path database;
  private final Map<String, String> env = new HashMap<>();

  private HookTestStore(Path temp) {
    this.temp = temp;
    this.database = temp.resolve("store/turndiff.db");
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.resolve("home").toString());
  }

  /** The test store under {@code temp} (a JUnit {@code @TempDir}). */
  static HookTestStore in(Path temp) {
    return new HookTestStore(temp);
  }

  Path database() {
    return database;
  }

  /** The CLI's environment; a test adds what its runtime's install reads ({@code CODEX_HOME}). */
  Map<String, String> env() {
    return env;
  }

  /**
   * The runtime's environment before its own variables: the CLI's, and {@code TURNDIFF_HOME} with a
   * launcher of the packaged jar, so that a hook finding no service starts this one.
   */
  Map<String, String> runtimeBase() throws Exception {
    Map<String, String> base = new HashMap<>(env);
    base.put("TURNDIFF_HOME", CliProcess.launcherHome(temp.resolve("turndiff-home")).toString());
    return base;
  }

  /**
   * Starts the per-user service of the test store as a hook finding none does: through the launcher
   * under {@code TURNDIFF_HOME} ({@link #runtimeBase}), so that the service starts as a release's
   * does, from the start-up cache with the full JIT, not from nothing.
   */
  void startService() throws Exception {
    CliProcess.run(runtimeBase(), "service", "start").expect(0);
  }

  /**
   * Stops the service whatever it is doing: the test's {@code @AfterEach}. By signal to the pid its
   * discovery file records ({@link ServiceCleanUp}), not by a {@code service stop --force} process:
   * no test of a runtime is about how its service stops, and that process was a JVM started only to
   * send the signal, after every test of every runtime class.
   */
  void stopService() throws Exception {
    ServiceCleanUp.stopServices(env);
  }

  /** Stops the service, as {@link #stopService} does: for a test that holds the store in a try. */
  @Override
  public void close() throws Exception {
    stopService();
  }

  /** {@code hooks install --runtime R} with the arguments given, which must succeed. */
  void installHooks(String runtime, String... scope) throws Exception {
    String[] command = new String[4 + scope.length];
    command[0] = "hooks";
    command[1] = "install";
    command[2] = "--runtime";
    command[3] = runtime;
    System.arraycopy(scope, 0, command, 4, scope.length);
    CliProcess.run(env, command).expect(0);
  }

  /**
   * The hook command {@code hooks install} writes for {@code runtime} from this checkout: the hook
   * client when the build made it (it does with a C compiler), else the script.
   */
  static String hookCommand(String runtime) {
    Path client = repository().resolve("bin/turndiff-hook-client");
    Path hook = Files.isExecutable(client) ? client : repository().resolve("bin/turndiff-hook");
    return "'" + hook + "' " + runtime;
  }

  /** The checkout, where {@code bin/turndiff-hook} and the kits are: cli/target/turndiff.jar. */
  static Path repository() {
    return CliProcess.jar().toAbsolutePath().getParent().getParent().getParent();
  }
}
