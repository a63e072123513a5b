package io.turndiff.hooks.install;

import io.turndiff.ownfiles.Proc;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The agent runtimes' processes the user runs now, and the directory each works in: evidence, from
 * outside the hooks, that a runtime is at work in a workspace ({@link ProcessEvidence}). Read from
 * Linux's {@code /proc} ({@link Proc}): each process's owner, command line, executable's name and
 * working directory's name. Another user's process is passed over before anything of it is read but
 * its owner; no file of a workspace is opened, no link followed: the working directory is the name
 * {@code readlink /proc/PID/cwd} gives, compared as a name.
 *
 * <p>How each pinned runtime runs, read from its npm install (the ITs' kits in {@code
 * integrations/}):
 *
 * <ul>
 *   <li><b>Claude Code</b> 2.1.332: one native executable, {@code claude} in the platform package
 *       {@code @anthropic-ai/claude-code-linux-x64}, which the wrapper package's postinstall copies
 *       over {@code bin/claude.exe} (the native installer keeps it as {@code
 *       ~/.local/share/claude/versions/<version>}, run through the link {@code claude}); without
 *       the postinstall, {@code node cli-wrapper.cjs} runs the native one as its child.
 *   <li><b>Codex</b> 0.171.0: {@code node bin/codex.js}, which runs the native {@code codex} of
 *       {@code @openai/codex-linux-x64}: on Node 20 as its child, waited for; on a Node with {@code
 *       process.execve} in its own place, one process.
 *   <li><b>Gemini CLI</b> 0.61.0: {@code node bundle/gemini.js} (through the link {@code gemini}),
 *       which starts itself again as a child with a larger heap unless {@code
 *       GEMINI_CLI_NO_RELAUNCH} is set.
 * </ul>
 *
 * So a runtime is known by its executable's name or the name it was run by ({@code claude}, {@code
 * claude.exe}, {@code codex}), or, run by Node, by its script's ({@code gemini}, {@code gemini.js},
 * {@code codex.js}, the wrapper's {@code cli-wrapper.cjs}) in its package's folder or through the
 * link npm makes. Where Node runs a runtime's script as the parent of that runtime's process, the
 * child is the one kept: it is the process that works, the one whose hook calls name it (the hook
 * script names its nearest ancestor that is not a shell). A native runtime is never taken for a
 * wrapper: the native {@code codex} and {@code claude} start children of their own executable (a
 * helper run under another {@code argv[0]}, or a child between its {@code fork} and its {@code
 * exec}, which still has the parent's executable and command line), and such a child, seconds old,
 * would otherwise hide the runtime that has worked for minutes. What this does not see: a runtime
 * renamed, run through another interpreter, or in another PID namespace (a container), and every
 * process where there is no {@code /proc}.
 */
public final class RuntimeProcesses {

  /** How much of a command line is read: enough for the interpreter's options and the script. */
  static final int COMMAND_LINE_BYTES = 16 * 1024;

  private static final Set<String> CLAUDE_EXECUTABLES = Set.of("claude", "claude.exe");
  private static final Set<String> CODEX_EXECUTABLES = Set.of("codex");

  /**
   * One runtime's process: which runtime, its pid and when it started, and the directory it works
   * in (as {@code /proc} names it: the real path).
   */
  public record Seen(HookRuntime runtime, long pid, Instant startedAt, Path directory) {}

  /** Each runtime process of this user's that runs now, the child where it runs as two. */
  public List<Seen> running() {
    List<Seen> found = new ArrayList<>();
    Map<Long, Long> parentOf = new HashMap<>();
    Set<Long> runByNode = new HashSet<>();
    for (long pid : Proc.pids()) {
      if (!Proc.ofThisUser(pid)) {
        continue; // another user's: nothing more of it is read
      }
      Optional<Path> executable = Proc.executable(pid);
      List<String> commandLine = Proc.commandLine(pid, COMMAND_LINE_BYTES);
      Optional<HookRuntime> runtime = runtimeOf(executable, commandLine);
      if (runtime.isEmpty()) {
        continue;
      }
      Optional<ProcessHandle> handle = ProcessHandle.of(pid);
      Optional<Instant> started = handle.flatMap(h -> h.info().startInstant());
      Optional<Path> directory = Proc.workingDirectory(pid);
      if (started.isPresent() && directory.isPresent()) {
        found.add(new Seen(runtime.get(), pid, started.get(), directory.get()));
        if (runByNode(executable, commandLine)) {
          runByNode.add(pid);
        }
        handle.flatMap(ProcessHandle::parent).ifPresent(parent -> parentOf.put(pid, parent.pid()));
      }
    }
    // The line that decides what is a wrapper: a Node process running a runtime's script whose
    // child is that runtime (codex.js and its native codex, gemini.js started again with a larger
    // heap, cli-wrapper.cjs and its native claude). Only Node's are: a native runtime's child of
    // the same executable is a helper or a fork about to exec (seen with the real Codex held at a
    // prompt: the native codex was hidden behind such a child in 2 of 4 runs), never the runtime.
    Set<Long> wrappers = new HashSet<>();
    for (Seen child : found) {
      Long parent = parentOf.get(child.pid());
      if (parent != null
          && runByNode.contains(parent)
          && found.stream().anyMatch(p -> p.runtime() == child.runtime() && p.pid() == parent)) {
        wrappers.add(parent);
      }
    }
    return found.stream().filter(seen -> !wrappers.contains(seen.pid())).toList();
  }

  /**
   * Which runtime a process is, from the name of its executable and its command line; empty for
   * every other process. This is the line that decides what counts as a runtime: the shapes the
   * class's doc lists, and nothing broader (a file merely named like a runtime's, opened by an
   * editor, is an argument after the script, not the script).
   */
  static Optional<HookRuntime> runtimeOf(Optional<Path> executable, List<String> commandLine) {
    if (commandLine.isEmpty()) {
      return Optional.empty(); // a kernel thread, or gone
    }
    String executableName = executable.map(RuntimeProcesses::name).orElse("");
    String runAs = name(commandLine.getFirst());
    if (CLAUDE_EXECUTABLES.contains(executableName) || CLAUDE_EXECUTABLES.contains(runAs)) {
      return Optional.of(HookRuntime.CLAUDE_CODE);
    }
    if (CODEX_EXECUTABLES.contains(executableName) || CODEX_EXECUTABLES.contains(runAs)) {
      return Optional.of(HookRuntime.CODEX);
    }
    if (executableName.startsWith("node") || runAs.startsWith("node")) {
      return script(commandLine).flatMap(RuntimeProcesses::runtimeOfScript);
    }
    return Optional.empty();
  }

  /** Whether the process is Node (by its executable's name or the name it was run by). */
  private static boolean runByNode(Optional<Path> executable, List<String> commandLine) {
    String executableName = executable.map(RuntimeProcesses::name).orElse("");
    return executableName.startsWith("node")
        || (!commandLine.isEmpty() && name(commandLine.getFirst()).startsWith("node"));
  }

  /** The script Node was given: its first argument that is not an option of Node's. */
  private static Optional<String> script(List<String> commandLine) {
    return commandLine.stream().skip(1).filter(argument -> !argument.startsWith("-")).findFirst();
  }

  private static Optional<HookRuntime> runtimeOfScript(String script) {
    String path = script.replace('\\', '/');
    String name = name(path);
    if (name.equals("gemini")
        || (name.equals("gemini.js") && path.contains("/@google/gemini-cli/"))) {
      return Optional.of(HookRuntime.GEMINI);
    }
    if (name.equals("codex") || (name.equals("codex.js") && path.contains("/@openai/codex/"))) {
      return Optional.of(HookRuntime.CODEX);
    }
    if (name.equals("claude")
        || (name.equals("cli-wrapper.cjs") && path.contains("/@anthropic-ai/claude-code/"))) {
      return Optional.of(HookRuntime.CLAUDE_CODE);
    }
    return Optional.empty();
  }

  private static String name(Path path) {
    Path name = path.getFileName();
    return name == null ? "" : name.toString();
  }

  private static String name(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }
}
