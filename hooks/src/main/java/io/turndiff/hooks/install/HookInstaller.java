package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Installs and uninstalls turndiff's hooks in one runtime's settings (docs/runtime-hooks.md, "hooks
 * install, uninstall, status"). Every file is read and checked before the first is written, so bad
 * input writes nothing; install writes only what changes (installing twice is installing once);
 * uninstall puts back the bytes that were there before install when the file has not changed since,
 * else takes out exactly turndiff's entries.
 */
public final class HookInstaller {

  static final String PLUGIN_RESOURCE = "turndiff.ts";

  private static final DateTimeFormatter BACKUP_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final UserDirectories user;
  private final PrintWriter out;
  private final PrintWriter err;

  public HookInstaller(UserDirectories user, PrintWriter out, PrintWriter err) {
    this.user = user;
    this.out = out;
    this.err = err;
  }

  /** One file install would write: its bytes now (empty: no file) and after. */
  private record Edit(
      Path file,
      String kind,
      Optional<byte[]> before,
      byte[] after,
      List<String> createdEvents,
      boolean createdHooks,
      String added,
      List<String> createdMcpKeys) {

    boolean changes() {
      return before.isEmpty() || !Arrays.equals(before.get(), after);
    }
  }

  /**
   * What {@code hooks install} asked for; {@code mcp}: register turndiff's MCP server too, for the
   * runtimes install registers it for (Claude Code, Gemini CLI, Codex).
   */
  public record Request(
      HookRuntime runtime,
      HookScope scope,
      Path workspace,
      boolean gitRoot,
      boolean track,
      boolean mcp) {}

  /** A new directory for the backups of one run: {@code <UTC time>-<runtime>-<what>}. */
  private Path backupDirectory(HookRuntime runtime, String what) {
    return user.turndiffState()
        .resolve("hooks-backups")
        .resolve(BACKUP_TIME.format(Instant.now()) + "-" + runtime.id() + "-" + what);
  }

  /** Installs; returns whether a file changed. */
  public boolean install(Request request) {
    try (SettingsFiles files = SettingsFiles.of(request.scope(), request.workspace())) {
      return install(request, files);
    }
  }

  private boolean install(Request request, SettingsFiles files) {
    HookRuntime runtime = request.runtime();
    HookScript script = HookScript.find(user.environment());
    boolean autoTrack = request.scope() == HookScope.USER && request.track();
    String command = script.command(runtime, request.gitRoot(), autoTrack);
    Path file = user.settingsFile(runtime, request.scope(), request.workspace());
    // every file is read (and refused, when it must be) before the first is written
    List<Edit> edits = new ArrayList<>();
    Optional<Path> mcpFile =
        request.mcp()
            ? user.mcpFile(runtime, request.scope(), request.workspace())
            : Optional.empty();
    Optional<McpRegistration> mcpInSettings = mcpInSettings(request, script);
    if (runtime == HookRuntime.OPENCODE) {
      edits.add(pluginEdit(files, file, script.home(), request.gitRoot(), autoTrack));
    } else {
      RuntimeSettings.Merged merged = jsonEdit(files, runtime, file, command, mcpInSettings, edits);
      McpServer server = McpServer.of(script, request.workspace());
      // Codex's user file is also the trust block's: the server goes into that one edit
      boolean mcpInTrust = runtime == HookRuntime.CODEX && request.scope() == HookScope.USER;
      if (mcpFile.isPresent() && !mcpInTrust) {
        edits.add(
            runtime == HookRuntime.CODEX
                ? codexMcpEdit(files, mcpFile.get(), server)
                : mcpEdit(files, mcpFile.get(), server));
      }
      if (runtime == HookRuntime.CODEX) {
        CodexHookNames names =
            request.scope() == HookScope.USER
                ? CodexHookNames.user(user)
                : CodexHookNames.workspace(request.workspace());
        edits.add(
            trustEdit(
                files,
                user.codexHome().resolve("config.toml"),
                new Trusted(file, names, request.scope() == HookScope.WORKSPACE),
                command,
                merged,
                mcpFile.isPresent() && mcpInTrust ? Optional.of(server) : Optional.empty()));
      }
    }
    HookLedger ledger = HookLedger.load(HookLedger.file(user));
    Optional<HookLedger.Installed> previous =
        ledger.find(runtime, request.scope(), request.workspace());
    if (edits.stream().noneMatch(Edit::changes)) {
      out.println(runtime.id() + ": already installed in " + file + " (nothing changed)");
      return false;
    }
    Path backups = backupDirectory(runtime, request.scope().label());
    List<HookLedger.ChangedFile> recorded = new ArrayList<>();
    previous.ifPresent(
        installed ->
            installed.files().stream()
                .filter(
                    changed ->
                        edits.stream()
                            .noneMatch(edit -> edit.file().toString().equals(changed.path())))
                .forEach(recorded::add));
    for (Edit edit : edits) {
      Optional<HookLedger.ChangedFile> prior = previous.flatMap(p -> p.file(edit.file()));
      if (!edit.changes()) {
        prior.ifPresent(recorded::add);
        continue;
      }
      files
          .linkedTarget(edit.file())
          .ifPresent(
              target ->
                  out.println(
                      edit.file()
                          + " is reached through a symbolic link: writing "
                          + target
                          + " (the link stays a link)"));
      String beforeSha = edit.before().map(ConfigFiles::sha256).orElse(null);
      boolean update = prior.isPresent() && prior.get().afterSha256().equals(beforeSha);
      String backup = null;
      if (!update && edit.before().isPresent()) {
        backup =
            ConfigFiles.backup(backups, edit.file().getFileName().toString(), edit.before().get())
                .toString();
        out.println("backup of " + edit.file() + ": " + backup);
      }
      List<Path> createdDirectories =
          files.write(
              edit.file(),
              edit.after(),
              privateIfNew(edit, request.scope())
                  ? ConfigFiles.PRIVATE_FILE
                  : ConfigFiles.SHARED_FILE);
      out.println(runtime.id() + ": wrote " + edit.file());
      HookLedger.ChangedFile change;
      if (update) {
        // an update of turndiff's own entries (the checkout moved): the first install's record
        // still says what to put back
        HookLedger.ChangedFile first = prior.get();
        change =
            new HookLedger.ChangedFile(
                first.path(),
                first.kind(),
                first.existed(),
                first.beforeSha256(),
                ConfigFiles.sha256(edit.after()),
                first.backup(),
                first.createdDirectories(),
                createdByEither(first.createdEvents(), edit.createdEvents()),
                first.createdHooks(),
                edit.added() == null ? first.added() : edit.added(),
                createdByEither(first.createdMcpKeys(), edit.createdMcpKeys()));
      } else {
        change =
            new HookLedger.ChangedFile(
                edit.file().toString(),
                edit.kind(),
                edit.before().isPresent(),
                beforeSha,
                ConfigFiles.sha256(edit.after()),
                backup,
                createdDirectories.stream().map(Path::toString).toList(),
                edit.createdEvents(),
                edit.createdHooks(),
                edit.added(),
                edit.createdMcpKeys());
      }
      recorded.add(change);
    }
    ledger
        .with(
            new HookLedger.Installed(
                runtime.id(),
                request.scope().label(),
                request.workspace() == null ? null : request.workspace().toString(),
                command,
                recorded))
        .save(HookLedger.file(user));
    return true;
  }

  /**
   * What of the MCP server goes into the hooks' settings file: Gemini keeps its MCP servers there;
   * Claude Code keeps them in another file ({@link UserDirectories#mcpFile}), and starts a
   * workspace's {@code .mcp.json} server only once the settings approve it.
   */
  private static Optional<McpRegistration> mcpInSettings(Request request, HookScript script) {
    if (!request.mcp()) {
      return Optional.empty();
    }
    return switch (request.runtime()) {
      case GEMINI ->
          Optional.of(new McpRegistration(McpServer.of(script, request.workspace()), false));
      case CLAUDE_CODE ->
          request.scope() == HookScope.WORKSPACE
              ? Optional.of(new McpRegistration(null, true))
              : Optional.empty();
      case CODEX, OPENCODE -> Optional.empty();
    };
  }

  /**
   * Whether a file install creates is the user's alone: Codex's {@code config.toml}, and Claude
   * Code's {@code ~/.claude.json}, which holds its login too.
   */
  private static boolean privateIfNew(Edit edit, HookScope scope) {
    return edit.kind().equals("block") || (edit.kind().equals("mcp") && scope == HookScope.USER);
  }

  /**
   * The event arrays turndiff created in a file: those its first install created and those an
   * update created (an upgrade that registers a new event, e.g. a Post hook, creates its array), so
   * that uninstall takes out each array it left empty either time.
   */
  private static List<String> createdByEither(List<String> first, List<String> update) {
    if (first == null || update == null) {
      return first == null ? update : first;
    }
    Set<String> events = new LinkedHashSet<>(first);
    events.addAll(update);
    return List.copyOf(events);
  }

  /**
   * What of the MCP server goes into a runtime's settings file: {@code server} (Gemini's; null:
   * none), {@code approve}: Claude Code's approval of the workspace's {@code .mcp.json} server.
   */
  private record McpRegistration(McpServer server, boolean approve) {}

  private RuntimeSettings.Merged jsonEdit(
      SettingsFiles files,
      HookRuntime runtime,
      Path file,
      String command,
      Optional<McpRegistration> mcp,
      List<Edit> edits) {
    Optional<byte[]> before = files.read(file);
    RuntimeSettings settings =
        before.map(bytes -> RuntimeSettings.parse(file, bytes)).orElseGet(RuntimeSettings::empty);
    if (runtime == HookRuntime.GEMINI && settings.hooksDisabled()) {
      throw RuntimeSettings.refused(
          file,
          "its hooksConfig.enabled is false, so Gemini would run no hook; set it to true (or"
              + " remove it) first");
    }
    RuntimeSettings merged = settings.copy();
    RuntimeSettings.Merged result = merged.merge(file, runtime, command);
    List<String> createdMcpKeys =
        mcp.map(
                registration ->
                    registration.approve()
                        ? merged.approveMcpServer(file)
                        : merged.mergeMcpServer(file, registration.server()))
            .orElse(List.of());
    // an unchanged tree keeps the file's bytes as they are, formatting included
    byte[] after = before.isPresent() && merged.sameTree(settings) ? before.get() : merged.bytes();
    edits.add(
        new Edit(
            file,
            "json",
            before,
            after,
            result.createdEvents(),
            result.createdHooks(),
            null,
            createdMcpKeys));
    return result;
  }

  /** Claude Code's file of MCP servers with turndiff's in it. */
  private static Edit mcpEdit(SettingsFiles files, Path file, McpServer server) {
    Optional<byte[]> before = files.read(file);
    RuntimeSettings settings =
        before.map(bytes -> RuntimeSettings.parse(file, bytes)).orElseGet(RuntimeSettings::empty);
    RuntimeSettings merged = settings.copy();
    List<String> createdKeys = merged.mergeMcpServer(file, server);
    byte[] after = before.isPresent() && merged.sameTree(settings) ? before.get() : merged.bytes();
    return new Edit(file, "mcp", before, after, List.of(), false, null, createdKeys);
  }

  /** Codex's {@code config.toml} of a workspace with turndiff's MCP block in it. */
  private static Edit codexMcpEdit(SettingsFiles files, Path file, McpServer server) {
    Optional<byte[]> before = files.read(file);
    String text = before.map(bytes -> RuntimeSettings.utf8(file, bytes)).orElse("");
    CodexMcpBlock.Placed placed = CodexMcpBlock.put(file, text, server);
    return new Edit(
        file,
        "mcp-toml",
        before,
        placed.after().getBytes(StandardCharsets.UTF_8),
        List.of(),
        false,
        placed.added(),
        List.of());
  }

  /**
   * The hooks file whose handlers a trust block trusts: where install wrote it, the names Codex
   * knows it by (the keys), and whether it is a project's (Codex then also wants the project
   * trusted).
   */
  private record Trusted(Path hooksFile, CodexHookNames names, boolean project) {}

  private Edit trustEdit(
      SettingsFiles files,
      Path config,
      Trusted trusted,
      String command,
      RuntimeSettings.Merged merged,
      Optional<McpServer> mcpServer) {
    for (Path name : trusted.names().names()) {
      if (name.toString().chars().anyMatch(Character::isISOControl)) {
        throw RuntimeSettings.refused(
            config, "the path " + name + " holds a control character, which a trust key cannot");
      }
    }
    Optional<byte[]> before = files.read(config);
    String text = before.map(bytes -> RuntimeSettings.utf8(config, bytes)).orElse("");
    CodexConfig now = CodexConfig.parse(config, text);
    if (now.hooksTurnedOff()) {
      throw RuntimeSettings.refused(
          config, "its [features] hooks = false turns Codex's hooks off; set it to true first");
    }
    Path hooksFile = trusted.hooksFile();
    String block =
        CodexTrust.block(hooksFile, trusted.names().names(), command, merged.groupIndexes());
    int start = CodexTrust.blockStart(text, hooksFile);
    String others;
    String after;
    String added;
    if (start >= 0) {
      int end = CodexTrust.blockEnd(text, start);
      if (end < 0) {
        throw RuntimeSettings.refused(
            config, "it holds the start of turndiff's trust block but not its end line");
      }
      others = text.substring(0, start) + text.substring(end);
      after = text.substring(0, start) + block + text.substring(end);
      added = null;
    } else {
      others = text;
      added = CodexTrust.separator(text) + block;
      after = text + added;
    }
    refuseOwnKeysElsewhere(config, CodexConfig.parse(config, others), trusted, merged);
    // the file as it will be must still be one Codex reads
    CodexConfig.parse(config, after);
    if (mcpServer.isPresent()) {
      CodexMcpBlock.Placed placed = CodexMcpBlock.put(config, after, mcpServer.get());
      after = placed.after();
      if (placed.added() != null) {
        added = added == null ? null : added + placed.added();
      }
    }
    Path project = CodexHookNames.project(trusted.names().started());
    if (trusted.project() && !now.trustsProject(project)) {
      err.println(
          "turndiff: note: Codex runs a project's hooks only in a project it trusts; "
              + config
              + " has no [projects.\""
              + project
              + "\"] trust_level = \"trusted\" (Codex asks when you open the project)");
    }
    return new Edit(
        config,
        "block",
        before,
        after.getBytes(StandardCharsets.UTF_8),
        List.of(),
        false,
        added,
        List.of());
  }

  /**
   * Refuses a {@code config.toml} that already has, outside turndiff's block, an entry for one of
   * the handlers the block trusts: TOML does not allow a table twice.
   */
  private static void refuseOwnKeysElsewhere(
      Path config, CodexConfig others, Trusted trusted, RuntimeSettings.Merged merged) {
    for (Path name : trusted.names().names()) {
      for (HookRuntime.Event event : HookRuntime.CODEX.events()) {
        String key = CodexTrust.key(name, event, merged.groupIndexes().get(event.name()));
        if (others.hasState(key)) {
          throw RuntimeSettings.refused(
              config,
              "it already has " + CodexTrust.header(key) + " (remove it, turndiff writes its own)");
        }
      }
    }
  }

  private Edit pluginEdit(
      SettingsFiles files, Path file, Path home, boolean gitRoot, boolean autoTrack) {
    byte[] after =
        OpenCodePlugin.configured(pluginSource(), home.toString(), gitRoot, autoTrack)
            .getBytes(StandardCharsets.UTF_8);
    Optional<byte[]> before = files.read(file);
    if (before.isPresent()
        && !Arrays.equals(before.get(), after)
        && !RuntimeSettings.utf8(file, before.get()).contains(OpenCodePlugin.MARK)) {
      throw RuntimeSettings.refused(
          file, "a file of that name is there and it is not turndiff's plugin");
    }
    return new Edit(file, "file", before, after, List.of(), false, null, List.of());
  }

  /** The OpenCode plugin shipped in the jar ({@code integrations/opencode/turndiff.ts}). */
  static String pluginSource() {
    try (InputStream in = HookInstaller.class.getResourceAsStream(PLUGIN_RESOURCE)) {
      if (in == null) {
        throw new CliException(
            ExitCode.ERROR, "the OpenCode plugin is missing from turndiff's jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException(ExitCode.ERROR, "cannot read the OpenCode plugin: " + e.getMessage());
    }
  }

  /** Uninstalls; returns whether anything was installed. */
  public boolean uninstall(HookRuntime runtime, HookScope scope, Path workspace) {
    try (SettingsFiles files = SettingsFiles.of(scope, workspace)) {
      return uninstall(runtime, scope, workspace, files);
    }
  }

  private boolean uninstall(
      HookRuntime runtime, HookScope scope, Path workspace, SettingsFiles files) {
    Path ledgerFile = HookLedger.file(user);
    HookLedger ledger = HookLedger.load(ledgerFile);
    Optional<HookLedger.Installed> installed = ledger.find(runtime, scope, workspace);
    if (installed.isEmpty()) {
      return uninstallUnrecorded(files, runtime, user.settingsFile(runtime, scope, workspace));
    }
    // every file is read (and refused, when it must be) before the first is written
    List<HookLedger.ChangedFile> changedFiles = installed.get().files().reversed();
    List<Optional<byte[]>> now = new ArrayList<>();
    for (HookLedger.ChangedFile changed : changedFiles) {
      now.add(files.read(Path.of(changed.path())));
    }
    Path backups = backupDirectory(runtime, "uninstall");
    for (int i = 0; i < changedFiles.size(); i++) {
      HookLedger.ChangedFile changed = changedFiles.get(i);
      Path file = Path.of(changed.path());
      if (now.get(i).isEmpty()) {
        err.println("turndiff: " + file + " is gone already");
        continue;
      }
      byte[] bytes = now.get(i).get();
      if (ConfigFiles.sha256(bytes).equals(changed.afterSha256())) {
        putBack(files, file, changed);
        continue;
      }
      // changed since install: take out exactly turndiff's part, keep the rest
      switch (changed.kind()) {
        case "json" -> {
          RuntimeSettings settings = RuntimeSettings.parse(file, bytes);
          int removed =
              settings.remove(
                  runtime, new HashSet<>(changed.createdEvents()), changed.createdHooks());
          boolean mcpRemoved = settings.removeMcpServer(new HashSet<>(changed.createdMcpKeys()));
          if (removed > 0 || mcpRemoved) {
            writeTakenOut(
                files, backups, new Changed(runtime, file, bytes, settings), removed + " hooks");
          }
        }
        case "mcp" -> {
          RuntimeSettings settings = RuntimeSettings.parse(file, bytes);
          if (settings.removeMcpServer(new HashSet<>(changed.createdMcpKeys()))) {
            writeTakenOut(
                files, backups, new Changed(runtime, file, bytes, settings), "MCP server");
          }
        }
        case "mcp-toml" -> {
          String text = RuntimeSettings.utf8(file, bytes);
          String after = CodexMcpBlock.without(text, changed.added());
          if (!after.equals(text)) {
            ConfigFiles.backup(backups, file.getFileName().toString(), bytes);
            files.write(file, after.getBytes(StandardCharsets.UTF_8), ConfigFiles.SHARED_FILE);
            out.println(runtime.id() + ": took turndiff's MCP server out of " + file);
          }
        }
        case "block" -> {
          String text = RuntimeSettings.utf8(file, bytes);
          String after = withoutBlock(text, changed.added(), trustedHooksFile(installed.get()));
          if (scope == HookScope.USER) {
            // the user's install put its MCP block into this file too (a workspace's is elsewhere)
            after = CodexMcpBlock.without(after, null);
          }
          if (!after.equals(text)) {
            ConfigFiles.backup(backups, file.getFileName().toString(), bytes);
            files.write(file, after.getBytes(StandardCharsets.UTF_8), ConfigFiles.PRIVATE_FILE);
            out.println(runtime.id() + ": took turndiff's trust block out of " + file);
          }
        }
        default ->
            err.println(
                "turndiff: "
                    + file
                    + " changed since install: left in place (remove it yourself if you do not"
                    + " want it)");
      }
    }
    ledger.without(installed.get()).save(ledgerFile);
    return true;
  }

  /** A settings file the user changed since install: its bytes now, and without turndiff's part. */
  private record Changed(HookRuntime runtime, Path file, byte[] now, RuntimeSettings without) {}

  /**
   * Backs up {@code changed}'s bytes now, writes it without turndiff's part ({@code what}), and
   * says so.
   */
  private void writeTakenOut(SettingsFiles files, Path backups, Changed changed, String what) {
    ConfigFiles.backup(backups, changed.file().getFileName().toString(), changed.now());
    files.write(changed.file(), changed.without().bytes(), ConfigFiles.SHARED_FILE);
    out.println(
        changed.runtime().id()
            + ": "
            + changed.file()
            + " changed since install: took out turndiff's "
            + what
            + ", kept the rest");
  }

  /** The hooks file whose trust a Codex installation wrote: its {@code json} file. */
  private static Path trustedHooksFile(HookLedger.Installed installed) {
    return installed.files().stream()
        .filter(file -> file.kind().equals("json"))
        .map(file -> Path.of(file.path()))
        .findFirst()
        .orElse(Path.of("/"));
  }

  /** Puts back what was there before install: the backup's bytes, or no file. */
  private void putBack(SettingsFiles files, Path file, HookLedger.ChangedFile changed) {
    if (changed.existed()) {
      byte[] original =
          ConfigFiles.read(Path.of(changed.backup()))
              .orElseThrow(
                  () ->
                      new CliException(
                          ExitCode.ERROR,
                          "the backup " + changed.backup() + " of " + file + " is gone"));
      if (!ConfigFiles.sha256(original).equals(changed.beforeSha256())) {
        throw new CliException(
            ExitCode.ERROR,
            "the backup " + changed.backup() + " of " + file + " is not what install saved");
      }
      files.write(file, original, ConfigFiles.SHARED_FILE);
      out.println("restored " + file + " as it was before install");
    } else {
      files.delete(file);
      files.removeEmptyDirectories(changed.createdDirectories().stream().map(Path::of).toList());
      out.println("removed " + file + " (install had created it)");
    }
  }

  /** {@code text} without turndiff's trust block (and the separator install put before it). */
  static String withoutBlock(String text, String added, Path hooksFile) {
    if (added != null && text.contains(added)) {
      int at = text.lastIndexOf(added);
      return text.substring(0, at) + text.substring(at + added.length());
    }
    int start = CodexTrust.blockStart(text, hooksFile);
    if (start < 0) {
      return text;
    }
    int end = CodexTrust.blockEnd(text, start);
    return end < 0 ? text : text.substring(0, start) + text.substring(end);
  }

  /** No record of an installation: take out turndiff's hooks wherever they are in the file. */
  private boolean uninstallUnrecorded(SettingsFiles files, HookRuntime runtime, Path file) {
    if (runtime == HookRuntime.OPENCODE) {
      out.println(runtime.id() + ": not installed (no record of an installation)");
      return false;
    }
    Optional<byte[]> now = files.read(file);
    if (now.isEmpty()) {
      out.println(runtime.id() + ": not installed");
      return false;
    }
    RuntimeSettings settings = RuntimeSettings.parse(file, now.get());
    int removed = settings.remove(runtime, null, false);
    boolean mcpRemoved = settings.removeMcpServer(null);
    if (removed == 0 && !mcpRemoved) {
      out.println(runtime.id() + ": not installed in " + file);
      return false;
    }
    Path backups = backupDirectory(runtime, "uninstall");
    ConfigFiles.backup(backups, file.getFileName().toString(), now.get());
    files.write(file, settings.bytes(), ConfigFiles.SHARED_FILE);
    out.println(
        runtime.id() + ": took turndiff's " + removed + " hooks out of " + file + " (no record)");
    return true;
  }
}
