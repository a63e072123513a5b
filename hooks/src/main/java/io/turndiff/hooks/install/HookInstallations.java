package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.api.wire.WireProcessEvidence;
import io.turndiff.api.wire.WireSessionFileEvidence;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnEnding;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What {@code turndiff hooks status} finds: per runtime and scope, turndiff's hooks in the
 * runtime's settings file (are they there, are they what install writes today, does the script they
 * name exist, does Codex trust them, is there install's record to undo them), then the workspace
 * and the service.
 */
public final class HookInstallations {

  private final UserDirectories user;

  public HookInstallations(UserDirectories user) {
    this.user = user;
  }

  /**
   * @param workspace the workspace asked about
   * @param here the directory status runs in, where a runtime started would run which hooks
   * @param store the store the hooks' calls go to from this environment
   * @param service whether that store's service runs, as the command line found it
   */
  public WireHooksStatus status(
      Optional<HookRuntime> only,
      Path workspace,
      Path here,
      String store,
      WireHooksStatus.Service service,
      Supplier<Boolean> tracked)
      throws IOException {
    HookLedger ledger = HookLedger.load(HookLedger.file(user));
    List<WireHooksStatus.Installation> installations = new ArrayList<>();
    try (SettingsFiles inWorkspace = SettingsFiles.workspace(workspace);
        SettingsFiles ofUser = SettingsFiles.user()) {
      for (HookRuntime runtime : HookRuntime.values()) {
        if (only.isPresent() && only.get() != runtime) {
          continue;
        }
        for (HookScope scope : HookScope.values()) {
          Path scopeWorkspace = scope == HookScope.WORKSPACE ? workspace : null;
          Path file = user.settingsFile(runtime, scope, workspace);
          boolean recorded =
              ledger.find(runtime, scope, scopeWorkspace).flatMap(i -> i.file(file)).isPresent();
          SettingsFiles files = scope == HookScope.WORKSPACE ? inWorkspace : ofUser;
          installations.add(
              runtime == HookRuntime.OPENCODE
                  ? plugin(files, scope, file, recorded)
                  : hooks(files, new Place(runtime, scope, workspace, file), recorded));
        }
      }
    }
    return new WireHooksStatus(
        installations,
        store,
        new WireHooksStatus.Workspace(workspace.toString(), tracked.get()),
        service,
        new WireHooksStatus.Here(here.toString(), loadings(installations, ledger, workspace, here)),
        List.of());
  }

  /**
   * Each installation a runtime started in {@code here} would meet: the user's, which runs in every
   * directory, and those of the workspaces {@code here} lies in (the one asked about, and those
   * install recorded), which run or not as {@link HookLoading} says.
   */
  private static List<WireHooksStatus.Loading> loadings(
      List<WireHooksStatus.Installation> installations,
      HookLedger ledger,
      Path workspace,
      Path here) {
    List<WireHooksStatus.Loading> loadings = new ArrayList<>();
    for (WireHooksStatus.Installation installation : installations) {
      HookRuntime runtime = HookRuntime.of(installation.runtime());
      if (installation.scope().equals(HookScope.USER.label())) {
        if (installation.installed()) {
          loadings.add(
              new WireHooksStatus.Loading(
                  runtime.id(),
                  installation.scope(),
                  null,
                  true,
                  "the user's settings, which " + runtime.id() + " reads in every directory",
                  null));
        }
        continue;
      }
      Set<Path> workspaces = new LinkedHashSet<>();
      if (installation.installed()) {
        workspaces.add(workspace);
      }
      ledger.installations().stream()
          .filter(
              recorded ->
                  recorded.workspace() != null
                      && recorded.is(runtime, HookScope.WORKSPACE, Path.of(recorded.workspace())))
          .forEach(recorded -> workspaces.add(Path.of(recorded.workspace())));
      for (Path installed : workspaces) {
        HookLoading.of(runtime, installed, here)
            .ifPresent(
                verdict ->
                    loadings.add(
                        new WireHooksStatus.Loading(
                            runtime.id(),
                            installation.scope(),
                            installed.toString(),
                            verdict.loads(),
                            verdict.why(),
                            verdict.loads() ? null : HookLoading.instead(runtime, installed))));
      }
    }
    return loadings;
  }

  /** One runtime's settings file in one scope ({@code workspace}: the one asked about). */
  private record Place(HookRuntime runtime, HookScope scope, Path workspace, Path file) {}

