package io.turndiff.hooks.install;

import static io.turndiff.hooks.install.HookCallsKept.claudeSighting;
import static io.turndiff.hooks.install.HookCallsKept.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.wire.WireSessionFileEvidence;
import io.turndiff.hooks.install.RuntimeSessionFiles.SessionFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtimes' session files, laid out in a temporary home as Claude Code 2.1.332, Codex 0.171.0
 * and Gemini CLI 0.61.0 lay them out (names, folders, Codex's first record with its long
 * instructions, Gemini's project registry), found for the workspace they belong to and for no
 * other; links and what they lead to never read; and the evidence drawn from them against the hook
 * calls kept.
 */
class RuntimeSessionFilesTest {

  private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
  private static final Instant EARLIER = Instant.parse("2026-12-03T11:00:00Z");

  @TempDir Path temp;

  private Path home;
  private Path workspace;
  private RuntimeSessionFiles files;

  @BeforeEach
  void setUp() throws IOException {
    home = Files.createDirectories(temp.resolve("home"));
    workspace = Files.createDirectories(temp.resolve("work/my ws"));
    files =
        new RuntimeSessionFiles(
            new UserDirectories(Map.of("HOME", home.toString())), ZoneOffset.UTC);
  }

  // ---- Claude Code

  @Test
  void claudeCodesSessionIsFoundInTheFolderItNamesAfterTheWorkspace() throws IOException {
    String session = UUID.randomUUID().toString();
    Path folder = claudeFolder(workspace);
    Path file = written(folder.resolve(session + ".jsonl"), "{}\n", NOW.minusSeconds(60));
    written(claudeFolder(temp.resolve("work/my ws-other")).resolve("x.jsonl"), "{}\n", NOW);

    List<SessionFile> found = claude(workspace, EARLIER);

    assertEquals(List.of(file), found.stream().map(SessionFile::file).toList());
    assertEquals(Optional.of(session), found.getFirst().session());
    assertEquals(NOW.minusSeconds(60), found.getFirst().writtenAt());
    assertTrue(found.getFirst().isOf(session));
    assertEquals(List.of(), claude(workspace, NOW.minusSeconds(30)), "written before `after`");
  }

  @Test
  void claudeCodesFolderNameIsItsOwnUtf16UnitsNotCodePoints() {
    // JavaScript's replace(/[^a-zA-Z0-9]/g, "-") sees a surrogate pair as two units
    assertEquals(
        "-home-u-my-ws-a-b---c",
        RuntimeSessionFiles.claudeFolderName("/home/u/my ws/a.b_\uD83D\uDE00c"));
    assertEquals("-a-b-c1", RuntimeSessionFiles.claudeFolderName("/a.b_c1"));
    assertEquals("-x--", RuntimeSessionFiles.claudeFolderName("/x\uD83D\uDE00"));
  }

  @Test
  void aLongPathsFolderIsFoundByItsFirst200Characters() throws IOException {
    Path deep = workspace.resolve("d".repeat(120)).resolve("e".repeat(120));
    String name = RuntimeSessionFiles.claudeFolderName(deep.toString());
    Path file =
        written(
            home.resolve(".claude/projects")
                .resolve(name.substring(0, 200) + "-1x2y3z")
                .resolve("s.jsonl"),
            "{}\n",
            NOW);
    assertEquals(List.of(file), claude(deep, EARLIER).stream().map(SessionFile::file).toList());
  }

  @Test
  void aSessionStartedInASubdirectoryIsFoundWhenStatusRunsThere() throws IOException {
    Path src = Files.createDirectories(workspace.resolve("src"));
    Path file = written(claudeFolder(src).resolve("s.jsonl"), "{}\n", NOW);
    assertEquals(List.of(), claude(workspace, EARLIER));
    assertEquals(
        List.of(file),
        files.written(HookRuntime.CLAUDE_CODE, List.of(workspace), src, EARLIER).stream()
            .map(SessionFile::file)
            .toList());
    Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));
    written(claudeFolder(elsewhere).resolve("t.jsonl"), "{}\n", NOW);
    assertEquals(
        List.of(),
        files.written(HookRuntime.CLAUDE_CODE, List.of(workspace), elsewhere, EARLIER),
        "a directory outside the workspace is not the workspace's");
  }

  @Test
  void claudeCodesConfigDirectoryIsTakenFromTheEnvironment() throws IOException {
    Path config = temp.resolve("claude-config");
    Path file =
        written(
            config
                .resolve("projects")
                .resolve(RuntimeSessionFiles.claudeFolderName(workspace.toString()))
                .resolve("s.jsonl"),
            "{}\n",
            NOW);
    RuntimeSessionFiles configured =
        new RuntimeSessionFiles(
            new UserDirectories(
                Map.of("HOME", home.toString(), "CLAUDE_CONFIG_DIR", config.toString())),
            ZoneOffset.UTC);
    assertEquals(
        List.of(file),
        configured.written(HookRuntime.CLAUDE_CODE, List.of(workspace), workspace, EARLIER).stream()
            .map(SessionFile::file)
            .toList());
  }

  @Test
  void linksAreNotFollowedNeitherAFileNorAFolder() throws IOException {
    Path outside = written(temp.resolve("outside/secret.jsonl"), "{}\n", NOW);
    Path folder = claudeFolder(workspace);
    Files.createDirectories(folder);
    Files.createSymbolicLink(folder.resolve("linked.jsonl"), outside);
    assertEquals(List.of(), claude(workspace, EARLIER), "a file that is a link");

    Files.delete(folder.resolve("linked.jsonl"));
    Files.delete(folder);
    Files.createSymbolicLink(folder, outside.getParent());
    assertEquals(List.of(), claude(workspace, EARLIER), "a folder that is a link");

    Path projects = home.resolve(".claude/projects");
    Path real = Files.createDirectories(temp.resolve("real-projects"));
    written(real.resolve(folder.getFileName()).resolve("s.jsonl"), "{}\n", NOW);
    deleteTree(projects);
    Files.createSymbolicLink(projects, real);
    assertEquals(List.of(), claude(workspace, EARLIER), "the projects folder a link");
  }

  // ---- Codex

  @Test
  void codexsSessionIsFoundByTheDirectoryInItsFirstRecordReadBounded() throws IOException {
    String session = "019a1b2c-3d4e-7f60-8a9b-0c1d2e3f4a5b";
    Path day = home.resolve(".codex/sessions/2026/12/03");
    Path mine =
        written(
            day.resolve("rollout-2026-12-03T11-58-00-" + session + ".jsonl"),
            codexFirstRecord(session, workspace.resolve("sub"), 200_000)
                + "\n"
                + "{\"type\":\"response_item\"}\n",
            NOW.minusSeconds(60));
    written(
        day.resolve("rollout-2026-12-03T11-59-00-019a1b2c-3d4e-7f60-8a9b-0c1d2e3f4a5c.jsonl"),
        codexFirstRecord("other", temp.resolve("work/my ws-other"), 10) + "\n",
        NOW);
    // the directory after the bound: not known, so not counted
    written(
        day.resolve("rollout-2026-12-03T11-59-30-019a1b2c-3d4e-7f60-8a9b-0c1d2e3f4a5d.jsonl"),
        "{\"type\":\"session_meta\",\"payload\":{\"base_instructions\":\""
            + "x".repeat(RuntimeSessionFiles.FIRST_LINE_BYTES)
            + "\",\"cwd\":\""
            + workspace
            + "\"}}\n",
        NOW);
    // an old day's folder is not listed
    written(
        home.resolve(
            ".codex/sessions/2026/11/01/rollout-2026-11-01T10-00-00-" + session + ".jsonl"),
        codexFirstRecord(session, workspace, 10) + "\n",
        NOW);

    List<SessionFile> found =
        files.written(HookRuntime.CODEX, List.of(workspace), workspace, EARLIER);

    assertEquals(List.of(mine), found.stream().map(SessionFile::file).toList());
    assertEquals(Optional.of(session), found.getFirst().session());
    assertEquals(Optional.of(workspace.resolve("sub")), RuntimeSessionFiles.codexDirectory(mine));
  }

  @Test
  void codexHomeIsTakenFromTheEnvironmentAndALinkedSessionIsNotRead() throws IOException {
    Path codexHome = temp.resolve("codex-home");
    Path outside =
        written(
            temp.resolve("outside/rollout.jsonl"),
            codexFirstRecord("x", workspace, 10) + "\n",
            NOW);
    Path day = Files.createDirectories(codexHome.resolve("sessions/2026/12/03"));
    Files.createSymbolicLink(
        day.resolve("rollout-2026-12-03T11-00-00-019a1b2c-3d4e-7f60-8a9b-0c1d2e3f4a5b.jsonl"),
        outside);
    Path real =
        written(
            day.resolve("rollout-2026-12-03T11-01-00-019a1b2c-3d4e-7f60-8a9b-0c1d2e3f4a5e.jsonl"),
            codexFirstRecord("y", workspace, 10) + "\n",
            NOW);
    RuntimeSessionFiles configured =
        new RuntimeSessionFiles(
            new UserDirectories(
                Map.of("HOME", home.toString(), "CODEX_HOME", codexHome.toString())),
            ZoneOffset.UTC);
    assertEquals(
        List.of(real),
        configured.written(HookRuntime.CODEX, List.of(workspace), workspace, EARLIER).stream()
            .map(SessionFile::file)
            .toList());
  }

  // ---- Gemini CLI

  @Test
  void geminisSessionIsFoundThroughItsProjectRegistry() throws IOException {
    Path gemini = home.resolve(".gemini");
    written(
        gemini.resolve("projects.json"),
        "{\n  \"projects\": {\n    \""
            + workspace.resolve("pkg")
            + "\": \"pkg\",\n    \""
            + temp.resolve("work/my ws-other")
            + "\": \"my-ws-other\",\n    \""
            + workspace
            + "\": \"../escape\"\n  }\n}",
        NOW);
    Path mine =
        written(
            gemini.resolve("tmp/pkg/chats/session-2026-12-03T11-58-1f2e3d4c.jsonl"),
            "{\"sessionId\":\"1f2e3d4c-aaaa-bbbb-cccc-000000000000\"}\n",
            NOW.minusSeconds(10));
    written(
        gemini.resolve("tmp/my-ws-other/chats/session-2026-12-03T11-59-99999999.jsonl"), "{}", NOW);
    written(gemini.resolve("escape/chats/session-2026-12-03T11-59-88888888.jsonl"), "{}", NOW);

    List<SessionFile> found =
        files.written(HookRuntime.GEMINI, List.of(workspace), workspace, EARLIER);

    assertEquals(List.of(mine), found.stream().map(SessionFile::file).toList());
    assertTrue(found.getFirst().isOf("1f2e3d4c-aaaa-bbbb-cccc-000000000000"));
  }

  // ---- the evidence

  @Test
  void aSessionFileWrittenAfterTheLastHookIsEvidenceAndOneBeforeIsNot() throws IOException {
    String session = UUID.randomUUID().toString();
    Instant written = NOW.minusSeconds(120);
    Path file = written(claudeFolder(workspace).resolve(session + ".jsonl"), "{}\n", written);
    SessionFileEvidence evidence = new SessionFileEvidence(files);

    List<WireSessionFileEvidence> none =
        evidence.look(status(workspace), List.of(workspace), workspace, List.of(), NOW);
    assertEquals(1, none.size(), none.toString());
    assertEquals(
        "hooks may not be firing for claude-code since "
            + written
            + ": its session file "
            + file
            + " was written at "
            + written
            + " and no hook arrived (none from this workspace was kept)",
        none.getFirst().warning());

    Instant lastHook = written.minusSeconds(SessionFileEvidence.GRACE_SECONDS + 1);
    List<WireSessionFileEvidence> before =
        evidence.look(
            status(workspace),
            List.of(workspace),
            workspace,
            List.of(claudeSighting(workspace, "other", lastHook, true)),
            NOW);
    assertEquals(1, before.size());
    assertEquals(lastHook.toString(), before.getFirst().lastHookAt());

    Instant within = written.minusSeconds(SessionFileEvidence.GRACE_SECONDS - 1);
    assertEquals(
        List.of(),
        evidence.look(
            status(workspace),
            List.of(workspace),
            workspace,
            List.of(claudeSighting(workspace, session, within, true)),
            NOW),
        "written within the grace after the last hook: its own end");
    assertEquals(
        List.of(),
        evidence.look(
            status(workspace),
            List.of(workspace),
            workspace,
            List.of(claudeSighting(workspace, session, written.minusSeconds(3600), false)),
            NOW),
        "its prompt is open: a long command writes the transcript with no hook");
  }

  // ---- helpers

  private List<SessionFile> claude(Path directory, Instant after) throws IOException {
    return files.written(HookRuntime.CLAUDE_CODE, List.of(directory), directory, after);
  }

  private Path claudeFolder(Path directory) {
    return home.resolve(".claude/projects")
        .resolve(RuntimeSessionFiles.claudeFolderName(directory.toString()));
  }

  /** Codex's first record as 0.171.0 writes it, its instructions {@code padding} long. */
  private static String codexFirstRecord(String session, Path cwd, int padding) {
    return "{\"timestamp\":\"2026-12-03T11:58:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\""
        + session
        + "\",\"timestamp\":\"2026-12-03T11:58:00.000Z\",\"cwd\":\""
        + cwd
        + "\",\"originator\":\"codex_exec\",\"cli_version\":\"0.171.0\","
        + "\"base_instructions\":{\"text\":\""
        + "y".repeat(padding)
        + "\"}}}";
  }

  private static Path written(Path file, String content, Instant modified) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setLastModifiedTime(file, FileTime.from(modified));
    return file;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
