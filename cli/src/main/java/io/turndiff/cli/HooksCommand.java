package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.boundary.WorkspaceRoot;
import io.turndiff.capture.track.TrackSummary;
import io.turndiff.capture.track.Tracker;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.hooks.install.ConfigFiles;
import io.turndiff.hooks.install.HookInstallations;
import io.turndiff.hooks.install.HookInstaller;
import io.turndiff.hooks.install.HookLoading;
import io.turndiff.hooks.install.HookRuntime;
import io.turndiff.hooks.install.HookScope;
import io.turndiff.hooks.install.UserDirectories;
import io.turndiff.service.ServiceFiles;
import io.turndiff.store.StoredWorkspace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff hooks install|uninstall|status}: turndiff's hooks in the settings of Claude Code,
 * Gemini CLI and Codex, and its plugin in OpenCode's (docs/runtime-hooks.md).
 */
@Command(
    name = "hooks",
    description =
        "Install turndiff's hooks into an agent runtime's settings (claude-code, gemini, codex,"
            + " opencode), take them out again, or show what is installed where.",
    subcommands = {
      HooksCommand.Install.class,
      HooksCommand.Uninstall.class,
      HooksCommand.Status.class
    })
final class HooksCommand {

  /** Where an install or uninstall goes: {@code --workspace DIR}, {@code --user}, or the cwd. */
  static final class Target {

    @Option(
        names = "--runtime",
        required = true,
        paramLabel = "RUNTIME",
        description = "claude-code, gemini, codex or opencode.")
    String runtime;

    @Option(
        names = "--workspace",
        paramLabel = "DIR",
        description =
            "The workspace whose settings get the hooks (default: the current directory).")
    Path workspace;

    @Option(
        names = "--user",
        description =
            "The user's settings (~/.claude, ~/.gemini, $CODEX_HOME, ~/.config/opencode).")
    boolean user;

    HookRuntime runtime() {
      return HookRuntime.of(runtime);
    }

    HookScope scope() {
      if (user && workspace != null) {
        throw new CliException(
            ExitCode.USAGE,
            "--workspace and --user exclude each other: the hooks go into a workspace's settings or"
                + " the user's");
      }
      return user ? HookScope.USER : HookScope.WORKSPACE;
    }

    /** The workspace, absolute; null for {@code --user}. */
    Path workspace() {
      return scope() == HookScope.USER ? null : existingDirectory(workspace);
    }
  }

  static Path existingDirectory(Path given) {
    Path directory = (given == null ? Path.of("") : given).toAbsolutePath().normalize();
    if (!ConfigFiles.isDirectory(directory)) {
      throw new CliException(ExitCode.USAGE, "workspace " + directory + " is not a directory");
    }
    return directory;
  }

  @Command(
      name = "install",
      description =
          "Merge turndiff's hooks into the runtime's settings (every other setting and hook kept,"
              + " the old file backed up), and track the workspace.")
  static final class Install implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin Target target;

    @Option(
        names = "--git-root",
        description = "A turn's workspace is the git top level of the runtime's directory.")
    boolean gitRoot;

    @Option(
        names = "--no-track",
        description =
            "Do not track the workspace (then shell commands' changes are not captured); with"
                + " --user, do not track each new workspace on first use.")
    boolean noTrack;

    @Option(
        names = "--no-prompts",
        description =
            "Keep none of the prompts that make turns in the store (its setting, as `turndiff"
                + " config --prompts none`); a local store keeps them by default, each one's first"
                + " line the turn's title.")
    boolean noPrompts;

    @Option(
        names = "--no-mcp",
        description =
            "Do not register turndiff's MCP server (`turndiff mcp`) with the runtime; by default"
                + " Claude Code (the workspace's .mcp.json, approved in .claude/settings.local.json;"
                + " ~/.claude.json with --user), Gemini CLI (its settings.json) and Codex (the"
                + " workspace's .codex/config.toml; $CODEX_HOME/config.toml with --user) get it.")
    boolean noMcp;