  private WireHooksStatus.Installation hooks(SettingsFiles files, Place place, boolean recorded) {
    HookRuntime runtime = place.runtime();
    HookScope scope = place.scope();
    Path file = place.file();
    List<String> notes = new ArrayList<>();
    String mcpServer = mcpServer(files, place, notes);
    Optional<byte[]> bytes = readQuietly(files, file, notes);
    if (bytes.isEmpty()) {
      return notInstalled(runtime, scope, file, recorded, notes, mcpServer);
    }
    linkedQuietly(files, file)
        .ifPresent(
            target ->
                notes.add("the file is reached through a symbolic link: install writes " + target));
    RuntimeSettings settings;
    try {
      settings = RuntimeSettings.parse(file, bytes.get());
    } catch (RequestException e) {
      notes.add("not valid JSON: install refuses it");
      return notInstalled(runtime, scope, file, recorded, notes, mcpServer);
    }
    if (runtime == HookRuntime.GEMINI && settings.hooksDisabled()) {
      notes.add("hooksConfig.enabled is false: Gemini runs no hooks");
    }
    List<String> commands =
        settings.commands(runtime).values().stream().flatMap(List::stream).distinct().toList();
    if (commands.isEmpty()) {
      return notInstalled(runtime, scope, file, recorded, notes, mcpServer);
    }
    String command = commands.getFirst();
    RuntimeSettings merged = settings.copy();
    RuntimeSettings.Merged indexes;
    try {
      indexes = merged.merge(file, runtime, command);
    } catch (RequestException e) {
      notes.add(e.getMessage());
      return new WireHooksStatus.Installation(
          runtime.id(),
          scope.label(),
          file.toString(),
          true,
          false,
          recorded,
          commands,
          null,
          null,
          notes,
          mcpServer);
    }
    boolean current = commands.size() == 1 && merged.sameTree(settings);
    Boolean script = scriptPath(command).map(ConfigFiles::isExecutableFile).orElse(false);
    if (!script) {
      notes.add("the hook script is not an executable file: reinstall from the turndiff checkout");
    }
    Boolean trusted = null;
    if (runtime == HookRuntime.CODEX) {
      CodexHookNames names =
          scope == HookScope.USER
              ? CodexHookNames.user(user)
              : CodexHookNames.workspace(place.workspace());
      trusted = new CodexTrustCheck(user, command, indexes).trusted(names, scope, notes);
    }
    return new WireHooksStatus.Installation(
        runtime.id(),
        scope.label(),
        file.toString(),
        true,
        current,
        recorded,
        commands,
        script,
        trusted,
        notes,
        mcpServer);
  }

  /**
   * The file that registers turndiff's MCP server with {@code place}'s runtime in its scope, or
   * null; a workspace's {@code .mcp.json} server that Claude Code's settings do not approve gets a
   * note (Claude Code does not start it).
   */
  private String mcpServer(SettingsFiles files, Place place, List<String> notes) {
    HookRuntime runtime = place.runtime();
    Optional<Path> separate = user.mcpFile(runtime, place.scope(), place.workspace());
    if (runtime != HookRuntime.GEMINI && separate.isEmpty()) {
      return null;
    }
    Path file = separate.orElse(place.file());
    if (runtime == HookRuntime.CODEX) {
      return codexMcpServer(files, file) ? file.toString() : null;
    }
    Optional<RuntimeSettings> settings = settingsQuietly(files, file);
    if (settings.isEmpty() || settings.get().mcpServer().isEmpty()) {
      return null;
    }
    if (runtime == HookRuntime.CLAUDE_CODE
        && place.scope() == HookScope.WORKSPACE
        && !settingsQuietly(files, place.file())
            .map(RuntimeSettings::approvesMcpServer)
            .orElse(false)) {
      notes.add(
          "the MCP server in "
              + file
              + " is not in enabledMcpjsonServers of "
              + place.file()
              + ": Claude Code asks before it starts it");
    }
    return file.toString();
  }

  /** Whether Codex's {@code config.toml} {@code file} has turndiff's MCP server, read as TOML. */
  private static boolean codexMcpServer(SettingsFiles files, Path file) {
    try {
      return files
          .read(file)
          .map(bytes -> CodexConfig.parse(file, RuntimeSettings.utf8(file, bytes)))
          .flatMap(config -> config.mcpServer(McpServer.NAME))
          .filter(McpServer::isTurndiffs)
          .isPresent();
    } catch (CliException | RequestException e) {
      return false;
    }
  }

