package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A user whose every folder turndiff reads or writes is in a temp dir — {@code HOME}, the XDG data,
 * state, config and runtime folders, Codex's {@code CODEX_HOME} — with the checkout as {@code
 * TURNDIFF_HOME}, and the packaged jar run as that user: none of the test JVM's own {@code XDG_*},
 * {@code TURNDIFF_*} or {@code CODEX_HOME} reaches the process, so a test never meets the real
 * user's settings, store or services, nor another test's.
 */
final class UserSandbox {

  private final Path home;
  private final Path data;
  private final Path state;
  private final Path codexHome;
  private final Map<String, String> environment = new HashMap<>();
  private final List<Long> services = new ArrayList<>();

  private UserSandbox(Path temp) throws IOException {
    home = Files.createDirectories(temp.resolve("home"));
    data = temp.resolve("data");
    state = temp.resolve("state");
    codexHome = temp.resolve("codex-home");
    environment.put("HOME", home.toString());
    environment.put("XDG_DATA_HOME", data.toString());
    environment.put("XDG_STATE_HOME", state.toString());
    environment.put("XDG_CONFIG_HOME", temp.resolve("config").toString());
    environment.put("XDG_RUNTIME_DIR", Files.createDirectories(temp.resolve("run")).toString());
    environment.put("CODEX_HOME", codexHome.toString());
    environment.put("TURNDIFF_HOME", checkout().toString());
  }

  /** The user's folders under {@code temp} ({@code home/}, {@code data/}, {@code state/}…). */
  static UserSandbox in(Path temp) throws IOException {
    return new UserSandbox(temp);
  }

  /** The checkout the jar was built in: {@code <checkout>/cli/target/turndiff.jar}. */
  static Path checkout() {
    return CliProcess.jar().toAbsolutePath().getParent().getParent().getParent();
  }

  Path home() {
    return home;
  }

  /** {@code XDG_DATA_HOME}, where the default store is; not made until turndiff makes it. */
  Path data() {
    return data;
  }

  /** {@code XDG_STATE_HOME}, where the hooks' record and backups go. */
  Path state() {
    return state;
  }

  Path codexHome() {
    return codexHome;
  }

  /** The user's environment, which a test may change (a variable set, or taken away). */
  Map<String, String> environment() {
    return environment;
  }

  /** {@code turndiff ARGS} run as this user in {@code directory} (null: the jar's folder). */
  CommandRun run(Path directory, String... args) throws IOException, InterruptedException {
    ProcessBuilder builder = CliProcess.builder(Map.of(), args);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    builder
        .environment()
        .keySet()
        .removeIf(
            name ->
                name.startsWith("XDG_")
                    || name.startsWith("TURNDIFF_")
                    || name.equals("CODEX_HOME"));
    builder.environment().putAll(environment);
    return CommandRun.ofProcess(builder);
  }

  /**
   * {@code turndiff [STORE_OPTIONS] service start} as this user; its pid, which {@link
   * #killServices} kills.
   */
  long startService(String... storeOptions) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of(storeOptions));
    args.addAll(List.of("service", "start"));
    long pid = run(null, args.toArray(String[]::new)).expect(0).json().get("pid").asLong();
    services.add(pid);
    return pid;
  }

  /** Kills (SIGKILL) every service {@link #startService} started that still runs. */
  void killServices() {
    services.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  /**
   * {@code turndiff hooks install --runtime RUNTIME --workspace WORKSPACE --no-track} as this user.
   */
  CommandRun installWorkspaceHooks(String runtime, Path workspace)
      throws IOException, InterruptedException {
    return installWorkspaceHooksIn(null, runtime, workspace);
  }

  /** {@link #installWorkspaceHooks} run in {@code directory} (null: the jar's folder). */
  CommandRun installWorkspaceHooksIn(Path directory, String runtime, Path workspace)
      throws IOException, InterruptedException {
    return run(
        directory,
        "hooks",
        "install",
        "--runtime",
        runtime,
        "--workspace",
        workspace.toString(),
        "--no-track");
  }
}
