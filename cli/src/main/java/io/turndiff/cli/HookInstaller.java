package io.turndiff.cli;

import io.turndiff.api.hooks.CodexTrust;
import io.turndiff.api.hooks.HookRuntime;
import io.turndiff.api.hooks.OpenCodePlugin;
import io.turndiff.api.hooks.RuntimeSettings;
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
import java.util.List;
import java.util.Optional;

/**
 * Installs and uninstalls turndiff's hooks in one runtime's settings (docs/runtime-hooks.md, "hooks
 * install, uninstall, status"). Every file is read and checked before the first is written, so bad
 * input writes nothing; install writes only what changes (installing twice is installing once);
 * uninstall puts back the bytes that were there before install when the file has not changed since,
 * else takes out exactly turndiff's entries.
 */
final class HookInstaller {

  static final String PLUGIN_RESOURCE = "turndiff.ts";

  private static final DateTimeFormatter BACKUP_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final UserDirectories user;
  private final PrintWriter out;
  private final PrintWriter err;

  HookInstaller(UserDirectories user, PrintWriter out, PrintWriter err) {
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
      String added) {

    boolean changes() {
      return before.isEmpty() || !Arrays.equals(before.get(), after);
    }
  }

  /** What {@code hooks install} asked for. */
  record Request(
      HookRuntime runtime, HookScope scope, Path workspace, boolean gitRoot, boolean track) {}

  /** A new directory for the backups of one run: {@code <UTC time>-<runtime>-<what>}. */
  private Path backupDirectory(HookRuntime runtime, String what) {
    return user.turndiffState()
        .resolve("hooks-backups")
        .resolve(BACKUP_TIME.format(Instant.now()) + "-" + runtime.id() + "-" + what);
  }