    @Override
    public Integer call() {
      HookRuntime runtime = target.runtime();
      HookScope scope = target.scope();
      Path workspace = target.workspace();
      PrintWriter out = spec.commandLine().getOut();
      new HookInstaller(UserDirectories.current(), out, spec.commandLine().getErr())
          .install(new HookInstaller.Request(runtime, scope, workspace, gitRoot, !noTrack, !noMcp));
      if (workspace != null) {
        tellWhereItRuns(runtime, workspace, Path.of("").toAbsolutePath(), out);
      }
      if (workspace != null && !noTrack) {
        track(spec, workspace, out);
      }
      if (noPrompts) {
        keepNoPrompts(spec, out);
      }
      ServiceFiles files = ServiceCommand.files(spec);
      out.println(
          "the hooks use the store named by TURNDIFF_DB in "
              + runtime.id()
              + "'s environment, else the default store (from this shell: "
              + files.store()
              + ")");
      return ExitCode.OK.code();
    }
  }

  /**
   * Says where the runtime runs the hooks just installed in {@code workspace}: from its root, from
   * its subdirectories (which a runtime may not: {@link HookLoading}), and from {@code here}, the
   * directory install runs in, when that is one of them; and what works where it does not.
   */
  static void tellWhereItRuns(HookRuntime runtime, Path workspace, Path here, PrintWriter out) {
    Optional<HookLoading.Verdict> below = HookLoading.inSubdirectories(runtime, workspace);
    if (below.isEmpty()) {
      return;
    }
    out.println(
        runtime.id()
            + ": runs these hooks when started in "
            + workspace
            + "; started in a subdirectory, "
            + (below.get().loads() ? "it runs them too (" : "it does NOT run them (")
            + below.get().why()
            + ")");
    Optional<HookLoading.Verdict> fromHere =
        HookLoading.of(runtime, workspace, here).filter(verdict -> !verdict.atRoot());
    fromHere.ifPresent(
        verdict ->
            out.println(
                runtime.id()
                    + ": started here ("
                    + here
                    + "), "
                    + (verdict.loads() ? "it runs them" : "it does NOT run them")
                    + " ("
                    + verdict.why()
                    + ")"));
    if (!below.get().loads() || fromHere.filter(verdict -> !verdict.loads()).isPresent()) {
      out.println(runtime.id() + ": where it does not, " + HookLoading.instead(runtime, workspace));
    }
  }

  /** Sets the store to keep no prompts ({@code --no-prompts}). */
  static void keepNoPrompts(CommandSpec spec, PrintWriter out) {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      turndiff
          .store()
          .write(
              tx -> {
                tx.prompts().keep(false);
                return null;
              });
      out.println(
          "prompts: none are kept in "
              + turndiff.store().address().display()
              + " (turndiff config --prompts keep to keep them)");
    }
  }

  /** Tracks {@code workspace} in the store, unless it is tracked already. */
  static void track(CommandSpec spec, Path workspace, PrintWriter out) {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      if (tracked(turndiff, workspace)) {
        out.println(workspace + " is tracked already in " + turndiff.store().file());
        return;
      }
      TrackSummary summary =
          turndiff.track(workspace, TrackingOptions.DEFAULTS, Tracker.Progress.NONE);
      out.println(
          "tracking "
              + workspace
              + " in "
              + turndiff.store().file()
              + ": "
              + summary.files()
              + " files indexed"
              + (summary.partial() ? " (partial: see turndiff status --workspace)" : ""));
    }
  }

  static boolean tracked(Turndiff turndiff, Path workspace) {
    Optional<StoredWorkspace> stored =
        turndiff
            .store()
            .read(tx -> tx.workspaces().byGivenRoot(workspace.toString()))
            .or(
                () ->
                    WorkspaceRoot.real(workspace)
                        .flatMap(
                            real ->
                                turndiff
                                    .store()
                                    .read(tx -> tx.workspaces().byRealRoot(real.toString()))));
    return stored.isPresent() && turndiff.isTracked(stored.get().id());
  }

  @Command(
      name = "uninstall",
      description =
          "Take out what install added: the settings file as it was before install when it has"
              + " not changed since, else exactly turndiff's entries.")
  static final class Uninstall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin Target target;

    @Override
    public Integer call() {
      HookRuntime runtime = target.runtime();
      HookScope scope = target.scope();
      new HookInstaller(
              UserDirectories.current(), spec.commandLine().getOut(), spec.commandLine().getErr())
          .uninstall(runtime, scope, target.workspace());
      return ExitCode.OK.code();
    }
  }

  @Command(
      name = "status",
      description = "What of turndiff's hooks is installed where, the workspace and the service.")
  static final class Status implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--runtime", paramLabel = "RUNTIME", description = "Only this runtime.")
    String runtime;

    @Option(
        names = "--workspace",
        paramLabel = "DIR",
        description = "The workspace to look at (default: the current directory).")
    Path workspace;

    @Option(names = "--json", description = "One JSON object.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      Optional<HookRuntime> only = Optional.ofNullable(runtime).map(HookRuntime::of);
      Path directory = existingDirectory(workspace);
      ServiceFiles files = ServiceCommand.files(spec);
      Path here = Path.of("").toAbsolutePath();
      WireHooksStatus status =
          SessionFilesSeen.added(
              new HookInstallations(UserDirectories.current())
                  .status(
                      only,
                      directory,
                      here,
                      files.store(),
                      ServiceSeen.look(files).forHooksStatus(directory),
                      () -> trackedHere(directory)),
              StoreOptions.of(spec),
              directory,
              here);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.write(status, false));
      } else {
        HookInstallations.print(status, out);
      }
      return ExitCode.OK.code();
    }

    /** Whether the store tracks {@code directory}; null when there is no store yet. */
    private Boolean trackedHere(Path directory) {
      if (!ConfigFiles.exists(StoreOptions.of(spec).location())) {
        return null;
      }
      try (Turndiff turndiff = StoreOptions.of(spec).open()) {
        return tracked(turndiff, directory);
      }
    }
  }
}
