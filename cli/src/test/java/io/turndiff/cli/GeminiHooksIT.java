package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.Sha256;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.review.ListedTurn;
import io.turndiff.review.ReviewQueries;
import io.turndiff.review.TurnRecords;
import io.turndiff.store.Store;
import io.turndiff.store.StoredDirectoryChange;
import io.turndiff.store.TurnListing;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11's end to end test: a real Gemini CLI (0.61.0, {@code integrations/gemini-e2e}) runs two
 * prompts of one session headless on scripted model answers, with turndiff's hooks in the
 * workspace's {@code .gemini/settings.json}, {@code bin/turndiff-hook} and the real per-user
 * service of a test store behind them. What lands in the store is held against what really happened
 * on disk: one turn per prompt; every changed file's before and after equal to the trees taken
 * before and after the prompt (bytes, modes, link texts), from the snapshot of the file tools or
 * the finish scan for the shell; a write through a link to an outside file recorded with metadata
 * only and the secret behind it never read; each turn's patch, applied to a copy of the tree before
 * it, gives the tree after it; and rewinding the turns, latest first, gives back each tree before,
 * byte for byte.
 */
class GeminiHooksIT {

  /** What prompt 2's shell command appends to the outside secret through the link. */
  private static final String APPENDED = "appended through the link\n";

  @TempDir Path temp;

  private Path database;
  private Path runDirectory;
  private Map<String, String> env;

  @BeforeEach
  void setUp() {
    database = temp.resolve("store/turndiff.db");
    runDirectory = temp.resolve("xdg-run/turndiff");
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.resolve("home").toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    CliProcess.run(env, "service", "stop", "--force", "--wait", "10");
  }