  /** Installs; returns whether a file changed. */
  boolean install(Request request) {
    HookRuntime runtime = request.runtime();
    HookScript script = HookScript.find(user.environment());
    boolean autoTrack = request.scope() == HookScope.USER && request.track();
    String command = script.command(runtime, request.gitRoot(), autoTrack);
    Path file = user.settingsFile(runtime, request.scope(), request.workspace());
    List<Edit> edits = new ArrayList<>();
    if (runtime == HookRuntime.OPENCODE) {
      edits.add(pluginEdit(file, script.home(), request.gitRoot(), autoTrack));
    } else {
      RuntimeSettings.Merged merged = jsonEdit(runtime, file, command, edits);
      if (runtime == HookRuntime.CODEX) {
        edits.add(trustEdit(user.codexHome().resolve("config.toml"), file, command, merged));
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
      Path target = ConfigFiles.writeTarget(edit.file());
      if (!target.equals(edit.file())) {
        out.println(
            edit.file()
                + " is reached through a symbolic link: writing "
                + target
                + " (the link stays a link)");
      }
      List<Path> createdDirectories = ConfigFiles.createDirectories(target.getParent());
      String beforeSha = edit.before().map(ConfigFiles::sha256).orElse(null);
      HookLedger.ChangedFile change;
      if (prior.isPresent() && prior.get().afterSha256().equals(beforeSha)) {
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
                first.createdEvents(),
                first.createdHooks(),
                edit.added() == null ? first.added() : edit.added());
      } else {
        String backup =
            edit.before()
                .map(
                    bytes ->
                        ConfigFiles.backup(backups, edit.file().getFileName().toString(), bytes)
                            .toString())
                .orElse(null);
        if (backup != null) {
          out.println("backup of " + edit.file() + ": " + backup);
        }
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
                edit.added());
      }
      ConfigFiles.writeAtomically(
          target,
          edit.after(),
          edit.kind().equals("block") ? ConfigFiles.PRIVATE_FILE : ConfigFiles.SHARED_FILE);
      out.println(runtime.id() + ": wrote " + edit.file());
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

  private RuntimeSettings.Merged jsonEdit(
      HookRuntime runtime, Path file, String command, List<Edit> edits) {
    Optional<byte[]> before = ConfigFiles.read(file);
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
    // an unchanged tree keeps the file's bytes as they are, formatting included
    byte[] after = before.isPresent() && merged.sameTree(settings) ? before.get() : merged.bytes();
    edits.add(
        new Edit(file, "json", before, after, result.createdEvents(), result.createdHooks(), null));
    return result;
  }

  private Edit trustEdit(
      Path config, Path hooksFile, String command, RuntimeSettings.Merged merged) {
    if (hooksFile.toString().chars().anyMatch(Character::isISOControl)) {
      throw RuntimeSettings.refused(
          config,
          "the path of " + hooksFile + " holds a control character, which a trust key cannot");
    }
    Optional<byte[]> before = ConfigFiles.read(config);
    String text = before.map(bytes -> RuntimeSettings.utf8(config, bytes)).orElse("");
    refuseDisabledHooks(config, text);
    String block = CodexTrust.block(hooksFile, command, merged.groupIndexes());
    int start = CodexTrust.blockStart(text, hooksFile);
    String after;
    String added;
    if (start >= 0) {
      int end = CodexTrust.blockEnd(text, start);
      if (end < 0) {
        throw RuntimeSettings.refused(
            config, "it holds the start of turndiff's trust block but not its end line");
      }
      after = text.substring(0, start) + block + text.substring(end);
      added = null;
    } else {
      for (HookRuntime.Event event : HookRuntime.CODEX.events()) {
        String header =
            CodexTrust.header(
                CodexTrust.key(hooksFile, event, merged.groupIndexes().get(event.name())));
        if (text.contains(header)) {
          throw RuntimeSettings.refused(
              config, "it already has " + header + " (remove it, turndiff writes its own)");
        }
      }
      added = CodexTrust.separator(text) + block;
      after = text + added;
    }
    if (!text.contains("[projects.\"" + hooksFile.getParent().getParent() + "\"]")
        && hooksFile.getParent().getFileName().toString().equals(".codex")
        && !hooksFile.getParent().equals(user.codexHome())) {
      err.println(
          "turndiff: note: Codex runs a project's hooks only in a project it trusts; "
              + config
              + " has no [projects.\""
              + hooksFile.getParent().getParent()
              + "\"] trust_level = \"trusted\" (Codex asks when you open the project)");
    }
    return new Edit(
        config, "block", before, after.getBytes(StandardCharsets.UTF_8), List.of(), false, added);
  }

  /** Refuses a {@code config.toml} whose {@code [features]} turn hooks off. */
  private static void refuseDisabledHooks(Path config, String text) {
    String table = "";
    for (String line : text.lines().map(String::strip).toList()) {
      if (line.startsWith("[")) {
        table = line.replaceAll("\\s+", "");
      } else if ((table.equals("[features]") && line.matches("hooks\\s*=\\s*false(\\s*#.*)?"))
          || (table.isEmpty() && line.matches("features\\.hooks\\s*=\\s*false(\\s*#.*)?"))) {
        throw RuntimeSettings.refused(
            config, "its [features] hooks = false turns Codex's hooks off; set it to true first");
      }
    }
  }

  private Edit pluginEdit(Path file, Path home, boolean gitRoot, boolean autoTrack) {
    byte[] after =
        OpenCodePlugin.configured(pluginSource(), home.toString(), gitRoot, autoTrack)
            .getBytes(StandardCharsets.UTF_8);
    Optional<byte[]> before = ConfigFiles.read(file);
    if (before.isPresent()
        && !Arrays.equals(before.get(), after)
        && !RuntimeSettings.utf8(file, before.get()).contains(OpenCodePlugin.MARK)) {
      throw RuntimeSettings.refused(
          file, "a file of that name is there and it is not turndiff's plugin");
    }
    return new Edit(file, "file", before, after, List.of(), false, null);
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
  boolean uninstall(HookRuntime runtime, HookScope scope, Path workspace) {
    Path ledgerFile = HookLedger.file(user);
    HookLedger ledger = HookLedger.load(ledgerFile);
    Optional<HookLedger.Installed> installed = ledger.find(runtime, scope, workspace);
    if (installed.isEmpty()) {
      return uninstallUnrecorded(runtime, user.settingsFile(runtime, scope, workspace));
    }
    Path backups = backupDirectory(runtime, "uninstall");
    for (HookLedger.ChangedFile changed : installed.get().files().reversed()) {
      Path file = Path.of(changed.path());
      Optional<byte[]> now = ConfigFiles.read(file);
      if (now.isEmpty()) {
        err.println("turndiff: " + file + " is gone already");
        continue;
      }
      if (ConfigFiles.sha256(now.get()).equals(changed.afterSha256())) {
        putBack(file, changed);
        continue;
      }
      // changed since install: take out exactly turndiff's part, keep the rest
      switch (changed.kind()) {
        case "json" -> {
          RuntimeSettings settings = RuntimeSettings.parse(file, now.get());
          int removed =
              settings.remove(
                  runtime, new HashSet<>(changed.createdEvents()), changed.createdHooks());
          if (removed > 0) {
            ConfigFiles.backup(backups, file.getFileName().toString(), now.get());
            ConfigFiles.writeAtomically(
                ConfigFiles.writeTarget(file), settings.bytes(), ConfigFiles.SHARED_FILE);
            out.println(
                runtime.id()
                    + ": "
                    + file
                    + " changed since install: took out turndiff's "
                    + removed
                    + " hooks, kept the rest");
          }
        }
        case "block" -> {
          String text = RuntimeSettings.utf8(file, now.get());
          String after = withoutBlock(text, changed.added(), trustedHooksFile(installed.get()));
          if (!after.equals(text)) {
            ConfigFiles.backup(backups, file.getFileName().toString(), now.get());
            ConfigFiles.writeAtomically(
                ConfigFiles.writeTarget(file),
                after.getBytes(StandardCharsets.UTF_8),
                ConfigFiles.PRIVATE_FILE);
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

  /** The hooks file whose trust a Codex installation wrote: its {@code json} file. */
  private static Path trustedHooksFile(HookLedger.Installed installed) {
    return installed.files().stream()
        .filter(file -> file.kind().equals("json"))
        .map(file -> Path.of(file.path()))
        .findFirst()
        .orElse(Path.of("/"));
  }

  /** Puts back what was there before install: the backup's bytes, or no file. */
  private void putBack(Path file, HookLedger.ChangedFile changed) {
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
      ConfigFiles.writeAtomically(ConfigFiles.writeTarget(file), original, ConfigFiles.SHARED_FILE);
      out.println("restored " + file + " as it was before install");
    } else {
      ConfigFiles.delete(file);
      ConfigFiles.removeEmptyDirectories(
          changed.createdDirectories().stream().map(Path::of).toList());
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
  private boolean uninstallUnrecorded(HookRuntime runtime, Path file) {
    if (runtime == HookRuntime.OPENCODE) {
      out.println(runtime.id() + ": not installed (no record of an installation)");
      return false;
    }
    Optional<byte[]> now = ConfigFiles.read(file);
    if (now.isEmpty()) {
      out.println(runtime.id() + ": not installed");
      return false;
    }
    RuntimeSettings settings = RuntimeSettings.parse(file, now.get());
    int removed = settings.remove(runtime, null, false);
    if (removed == 0) {
      out.println(runtime.id() + ": not installed in " + file);
      return false;
    }
    Path backups = backupDirectory(runtime, "uninstall");
    ConfigFiles.backup(backups, file.getFileName().toString(), now.get());
    ConfigFiles.writeAtomically(
        ConfigFiles.writeTarget(file), settings.bytes(), ConfigFiles.SHARED_FILE);
    out.println(
        runtime.id() + ": took turndiff's " + removed + " hooks out of " + file + " (no record)");
    return true;
  }
}