  /** The file as settings; empty when it is missing or cannot be read or parsed. */
  private static Optional<RuntimeSettings> settingsQuietly(SettingsFiles files, Path file) {
    try {
      return files.read(file).map(bytes -> RuntimeSettings.parse(file, bytes));
    } catch (CliException | RequestException e) {
      return Optional.empty();
    }
  }

  private static WireHooksStatus.Installation notInstalled(
      HookRuntime runtime,
      HookScope scope,
      Path file,
      boolean recorded,
      List<String> notes,
      String mcpServer) {
    return new WireHooksStatus.Installation(
        runtime.id(),
        scope.label(),
        file.toString(),
        false,
        false,
        recorded,
        List.of(),
        null,
        null,
        notes,
        mcpServer);
  }

  private WireHooksStatus.Installation plugin(
      SettingsFiles files, HookScope scope, Path file, boolean recorded) {
    List<String> notes = new ArrayList<>();
    Optional<byte[]> bytes = readQuietly(files, file, notes);
    boolean installed =
        bytes.isPresent()
            && new String(bytes.get(), StandardCharsets.UTF_8).contains(OpenCodePlugin.MARK);
    boolean current =
        installed
            && ConfigFiles.sha256(bytes.get())
                .equals(
                    HookLedger.load(HookLedger.file(user)).installations().stream()
                        .flatMap(i -> i.files().stream())
                        .filter(f -> f.path().equals(file.toString()))
                        .map(HookLedger.ChangedFile::afterSha256)
                        .findFirst()
                        .orElse(""));
    return new WireHooksStatus.Installation(
        HookRuntime.OPENCODE.id(),
        scope.label(),
        file.toString(),
        installed,
        current,
        recorded,
        List.of(),
        null,
        null,
        notes,
        null);
  }

  /** The file's bytes; empty, and a note saying why, when it cannot be read (or must not be). */
  private static Optional<byte[]> readQuietly(SettingsFiles files, Path file, List<String> notes) {
    try {
      return files.read(file);
    } catch (CliException | RequestException e) {
      notes.add(e.getMessage());
      return Optional.empty();
    }
  }

  private static Optional<Path> linkedQuietly(SettingsFiles files, Path file) {
    try {
      return files.linkedTarget(file);
    } catch (CliException | RequestException e) {
      return Optional.empty();
    }
  }

  /** The script's path in a command install wrote: the single-quoted first word. */
  static Optional<Path> scriptPath(String command) {
    if (!command.startsWith("'")) {
      return Optional.empty();
    }
    StringBuilder path = new StringBuilder();
    int at = 1;
    while (at < command.length()) {
      if (command.startsWith("'\\''", at)) {
        path.append('\'');
        at += 4;
      } else if (command.charAt(at) == '\'') {
        return Optional.of(Path.of(path.toString()));
      } else {
        path.append(command.charAt(at++));
      }
    }
    return Optional.empty();
  }

  private static void printHere(WireHooksStatus.Here here, PrintWriter out) {
    out.println(
        "started here: "
            + here.directory()
            + (here.loadings().isEmpty() ? " (no runtime meets turndiff's hooks here)" : ""));
    for (WireHooksStatus.Loading loading : here.loadings()) {
      out.printf(
          "    %-12s %s%n",
          loading.runtime(),
          (loading.loads() ? "runs the hooks of " : "does NOT run the hooks of ")
              + (loading.workspace() == null ? "the user's settings" : loading.workspace())
              + " ("
              + loading.why()
              + ")");
      if (loading.instead() != null) {
        out.println("                 instead: " + loading.instead());
      }
    }
  }

  public static void print(WireHooksStatus status, PrintWriter out) {
    for (WireHooksStatus.Installation installation : status.installations()) {
      out.printf(
          "%-12s %-10s %-14s %s%n",
          installation.runtime(),
          installation.scope(),
          !installation.installed()
              ? "not installed"
              : installation.current() ? "installed" : "installed (outdated)",
          installation.file());
      for (String command : installation.commands()) {
        out.println(
            "    command: "
                + command
                + (Boolean.TRUE.equals(installation.scriptExecutable())
                    ? ""
                    : "  (script missing)"));
      }
      if (installation.codexTrusted() != null) {
        out.println(
            "    Codex trust: "
                + (installation.codexTrusted() ? "present" : "missing or outdated"));
      }
      if (installation.mcpServer() != null) {
        out.println("    MCP server: turndiff mcp, registered in " + installation.mcpServer());
      }
      if (installation.installed() && !installation.recorded()) {
        out.println("    no record of the install: uninstall takes turndiff's entries out");
      }
      for (String note : installation.notes()) {
        out.println("    note: " + note);
      }
    }
    Boolean tracked = status.workspace().tracked();
    out.println(
        "workspace:    "
            + status.workspace().path()
            + (tracked == null
                ? " (no store yet)"
                : tracked
                    ? " (tracked: shell changes are captured)"
                    : " (not tracked: turndiff track --workspace DIR)"));
    out.println(
        "hooks' store: "
            + status.hooksStore()
            + " (TURNDIFF_DB in the runtime's environment overrides it)");
    printHere(status.here(), out);
    out.println(
        "service:      "
            + (status.service().running()
                ? "running (pid "
                    + status.service().pid()
                    + ", port "
                    + status.service().port()
                    + ")"
                : status.service().problem() != null
                    ? "not usable: " + status.service().problem()
                    : "not running (the first hook starts it)"));
    if (status.service().running()) {
      printSightings(status.service().sightings(), out);
    }
    printSessionFiles(status.sessionFiles(), out);
    printProcesses(status.processes(), out);
  }

