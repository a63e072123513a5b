package io.turndiff.hooks.install;

import static io.turndiff.hooks.install.HookCallsKept.claudeSighting;
import static io.turndiff.hooks.install.HookCallsKept.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.wire.WireProcessEvidence;
import io.turndiff.hooks.install.RuntimeProcesses.Seen;
import io.turndiff.ownfiles.Proc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtimes' processes, found in {@code /proc} as real child processes: a real {@code sleep}
 * started in a directory, and copies of it named as the runtimes' executables are, and Node running
 * scripts where the runtimes' packages keep theirs; and the evidence drawn from them with a session
 * file laid out as Claude Code lays it out.
 */
class RuntimeProcessesTest {

  @TempDir Path temp;

  private final List<Process> started = new ArrayList<>();
  private Path workspace;

  @BeforeEach
  void setUp() throws IOException {
    workspace = Files.createDirectories(temp.resolve("work/my ws")).toRealPath();
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    for (Process process : started) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void procNamesAProcessesDirectoryCommandLineAndOwner() throws Exception {
    Path below = Files.createDirectories(workspace.resolve("src"));
    Process sleep = started(below, "sleep", "60");

    assertTrue(Proc.pids().contains(sleep.pid()));
    assertTrue(Proc.ofThisUser(sleep.pid()));
    assertEquals(Optional.of(below), Proc.workingDirectory(sleep.pid()));
    assertEquals(List.of("sleep", "60"), Proc.commandLine(sleep.pid(), 1024));
    assertEquals(
        Optional.of(Path.of(executable("sleep")).toRealPath()), Proc.executable(sleep.pid()));
    assertEquals(List.of("sleep"), Proc.commandLine(sleep.pid(), 5), "at most 5 bytes read");

    sleep.destroyForcibly();
    sleep.waitFor(10, TimeUnit.SECONDS);
    assertFalse(Proc.ofThisUser(sleep.pid()), "gone");
    assertEquals(Optional.empty(), Proc.workingDirectory(sleep.pid()));
    assertEquals(List.of(), Proc.commandLine(sleep.pid(), 1024));
  }

  @Test
  void anotherUsersProcessIsPassedOver() throws Exception {
    Object me = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    Object init = Files.getAttribute(Path.of("/proc/1"), "unix:uid");
    assertEquals(me.equals(init), Proc.ofThisUser(1), "pid 1 is this user's exactly when it is");
  }

  @Test
  void theRuntimesNativeExecutablesAreFoundByNameWithTheirDirectory() throws Exception {
    Path bin = Files.createDirectories(temp.resolve("bin"));
    Path below = Files.createDirectories(workspace.resolve("sub"));
    Process claude = started(workspace, copyOfSleep(bin, "claude").toString(), "60");
    Process codex = started(below, copyOfSleep(bin, "codex").toString(), "60");
    Process plain = started(workspace, "sleep", "60");

    List<Seen> running = new RuntimeProcesses().running();

    Seen claudeSeen = only(running, claude.pid());
    assertEquals(HookRuntime.CLAUDE_CODE, claudeSeen.runtime());
    assertEquals(workspace, claudeSeen.directory());
    assertEquals(claude.info().startInstant().orElseThrow(), claudeSeen.startedAt());
    Seen codexSeen = only(running, codex.pid());
    assertEquals(HookRuntime.CODEX, codexSeen.runtime());
    assertEquals(below, codexSeen.directory());
    assertTrue(running.stream().noneMatch(s -> s.pid() == plain.pid()), "sleep is no runtime");
  }

  @Test
  void nodeRunningARuntimesScriptIsThatRuntimeAndAWrappersChildIsTheOneKept() throws Exception {
    Path modules = temp.resolve("lib/node_modules");
    Path gemini =
        script(
            modules.resolve("@google/gemini-cli/bundle/gemini.js"), "setTimeout(() => {}, 60000);");
    Path notGemini = script(temp.resolve("elsewhere/gemini.js"), "setTimeout(() => {}, 60000);");
    Path nativeCodex = copyOfSleep(Files.createDirectories(temp.resolve("bin")), "codex");
    // the shape of @openai/codex's bin/codex.js: the native codex as its child, waited for
    Path codexJs =
        script(
            modules.resolve("@openai/codex/bin/codex.js"),
            "const c = require('child_process').spawn("
                + "'"
                + nativeCodex
                + "', ['60'], {stdio: 'inherit'}); c.on('exit', () => process.exit(0));");
    Process geminiRun = started(workspace, "node", "--no-warnings", gemini.toString(), "-p", "x");
    Process other = started(workspace, "node", notGemini.toString());
    Process wrapper = started(workspace, "node", codexJs.toString(), "exec", "x");
    ProcessHandle child = childOf(wrapper);

    List<Seen> running = new RuntimeProcesses().running();

    assertEquals(HookRuntime.GEMINI, only(running, geminiRun.pid()).runtime());
    assertTrue(running.stream().noneMatch(s -> s.pid() == other.pid()), "not gemini's package");
    assertEquals(HookRuntime.CODEX, only(running, child.pid()).runtime());
    assertTrue(running.stream().noneMatch(s -> s.pid() == wrapper.pid()), "the wrapper");
  }

  @Test
  void aNativeRuntimesChildOfItsOwnExecutableDoesNotHideIt() throws Exception {
    // The native codex starts children of its own executable (a helper under another argv[0], or a
    // fork not yet exec'd): a copy of a shell named codex whose child is the same copy, both
    // working in the workspace. The parent is the runtime that works; it must stay in the list.
    Path nativeCodex = copyOf("sh", Files.createDirectories(temp.resolve("bin")), "codex");
    Process codex =
        started(
            workspace, nativeCodex.toString(), "-c", nativeCodex + " -c 'sleep 60; true'; true");
    ProcessHandle helper = childOf(codex);

    List<Seen> running = new RuntimeProcesses().running();

    assertEquals(HookRuntime.CODEX, only(running, codex.pid()).runtime());
    assertEquals(HookRuntime.CODEX, only(running, helper.pid()).runtime());
  }

  @Test
  void runtimeOfReadsTheShapesAndNothingBroader() {
    Optional<Path> node = Optional.of(Path.of("/usr/bin/node"));
    assertEquals(
        Optional.of(HookRuntime.CLAUDE_CODE),
        RuntimeProcesses.runtimeOf(
            Optional.of(Path.of("/home/u/.local/share/claude/versions/2.1.332")),
            List.of("claude", "-p", "hi")));
    assertEquals(
        Optional.of(HookRuntime.CLAUDE_CODE),
        RuntimeProcesses.runtimeOf(
            Optional.of(Path.of("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe")),
            List.of("/usr/bin/claude")));
    assertEquals(
        Optional.of(HookRuntime.GEMINI),
        RuntimeProcesses.runtimeOf(
            node, List.of("node", "--max-old-space-size=4096", "/usr/local/bin/gemini")));
    assertEquals(
        Optional.empty(),
        RuntimeProcesses.runtimeOf(node, List.of("node", "server.js", "gemini")),
        "a runtime's name as an argument after the script");
    assertEquals(
        Optional.empty(),
        RuntimeProcesses.runtimeOf(Optional.of(Path.of("/usr/bin/vim")), List.of("vim", "claude")));
    assertEquals(Optional.empty(), RuntimeProcesses.runtimeOf(Optional.empty(), List.of()));
  }

  // ---- the evidence

  @Test
  void aRuntimeWhoseSessionFileGrewWithNoHookIsFlaggedAnIdleOneIsNot() throws Exception {
    ProcessEvidence evidence = evidence();
    Path below = Files.createDirectories(workspace.resolve("sub"));
    Process claude =
        started(
            below, copyOfSleep(Files.createDirectories(temp.resolve("bin")), "claude") + "", "60");
    Instant start = claude.info().startInstant().orElseThrow();
    Instant later = start.plusSeconds(40);
    String session = UUID.randomUUID().toString();
    Path file = claudeSessionFile(below, session);
    List<Path> names = List.of(workspace);

    written(file, start.minusSeconds(600));
    assertEquals(
        List.of(),
        evidence.look(status(workspace), names, List.of(), later),
        "idle: written before");

    written(file, start.plusSeconds(5));
    List<WireProcessEvidence> found = evidence.look(status(workspace), names, List.of(), later);
    assertEquals(1, found.size(), found.toString());
    WireProcessEvidence seen = found.getFirst();
    assertEquals("claude-code", seen.runtime());
    assertEquals(claude.pid(), seen.pid());
    assertEquals(below.toString(), seen.directory());
    assertEquals(file.toString(), seen.file());
    assertEquals(null, seen.lastHookAt());
    assertTrue(
        seen.warning()
            .startsWith(
                "hooks may not be firing for claude-code: its process "
                    + claude.pid()
                    + " has run in "
                    + below
                    + " since "
                    + start
                    + " and no hook arrived since, while its session file "
                    + file),
        seen.warning());

    assertEquals(
        List.of(),
        evidence.look(status(workspace), names, List.of(), start.plusSeconds(10)),
        "within the grace of its start: its first hook may be on its way");
    assertEquals(
        List.of(),
        evidence.look(
            status(workspace),
            names,
            List.of(claudeSighting(workspace, session, start.plusSeconds(8), true)),
            later),
        "its Stop came, then the file was written: within the grace");
    assertEquals(
        List.of(),
        evidence.look(
            status(workspace),
            names,
            List.of(claudeSighting(workspace, session, start.plusSeconds(1), false)),
            later),
        "its prompt is open: a long command writes the file with no hook");
    assertEquals(
        List.of(),
        evidence.look(status(workspace), List.of(temp.resolve("elsewhere")), List.of(), later),
        "at work in another directory");
    assertEquals(
        1,
        evidence
            .look(
                status(workspace),
                names,
                List.of(claudeSighting(workspace, "other", start.minusSeconds(60), true)),
                later)
            .size(),
        "the last hook came before it started");
  }

  @Test
  void aRuntimeAndAChildOfItsOwnExecutableGetOneWarningNamingTheOldest() throws Exception {
    // The native runtime and a long-lived child of its own executable, both working in the
    // workspace (as the native codex runs its helpers): a copy of a shell named claude whose child
    // is the same copy. Both are runtime processes; the workspace gets one warning, naming the
    // parent, the one that started first.
    ProcessEvidence evidence = evidence();
    Path nativeClaude = copyOf("sh", Files.createDirectories(temp.resolve("bin")), "claude");
    Process claude =
        started(
            workspace, nativeClaude.toString(), "-c", nativeClaude + " -c 'sleep 60; true'; true");
    ProcessHandle helper = childOf(claude);
    Instant start = claude.info().startInstant().orElseThrow();
    written(claudeSessionFile(workspace, UUID.randomUUID().toString()), start.plusSeconds(5));
    List<Seen> running = new RuntimeProcesses().running();
    assertEquals(HookRuntime.CLAUDE_CODE, only(running, claude.pid()).runtime());
    assertEquals(HookRuntime.CLAUDE_CODE, only(running, helper.pid()).runtime());

    List<WireProcessEvidence> found =
        evidence.look(status(workspace), List.of(workspace), List.of(), start.plusSeconds(40));

    assertEquals(1, found.size(), found.toString());
    assertEquals(claude.pid(), found.getFirst().pid());
    assertEquals(start.toString(), found.getFirst().startedAt());
  }

  // ---- helpers

  /** The evidence, with the runtimes' session files in the test's home ({@code temp/home}). */
  private ProcessEvidence evidence() throws IOException {
    Path home = Files.createDirectories(temp.resolve("home"));
    RuntimeSessionFiles files =
        new RuntimeSessionFiles(
            new UserDirectories(Map.of("HOME", home.toString())), ZoneOffset.UTC);
    return new ProcessEvidence(new RuntimeProcesses(), files);
  }

  /** Where Claude Code keeps the session {@code session} it runs in {@code directory}. */
  private Path claudeSessionFile(Path directory, String session) {
    return temp.resolve("home/.claude/projects")
        .resolve(RuntimeSessionFiles.claudeFolderName(directory.toString()))
        .resolve(session + ".jsonl");
  }

  private Process started(Path directory, String... command) throws IOException {
    Process process =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(process);
    return process;
  }

  /** The child {@code parent} started, once it has one. */
  private static ProcessHandle childOf(Process parent) throws InterruptedException {
    for (int i = 0; i < 600; i++) {
      Optional<ProcessHandle> child = parent.children().findFirst();
      if (child.isPresent() && child.get().info().command().isPresent()) {
        return child.get();
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no child of " + parent.pid() + " in 30 s");
  }

  private static Seen only(List<Seen> running, long pid) {
    List<Seen> found = running.stream().filter(s -> s.pid() == pid).toList();
    assertEquals(1, found.size(), "process " + pid + " in " + running);
    return found.getFirst();
  }

  private static String executable(String name) {
    for (String folder : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(folder, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new AssertionError(name + " is not on the PATH");
  }

  /** A copy of {@code sleep} named {@code name}: a real executable of that name. */
  private static Path copyOfSleep(Path folder, String name) throws IOException {
    return copyOf("sleep", folder, name);
  }

  /** A copy of the program {@code program} named {@code name}: a real executable of that name. */
  private static Path copyOf(String program, Path folder, String name) throws IOException {
    Path copy = folder.resolve(name);
    if (!Files.exists(copy)) {
      Files.copy(Path.of(executable(program)), copy);
      Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
    }
    return copy;
  }

  private static Path script(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  private static void written(Path file, Instant modified) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{}\n", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(file, FileTime.from(modified));
  }
}
