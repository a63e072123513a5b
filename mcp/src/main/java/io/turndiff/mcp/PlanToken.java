package io.turndiff.mcp;

import io.turndiff.model.PathInput;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The token of a rewind's plan: a SHA-256 over what was asked (the turn, {@code to}, the paths),
 * what the plan decided for each path and directory, and the state of every one of them when the
 * plan was made (type, size, mtime and mode, the content's hash, a link's text). The same request
 * planned again yields the same token exactly while nothing the plan looked at has changed: a file
 * edited, touched, created or removed since, or a later turn, gives another token, and the apply is
 * refused. It is not a secret: an agent that computed it itself would only prove the files are as
 * they are. What it guards is that the plan the agent (and its human, at the runtime's permission
 * prompt) saw is the plan that runs.
 */
final class PlanToken {

  private static final String VERSION = "plan-v1:";

  private PlanToken() {}

  /** The paths whose states the token binds: every path and directory the plan names, in order. */
  static List<WorkspacePath> pathsOf(RewindReport plan) {
    Set<WorkspacePath> paths = new TreeSet<>();
    paths.addAll(plan.restored());
    paths.addAll(plan.merged());
    plan.skipped().forEach(skipped -> paths.add(skipped.path()));
    paths.addAll(plan.unchanged());
    paths.addAll(plan.createdDirectories());
    paths.addAll(plan.removedDirectories());
    paths.addAll(plan.directoryModes());
    return List.copyOf(paths);
  }

  /**
   * The token of {@code plan}, made for {@code turn}, {@code to} and {@code asked}, with {@code
   * statesNow} the states of {@link #pathsOf(RewindReport)} in that order.
   */
  static String of(
      String turn, boolean to, List<PathInput> asked, RewindReport plan, List<Snapshot> statesNow) {
    List<String> lines = new ArrayList<>();
    lines.add(VERSION + turn + (to ? " to" : " only"));
    for (PathInput path : asked) {
      lines.add("asked " + HexFormat.of().formatHex(path.given().bytes()));
    }
    lines.add("turns " + plan.turns());
    section(lines, "restored", plan.restored());
    section(lines, "deleted", plan.deleted());
    section(lines, "merged", plan.merged());
    section(lines, "unchanged", plan.unchanged());
    for (RewindReport.Skipped skipped : plan.skipped()) {
      lines.add("skipped " + hex(skipped.path()) + " " + skipped.reason());
    }
    section(lines, "created-directory", plan.createdDirectories());
    section(lines, "removed-directory", plan.removedDirectories());
    section(lines, "directory-mode", plan.directoryModes());
    for (Snapshot state : statesNow) {
      lines.add("now " + hex(state.path()) + " " + stateOf(state));
    }
    return VERSION + HexFormat.of().formatHex(sha256(String.join("\n", lines)));
  }

  /** What a state is, without when it was read. */
  private static String stateOf(Snapshot state) {
    return state.type().map(Enum::name).orElse("-")
        + " "
        + state.fingerprint()
        + " "
        + state.sha256().map(hash -> hash.hex()).orElse("-")
        + " "
        + state.linkTarget().map(link -> HexFormat.of().formatHex(link.bytes())).orElse("-")
        + " "
        + state.reason().map(Enum::name).orElse("-");
  }

  private static void section(List<String> lines, String name, List<WorkspacePath> paths) {
    for (WorkspacePath path : paths) {
      lines.add(name + " " + hex(path));
    }
  }

  private static String hex(WorkspacePath path) {
    return HexFormat.of().formatHex(path.bytes());
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
