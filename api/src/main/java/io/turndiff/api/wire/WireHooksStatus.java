package io.turndiff.api.wire;

import java.util.List;

/**
 * {@code turndiff hooks status --json}: per runtime and scope, what of turndiff's hooks is in the
 * runtime's settings; then the workspace and the service the hooks reach, and which hooks a runtime
 * started in the directory status runs in would run; {@code sessionFiles}, each runtime whose own
 * session files show it worked in the workspace while none of its hooks arrived (empty: none does);
 * and {@code processes}, each runtime process at work in the workspace, its session file growing,
 * while none of its hooks arrived (empty: none is).
 */
public record WireHooksStatus(
    List<Installation> installations,
    String hooksStore,
    Workspace workspace,
    Service service,
    Here here,
    List<WireSessionFileEvidence> sessionFiles,
    List<WireProcessEvidence> processes) {

  public WireHooksStatus {
    sessionFiles = List.copyOf(sessionFiles);
    processes = List.copyOf(processes);
  }

  /** A status whose evidence from outside the hooks is yet to be looked at. */
  public WireHooksStatus(
      List<Installation> installations,
      String hooksStore,
      Workspace workspace,
      Service service,
      Here here,
      List<WireSessionFileEvidence> sessionFiles) {
    this(installations, hooksStore, workspace, service, here, sessionFiles, List.of());
  }

  /** This status with {@code evidence} as what the runtimes' session files showed. */
  public WireHooksStatus withSessionFiles(List<WireSessionFileEvidence> evidence) {
    return new WireHooksStatus(
        installations, hooksStore, workspace, service, here, evidence, processes);
  }

  /** This status with {@code evidence} as what the runtimes' processes showed. */
  public WireHooksStatus withProcesses(List<WireProcessEvidence> evidence) {
    return new WireHooksStatus(
        installations, hooksStore, workspace, service, here, sessionFiles, evidence);
  }

  /**
   * One runtime in one scope. {@code installed}: turndiff's hooks (OpenCode: its plugin) are in
   * {@code file}; {@code current}: they are those install writes; {@code commands}: the distinct
   * hook commands of turndiff's found; {@code scriptExecutable}: the script they name is an
   * executable file (null: no command); {@code codexTrusted}: Codex's config.toml trusts each of
   * them (null: not Codex, or not installed); {@code recorded}: install's record of the file is
   * there, so uninstall puts it back byte for byte; {@code mcpServer}: the file that registers
   * turndiff's MCP server with the runtime in this scope (null: none does).
   */
  public record Installation(
      String runtime,
      String scope,
      String file,
      boolean installed,
      boolean current,
      boolean recorded,
      List<String> commands,
      Boolean scriptExecutable,
      Boolean codexTrusted,
      List<String> notes,
      String mcpServer) {}

  /** The workspace asked about, and whether the hooks' store tracks it (null: no store yet). */
  public record Workspace(String path, Boolean tracked) {}

  /**
   * The service of the hooks' store. {@code problem}: why it cannot be used at all (a run directory
   * that is refused), null when it can. {@code sightings}: what the hook calls it received since it
   * started showed of each runtime in the workspace (its directory or one below it), observed, not
   * configured; empty when it does not run.
   */
  public record Service(
      boolean running, Long pid, Integer port, String problem, List<WireHookSighting> sightings) {

    public Service {
      sightings = List.copyOf(sightings);
    }
  }

  /**
   * The directory status runs in, and each installation a runtime started there would run, or not.
   */
  public record Here(String directory, List<Loading> loadings) {

    public Here {
      loadings = List.copyOf(loadings);
    }
  }

  /**
   * One installation ({@code scope} {@code user}, or {@code workspace} with its {@code workspace})
   * as a runtime started here takes it: {@code loads}, {@code why} in words, and {@code instead}
   * what works when it does not (null when it does).
   */
  public record Loading(
      String runtime, String scope, String workspace, boolean loads, String why, String instead) {}
}