  @Test
  void twoPromptsOfOneGeminiSessionAreTwoTurnsThatReviewAndRewindByteForByte() throws Exception {
    long began = System.nanoTime();
    GeminiCli gemini = GeminiCli.installed(repository(), temp.resolve("logs"));
    long installed = System.nanoTime();

    TestWorkspace workspace =
        TestWorkspace.in(temp.resolve("w"))
            .file("notes.txt", "alpha\nbeta\n")
            .file("src/app.txt", "v1\n")
            .file("old.txt", "old\n")
            .file("trash.txt", "bye\n");
    workspace
        .symlink("outside-link.txt", workspace.secret().toString())
        .symlink("outside-dir", workspace.outside().toString());
    Path root = workspace.root();
    Canary canary = workspace.canary();

    CliProcess.run(env, "service", "start").expect(0);
    installHooks(root);

    String session = UUID.randomUUID().toString();
    Map<String, String> beforeOne = TreeContent.of(root);
    Path copyOne = copyOf(root, "tree-before-1");
    long[] promptSeconds = new long[2];
    long at = System.nanoTime();
    prompt(gemini, root, 1, List.of("--session-id", session));
    promptSeconds[0] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
    Map<String, String> afterOne = TreeContent.of(root);
    Path copyTwo = copyOf(root, "tree-before-2");
    at = System.nanoTime();
    prompt(gemini, root, 2, List.of("-r", session));
    promptSeconds[1] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
    Map<String, String> afterTwo = TreeContent.of(root);

    // Gemini really did what the script asked (else the store would be checked against nothing)
    assertEquals("hi\n", workspace.readText("hello.txt"));
    assertEquals("rel\n", workspace.readText("sub/rel.txt"));
    assertEquals("alpha\nBETA\n", workspace.readText("notes.txt"));
    assertEquals("v2\n", workspace.readText("src/app.txt"));
    assertEquals("old\n", workspace.readText("renamed.txt"));
    assertFalse(Files.exists(workspace.resolve("old.txt")));
    assertFalse(Files.exists(workspace.resolve("trash.txt")));
    assertEquals("shell\n", workspace.readText("from-shell.txt"));
    assertTrue(Files.isExecutable(workspace.resolve("from-shell.txt")));
    assertEquals(Path.of("src"), Files.readSymbolicLink(workspace.resolve("outside-dir")));
    assertEquals(workspace.secret(), Files.readSymbolicLink(workspace.resolve("outside-link.txt")));
    // the one change outside: Gemini's own shell appended through the link; its refused file tools
    // (a replace through the link, a write_file through the directory link) changed nothing
    assertArrayEquals(
        concat(canary.bytes(), APPENDED.getBytes(StandardCharsets.UTF_8)),
        Files.readAllBytes(workspace.secret()));
    workspace.assertOutsideUnchangedExcept("secret.txt");

    // one turn per prompt, both finished
    String sessionId = "gemini:" + session;
    List<String> turns = new ArrayList<>();
    try (Store store = Store.open(database)) {
      assertTrue(
          store.read(tx -> tx.sessions().byExternalId(sessionId)).isPresent(),
          "the hooks made the session " + sessionId + diagnostics());
      List<TurnListing> listing =
          new ReviewQueries(store)
              .turns(sessionId, 0, 100).turns().stream().map(ListedTurn::listing).toList();
      assertEquals(2, listing.size(), "one turn per prompt: " + listing + diagnostics());
      for (TurnListing turn : listing) {
        assertEquals(TurnKind.AGENT, turn.turn().kind(), turn.toString());
        assertEquals(TurnState.FINISHED, turn.turn().state(), turn.toString());
        turns.add(turn.turn().externalId());
      }
    }
    String turnOne = turns.get(0);
    String turnTwo = turns.get(1);

    // every file's before and after, as the trees on disk had them; how each was found
    Map<String, JsonNode> recordsOne = records(turnOne, canary);
    assertEquals(
        Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"), recordsOne.keySet());
    assertEquals(changedEntries(beforeOne, afterOne), recordsOne.keySet());
    assertRecord(recordsOne, "hello.txt", "added", "snapshot", beforeOne, afterOne);
    assertRecord(recordsOne, "sub/rel.txt", "added", "snapshot", beforeOne, afterOne);
    assertRecord(recordsOne, "notes.txt", "modified", "snapshot", beforeOne, afterOne);
    assertRecord(recordsOne, "src/app.txt", "modified", "scan", beforeOne, afterOne);
    assertDirectories(turnOne, Map.of("sub", "created"));

    Map<String, JsonNode> recordsTwo = records(turnTwo, canary);
    assertEquals(
        Set.of(
            "old.txt",
            "renamed.txt",
            "trash.txt",
            "outside-dir",
            "from-shell.txt",
            "outside-link.txt"),
        recordsTwo.keySet());
    Set<String> insideTwo = new TreeSet<>(recordsTwo.keySet());
    insideTwo.remove("outside-link.txt");
    assertEquals(changedEntries(afterOne, afterTwo), insideTwo);
    assertRecord(recordsTwo, "old.txt", "deleted", "scan", afterOne, afterTwo);
    assertRecord(recordsTwo, "trash.txt", "deleted", "scan", afterOne, afterTwo);
    assertRecord(recordsTwo, "renamed.txt", "added", "scan", afterOne, afterTwo);
    assertRecord(recordsTwo, "from-shell.txt", "added", "scan", afterOne, afterTwo);
    assertRecord(recordsTwo, "outside-dir", "modified", "scan", afterOne, afterTwo);
    // the path through the link out, named by the patch in the shell command: metadata only
    JsonNode throughLink = recordsTwo.get("outside-link.txt");
    assertEquals("unknown", throughLink.get("change").asText(), throughLink.toString());
    assertEquals("escaped", throughLink.get("containment").asText(), throughLink.toString());
    assertFalse(throughLink.get("restorable").asBoolean(), throughLink.toString());
    assertEquals("snapshot", throughLink.get("detected_by").asText(), throughLink.toString());
    for (String side : List.of("before", "after")) {
      JsonNode state = throughLink.get(side);
      assertFalse(state.get("captured").asBoolean(), side + ": " + throughLink);
      assertEquals("escapes_workspace", state.get("reason").asText(), side + ": " + throughLink);
      assertTrue(state.get("sha256").isNull(), "the secret was never read: " + throughLink);
    }
    assertDirectories(turnTwo, Map.of());

    // each turn's patch is the real change: applied to the tree before the turn it gives the tree
    // after it
    String patchOne = patch(turnOne, canary);
    assertTrue(patchOne.contains("-beta\n+BETA\n"), patchOne);
    assertEquals(afterOne, applied(patchOne, copyOne));
    String patchTwo = patch(turnTwo, canary);
    assertTrue(patchTwo.contains("new file mode 100755"), patchTwo);
    assertTrue(patchTwo.contains("# turndiff: outside-link.txt"), patchTwo);
    assertEquals(afterTwo, applied(patchTwo, copyTwo));

    // rewinding each turn, latest first, gives back the tree before it
    CommandRun rewindTwo = CliProcess.run(env, "rewind", "--turn", turnTwo);
    assertEquals(3, rewindTwo.exitCode(), "the link out is skipped: " + rewindTwo);
    canary.assertNotIn("the rewind report", rewindTwo.out() + rewindTwo.err());
    JsonNode reportTwo = rewindTwo.json();
    assertEquals(
        Set.of("old.txt", "renamed.txt", "trash.txt", "outside-dir", "from-shell.txt"),
        texts(reportTwo.get("restored")),
        rewindTwo.out());
    assertEquals(1, reportTwo.get("skipped").size(), rewindTwo.out());
    assertEquals("outside-link.txt", reportTwo.get("skipped").get(0).get("path").asText());
    assertEquals("escapes_workspace", reportTwo.get("skipped").get(0).get("reason").asText());
    assertEquals(afterOne, TreeContent.of(root), "the tree before prompt 2, byte for byte");

    CommandRun rewindOne = CliProcess.run(env, "rewind", "--turn", turnOne).expect(0);
    canary.assertNotIn("the rewind report", rewindOne.out() + rewindOne.err());
    JsonNode reportOne = rewindOne.json();
    assertEquals(
        Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"),
        texts(reportOne.get("restored")),
        rewindOne.out());
    assertEquals(Set.of("sub"), texts(reportOne.get("removed_directories")), rewindOne.out());
    assertEquals(beforeOne, TreeContent.of(root), "the tree before prompt 1, byte for byte");

    // the outside: still only Gemini's own append (a rewind never writes there); the secret's
    // bytes in no store file, no blob
    assertArrayEquals(
        concat(canary.bytes(), APPENDED.getBytes(StandardCharsets.UTF_8)),
        Files.readAllBytes(workspace.secret()));
    workspace.assertOutsideUnchangedExcept("secret.txt");
    try (Store store = Store.open(database)) {
      canary.assertNotInStore(store);
    }
    CliProcess.run(env, "service", "stop", "--wait", "30").expect(0);
    canary.assertNotInStoreFiles(database);
    canary.assertNotIn("the service log", read(Path.of(database + ".service.log")));

    System.out.printf(
        "GeminiHooksIT: install %d s, prompt 1 %d s, prompt 2 %d s, whole test %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(installed - began),
        promptSeconds[0],
        promptSeconds[1],
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
  }

  // ---- the runtime

  private static Path repository() {
    // cli/target/turndiff.jar
    return CliProcess.jar().toAbsolutePath().getParent().getParent().getParent();
  }

  /**
   * {@code turndiff hooks install --runtime gemini --workspace DIR}, as a user types it: turndiff's
   * hooks in {@code DIR/.gemini/settings.json} (docs/runtime-hooks.md, "Gemini CLI"), the workspace
   * tracked.
   */
  private void installHooks(Path root) throws Exception {
    CliProcess.run(env, "hooks", "install", "--runtime", "gemini", "--workspace", root.toString())
        .expect(0);
    JsonNode hooks =
        Json.mapper().readTree(root.resolve(".gemini/settings.json").toFile()).get("hooks");
    String command = "'" + repository().resolve("bin/turndiff-hook") + "' gemini";
    for (String event : List.of("BeforeAgent", "BeforeTool", "AfterAgent", "SessionEnd")) {
      assertEquals(
          command, hooks.get(event).get(0).get("hooks").get(0).get("command").asText(), event);
    }
    assertEquals(
        "^(write_file|replace|run_shell_command)$",
        hooks.get("BeforeTool").get(0).get("matcher").asText());
    CliProcess.run(env, "status", "--workspace", root.toString()).expect(0);
  }

  /**
   * Runs prompt {@code n} of {@code integrations/gemini-e2e/turns} in the workspace, with a clean
   * environment: the test's store and run directory, a temporary home, no model key.
   */
  private void prompt(GeminiCli gemini, Path root, int n, List<String> session) throws Exception {
    String script =
        Files.readString(
                repository().resolve("integrations/gemini-e2e/turns/prompt-" + n + ".jsonl"))
            .replace("@WS@", root.toString());
    Path answers = temp.resolve("prompt-" + n + ".jsonl");
    Files.writeString(answers, script);
    Map<String, String> geminiEnv = new HashMap<>(env);
    geminiEnv.put("PATH", System.getenv("PATH"));
    geminiEnv.put("GEMINI_API_KEY", "fake-key");
    geminiEnv.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
    geminiEnv.put(
        "TURNDIFF_HOME", CliProcess.launcherHome(temp.resolve("turndiff-home")).toString());
    String words = n == 1 ? "one" : "two";
    CommandRun run =
        gemini.prompt(root, geminiEnv, "do prompt " + words, session, answers, "prompt-" + n);
    assertEquals(0, run.exitCode(), "gemini prompt " + n + ": " + run + diagnostics());
    assertTrue(
        run.out().contains("Done with prompt " + words + "."),
        run.out() + run.err() + diagnostics());
  }

  /** What the service and the hook clients logged, for a failure message. */
  private String diagnostics() throws Exception {
    String key = ServiceFiles.key(database.toString());
    return "\n--- service status: "
        + CliProcess.run(env, "service", "status", "--json").out()
        + "\n--- hook log: "
        + read(runDirectory.resolve(key + ".hook.log"))
        + "\n--- service log: "
        + read(Path.of(database + ".service.log"));
  }

  // ---- what the store says

  /** {@code turndiff show --turn T}, by path. */
  private Map<String, JsonNode> records(String turn, Canary canary) throws Exception {
    CommandRun show = CliProcess.run(env, "show", "--turn", turn).expect(0);
    canary.assertNotIn("turndiff show", show.out());
    Map<String, JsonNode> records = new TreeMap<>();
    for (JsonNode record : show.json()) {
      records.put(record.get("path").asText(), record);
    }
    return records;
  }

  /**
   * The record of {@code path}: its change, how it was found, restorable, and its before and after
   * equal to the path's entry in the trees taken before and after (content from the store's blobs).
   */
  private void assertRecord(
      Map<String, JsonNode> records,
      String path,
      String change,
      String detectedBy,
      Map<String, String> before,
      Map<String, String> after)
      throws Exception {
    JsonNode record = records.get(path);
    assertEquals(change, record.get("change").asText(), record.toString());
    assertEquals(detectedBy, record.get("detected_by").asText(), record.toString());
    assertEquals("inside", record.get("containment").asText(), record.toString());
    assertTrue(record.get("restorable").asBoolean(), record.toString());
    assertEquals(before.get(path), entry(record.get("before")), path + " before: " + record);
    assertEquals(after.get(path), entry(record.get("after")), path + " after: " + record);
  }

  /**
   * A recorded state written as {@link TreeContent} writes an entry ({@code null} when absent), the
   * content read back from the store's blob.
   */
  private String entry(JsonNode state) throws Exception {
    assertTrue(state.get("captured").asBoolean(), state.toString());
    if (!state.get("exists").asBoolean()) {
      return null;
    }
    String type = state.get("type").asText();
    if (type.equals("symlink")) {
      return "link -> " + state.get("link_target").asText();
    }
    assertEquals("regular", type, state.toString());
    byte[] content;
    try (Store store = Store.open(database)) {
      content = store.read(tx -> tx.blobs().require(new Sha256(state.get("sha256").asText())));
    }
    return "file "
        + permissions(Integer.parseInt(state.get("mode").asText(), 8))
        + " "
        + HexFormat.of().formatHex(content);
  }

  /** The directories the turn recorded that it created ({@code created}) or removed. */
  private void assertDirectories(String turn, Map<String, String> expected) {
    try (Store store = Store.open(database)) {
      TurnRecords records = new ReviewQueries(store).records(turn);
      List<StoredDirectoryChange> directories =
          store.read(tx -> tx.directoryChanges().ofTurn(records.turn().id()));
      Map<String, String> changed = new TreeMap<>();
      for (StoredDirectoryChange directory : directories) {
        boolean was = directory.before().present();
        boolean is = directory.after().map(DirectoryState::present).orElse(false);
        if (was != is) {
          changed.put(directory.path().display(), is ? "created" : "removed");
        }
      }
      assertEquals(expected, changed, directories.toString());
    }
  }

  /** {@code turndiff diff --turn T}: the turn as a patch. */
  private String patch(String turn, Canary canary) throws Exception {
    CommandRun diff = CliProcess.run(env, "diff", "--turn", turn).expect(0);
    canary.assertNotIn("turndiff diff", diff.out() + diff.err());
    return diff.out();
  }

  /** The tree {@code copy} holds once {@code git apply} applied {@code patch} to it. */
  private Map<String, String> applied(String patch, Path copy) throws Exception {
    Path file = temp.resolve(copy.getFileName() + ".patch");
    Files.writeString(file, patch);
    ProcessBuilder git =
        new ProcessBuilder("git", "apply", "--verbose", file.toString()).directory(copy.toFile());
    git.environment().put("GIT_CEILING_DIRECTORIES", temp.toString());
    CommandRun run = CommandRun.ofProcess(git);
    assertEquals(0, run.exitCode(), "git apply: " + run + "\n" + patch);
    return TreeContent.of(copy);
  }

  // ---- trees

  /** A copy of the tree, links as links, modes kept. */
  private Path copyOf(Path root, String name) {
    Path copy = temp.resolve(name);
    TestWorkspace.run("cp", "-a", root.toString(), copy.toString());
    return copy;
  }

  /** The entries that are not directories and differ between two trees. */
  private static Set<String> changedEntries(Map<String, String> before, Map<String, String> after) {
    Set<String> changed = new TreeSet<>();
    Set<String> all = new TreeSet<>(before.keySet());
    all.addAll(after.keySet());
    for (String path : all) {
      String was = before.get(path);
      String is = after.get(path);
      boolean directory =
          (was == null || was.startsWith("dir ")) && (is == null || is.startsWith("dir "));
      if (!directory && !Objects.equals(was, is)) {
        changed.add(path);
      }
    }
    return changed;
  }

  private static Set<String> texts(JsonNode array) {
    Set<String> texts = new TreeSet<>();
    StreamSupport.stream(array.spliterator(), false).forEach(node -> texts.add(node.asText()));
    return texts;
  }

  private static String permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << (bits.length - 1 - i))) != 0) {
        permissions.add(bits[i]);
      }
    }
    return PosixFilePermissions.toString(permissions);
  }

  private static byte[] concat(byte[] first, byte[] second) {
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    joined.writeBytes(first);
    joined.writeBytes(second);
    return joined.toByteArray();
  }

  private static String read(Path file) throws Exception {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }
}