  /**
   * Each runtime process at work here, its session file growing, while none of its hooks arrived:
   * evidence from outside the hooks, with what to do.
   */
  private static void printProcesses(List<WireProcessEvidence> evidence, PrintWriter out) {
    for (WireProcessEvidence seen : evidence) {
      out.println("process " + seen.pid() + " of " + seen.runtime() + ":");
      out.println("    WARNING: " + seen.warning());
      out.println(
          "    what to do: "
              + (seen.installed()
                  ? "this prompt's changes are in no turn; check the runtime runs the hooks where"
                      + " it was started (above) and trusts them, restart it (a runtime reads its"
                      + " hooks when it starts), run one prompt and this status again"
                  : "turndiff hooks install --runtime "
                      + seen.runtime()
                      + ", then restart it (its hooks are not installed here or for the user;"
                      + " a runtime reads them when it starts)"));
    }
  }

  /**
   * Each runtime whose own session files show it worked here while none of its hooks arrived:
   * evidence from outside the hooks, with what to do.
   */
  private static void printSessionFiles(List<WireSessionFileEvidence> evidence, PrintWriter out) {
    for (WireSessionFileEvidence seen : evidence) {
      out.println("session files of " + seen.runtime() + ":");
      out.println("    WARNING: " + seen.warning());
      out.println(
          "    what to do: "
              + (seen.installed()
                  ? "check the runtime runs the hooks where it was started (above) and trusts"
                      + " them, run one prompt and this status again"
                  : "turndiff hooks install --runtime "
                      + seen.runtime()
                      + " (its hooks are not installed here or for the user)"));
    }
  }

  /**
   * What the hook calls the service received showed, per runtime and directory: observed, not
   * configured (issue 21, item 0).
   */
  private static void printSightings(List<WireHookSighting> sightings, PrintWriter out) {
    if (sightings.isEmpty()) {
      out.println("hooks seen:   none in this workspace (run one prompt to see them arrive)");
      return;
    }
    out.println("hooks seen (the last call of each runtime, kept across the service's restarts):");
    for (WireHookSighting seen : sightings) {
      WireHookSighting.Prompt prompt = seen.prompt();
      out.println(
          "  "
              + seen.runtime()
              + (seen.runtimeVersion() == null ? "" : " " + seen.runtimeVersion())
              + " in "
              + seen.directory()
              + ": last "
              + seen.lastEvent()
              + " at "
              + seen.lastAt()
              + "; last prompt: begin "
              + (prompt.begin() ? "arrived" : "MISSING")
              + ", "
              + prompt.toolCalls()
              + (prompt.toolCalls() == 1 ? " tool call" : " tool calls")
              + ", end "
              + (prompt.finishedBy() != null
                  ? "never arrived"
                  : prompt.end() ? "arrived" : "not yet"));
      Optional.ofNullable(prompt.reason())
          .map(TurnEnding::fromReason)
          .ifPresent(
              ending -> {
                out.println("    last prompt (" + prompt.at() + "): " + ending.seenFromTheHooks());
                out.println(
                    "    what to do: unless "
                        + seen.runtime()
                        + " was killed or closed mid-turn, check its end hook is installed (above)"
                        + " and runs, then one prompt to its end and this status again");
              });
      if (seen.warning() != null) {
        out.println("    WARNING: " + seen.warning());
        out.println(
            "    what to do: turndiff hooks install --runtime "
                + seen.runtime()
                + " (again), check the runtime runs hooks here (above), then one prompt and this"
                + " status again");
      }
    }
  }
}
