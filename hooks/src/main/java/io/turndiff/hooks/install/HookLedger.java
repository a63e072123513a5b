package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The record of what {@code turndiff hooks install} changed, {@code
 * $XDG_STATE_HOME/turndiff/hooks-installed.json} (0600): per installation (runtime, scope,
 * workspace) each file it wrote — whether it existed, its SHA-256 before and after, the backup of
 * its old bytes, the directories install made, the events and the {@code hooks} object it created,
 * and for Codex's {@code config.toml} the exact text it appended — so that uninstall puts back
 * exactly what was there.
 */
public record HookLedger(List<Installed> installations) {

  public HookLedger {
    installations = List.copyOf(installations);
  }

  /** One installation. */
  public record Installed(
      String runtime, String scope, String workspace, String command, List<ChangedFile> files) {

    public Installed {
      files = List.copyOf(files);
    }

    boolean is(HookRuntime runtime, HookScope scope, Path workspace) {
      return this.runtime.equals(runtime.id())
          && this.scope.equals(scope.label())
          && Objects.equals(this.workspace, workspace == null ? null : workspace.toString());
    }

    Optional<ChangedFile> file(Path path) {
      return files.stream().filter(file -> file.path().equals(path.toString())).findFirst();
    }
  }

  /**
   * One file install wrote. {@code kind}: {@code json} (settings merged as a tree), {@code block}
   * (text appended: {@code added}), {@code file} (a whole file: the OpenCode plugin), {@code mcp}
   * (a JSON file install put only its MCP server in: Claude Code's {@code .mcp.json} or {@code
   * ~/.claude.json}). {@code createdMcpKeys}: the top-level keys the MCP server's entry created
   * ({@code mcpServers}, {@code enabledMcpjsonServers}).
   */
  record ChangedFile(
      String path,
      String kind,
      boolean existed,
      String beforeSha256,
      String afterSha256,
      String backup,
      List<String> createdDirectories,
      List<String> createdEvents,
      boolean createdHooks,
      String added,
      List<String> createdMcpKeys) {

    ChangedFile {
      createdDirectories = List.copyOf(createdDirectories);
      createdEvents = List.copyOf(createdEvents);
      // a record written before install registered the MCP server has none
      createdMcpKeys = createdMcpKeys == null ? List.of() : List.copyOf(createdMcpKeys);
    }
  }

  public static Path file(UserDirectories user) {
    return user.turndiffState().resolve("hooks-installed.json");
  }

  public static HookLedger load(Path file) {
    Optional<byte[]> bytes = ConfigFiles.read(file);
    if (bytes.isEmpty()) {
      return new HookLedger(List.of());
    }
    return Json.read(new String(bytes.get(), StandardCharsets.UTF_8), HookLedger.class)
        .orElseThrow(
            () ->
                new CliException(
                    ExitCode.ERROR,
                    "turndiff's record of installed hooks "
                        + file
                        + " cannot be read; move it away to go on"));
  }

  void save(Path file) {
    ConfigFiles.createDirectories(file.getParent());
    ConfigFiles.writeAtomically(
        file,
        (Json.write(this, true) + "\n").getBytes(StandardCharsets.UTF_8),
        ConfigFiles.PRIVATE_FILE);
  }

  Optional<Installed> find(HookRuntime runtime, HookScope scope, Path workspace) {
    return installations.stream()
        .filter(installed -> installed.is(runtime, scope, workspace))
        .findFirst();
  }

  /**
   * This ledger with {@code installed} in place of the entry of its runtime, scope and workspace.
   */
  HookLedger with(Installed installed) {
    List<Installed> kept = new ArrayList<>();
    boolean replaced = false;
    for (Installed entry : installations) {
      if (sameKey(entry, installed)) {
        kept.add(installed);
        replaced = true;
      } else {
        kept.add(entry);
      }
    }
    if (!replaced) {
      kept.add(installed);
    }
    return new HookLedger(kept);
  }

  HookLedger without(Installed installed) {
    return new HookLedger(
        installations.stream().filter(entry -> !sameKey(entry, installed)).toList());
  }

  private static boolean sameKey(Installed one, Installed other) {
    return one.runtime().equals(other.runtime())
        && one.scope().equals(other.scope())
        && Objects.equals(one.workspace(), other.workspace());
  }
}
