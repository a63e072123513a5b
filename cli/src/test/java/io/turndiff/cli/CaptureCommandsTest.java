package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The capture commands, run in this JVM against a real store and workspace; every output is checked
 * for the canary.
 */
class CaptureCommandsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private StoreCommandRuns commands;

  @BeforeEach
  void setUp() {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
    commands = new StoreCommandRuns(database);
  }

  @AfterEach
  void canary() {
    commands.assertNothingLeaked(workspace);
  }

  private CommandRun turndiff(String... args) {
    return commands.run(args);
  }

  private String begin() {
    return turndiff("turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1")
        .expect(0)
        .json()
        .get("turn")
        .asText();
  }

  @Test
  void aWholeTurnThroughTheCommandLine() throws Exception {
    workspace.file("src/app.py", "print('a')\n").file("old.txt", "old\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    JsonNode began =
        turndiff(
                "turn",
                "begin",
                "--workspace",
                workspace.root().toString(),
                "--session",
                "s1",
                "--turn",
                "t1")
            .expect(0)
            .json();
    assertEquals("s1", began.get("session").asText());
    assertEquals("t1", began.get("turn").asText());
    assertEquals(1, began.get("seq").asLong());
    assertEquals("openat2", began.get("boundary").asText());

    JsonNode verdicts =
        turndiff(
                "snapshot",
                "--turn",
                "t1",
                "--tool-call",
                "edit-1",
                "src/app.py",
                "old.txt",
                "new.txt",
                "leak.txt")
            .expect(0)
            .json();
    assertEquals(4, verdicts.size());
    assertEquals("captured", verdicts.get(0).get("verdict").asText());
    assertEquals("absent", verdicts.get(2).get("verdict").asText());
    assertEquals("metadata_only", verdicts.get(3).get("verdict").asText());
    assertEquals("escaped", verdicts.get(3).get("containment").asText());
    assertEquals("escapes_workspace", verdicts.get(3).get("reason").asText());

    Files.writeString(workspace.resolve("src/app.py"), "print('b')\n");
    Files.delete(workspace.resolve("old.txt"));
    workspace.file("new.txt", "new\n");

    JsonNode summary = turndiff("turn", "finish", "--turn", "t1").expect(0).json();
    assertEquals("finished", summary.get("state").asText());
    assertEquals(4, summary.get("files").asInt());
    assertEquals(1, summary.get("changes").get("added").asInt());
    assertEquals(1, summary.get("changes").get("deleted").asInt());
    assertEquals(1, summary.get("changes").get("modified").asInt());

    JsonNode records = turndiff("show", "--turn", "t1").expect(0).json();
    assertEquals(4, records.size());
    for (JsonNode record : records) {
      for (String field :
          List.of(
              "path",
              "via",
              "change",
              "containment",
              "restorable",
              "added",
              "removed",
              "before",
              "after")) {
        assertTrue(record.has(field), field + " in " + record);
      }
      for (String field : List.of("exists", "type", "size", "sha256", "captured", "reason")) {
        assertTrue(record.get("before").has(field), field + " in before of " + record);
        assertTrue(record.get("after").has(field), field + " in after of " + record);
      }
    }
    JsonNode app = record(records, "src/app.py");
    assertEquals("src/app.py", app.get("path").asText());
    assertEquals("modified", app.get("change").asText());
    assertTrue(app.get("restorable").asBoolean());
    assertEquals(1, app.get("added").asInt());
    JsonNode leak = record(records, "leak.txt");
    assertEquals("leak.txt", leak.get("path").asText());
    assertFalse(leak.get("restorable").asBoolean());
    assertTrue(leak.get("before").get("sha256").isNull());

    String patch = turndiff("diff", "--turn", "t1").expect(0).out();
    assertTrue(patch.contains("-print('a')\n+print('b')\n"), patch);
    assertTrue(patch.contains("deleted file mode 100644"), patch);
    String onlyApp = turndiff("diff", "--turn", "t1", "src/app.py").expect(0).out();
    assertFalse(onlyApp.contains("old.txt"), onlyApp);
  }

  /**
   * {@code diff -w} (as git's): a line changed only in whitespace is no change; a file changed only
   * so shows its header and no hunk; without it, the same turn shows every line.
   */
  @Test
  void diffIgnoringAllSpaceShowsOnlyTheChangesThatAreNotWhitespace() throws Exception {
    workspace.file("a.py", "x = 1\nif x:\n  y = 2\n").file("b.py", "b = 1\n");
    String turn = begin();
    turndiff("snapshot", "--turn", turn, "a.py", "b.py").expect(0);
    Files.writeString(workspace.resolve("a.py"), "x = 10\nif  x :\n\ty = 2\n");
    Files.writeString(workspace.resolve("b.py"), "b  =  1  \n");
    turndiff("turn", "finish", "--turn", turn).expect(0);

    String all = turndiff("diff", "--turn", turn).expect(0).out();
    assertTrue(all.contains("-  y = 2\n") && all.contains("+b  =  1  \n"), all);
    for (String flag : List.of("-w", "--ignore-all-space")) {
      String ignoring = turndiff("diff", "--turn", turn, flag).expect(0).out();
      assertTrue(
          ignoring.contains("@@ -1,3 +1,3 @@\n-x = 1\n+x = 10\n if  x :\n \ty = 2\n"), ignoring);
      int b = ignoring.indexOf("diff --git a/b.py b/b.py\n");
      assertTrue(b >= 0, ignoring);
      assertFalse(
          ignoring.substring(b).contains("@@"), "b.py changed only in whitespace: " + ignoring);
    }
    String range = turndiff("diff", "--from", turn, "--to", turn, "-w").expect(0).out();
    assertFalse(range.contains("+b  =  1"), range);
    assertTrue(range.contains("+x = 10\n"), range);
  }

  private static JsonNode record(JsonNode records, String path) {
    for (JsonNode record : records) {
      if (record.get("path").asText().equals(path)) {
        return record;
      }
    }
    throw new AssertionError(path + " not in " + records);
  }

  @Test
  void aWriteThroughALinkOutOfTheWorkspaceIsUnknownNotRestorableAndSkippedByTheRewind()
      throws Exception {
    workspace.file("a.txt", "mine\n").symlink("linkdir", "../outside");
    String turn = begin();
    JsonNode verdicts =
        turndiff("snapshot", "--turn", turn, "linkdir/secret.txt", "a.txt").expect(0).json();
    assertEquals("escapes_workspace", verdicts.get(0).get("reason").asText(), verdicts.toString());
    // the tool writes through the link, outside the workspace; turndiff must not read or write
    // there
    Files.writeString(
        workspace.resolve("linkdir/secret.txt"), "written by the tool through the link\n");
    Files.writeString(workspace.resolve("a.txt"), "agent's\n");
    workspace.refreshOutsidePicture();

    JsonNode summary = turndiff("turn", "finish", "--turn", turn).expect(0).json();
    assertEquals(1, summary.path("changes").path("unknown").asInt(-1), summary.toString());
    assertEquals(0, summary.path("changes").path("unchanged").asInt(-1), summary.toString());
    assertEquals(1, summary.get("not_restorable").asInt(), summary.toString());
    JsonNode record =
        record(turndiff("show", "--turn", turn).expect(0).json(), "linkdir/secret.txt");
    assertEquals("unknown", record.get("change").asText(), record.toString());
    assertFalse(record.get("restorable").asBoolean());
    assertEquals(
        "touched outside the workspace: not captured",
        record.path("detail").asText(),
        record.toString());
    String patch = turndiff("diff", "--turn", turn).expect(0).out();
    assertTrue(
        patch.contains(
            "# turndiff: linkdir/secret.txt: before-state not captured (escapes_workspace)"),
        patch);

    CommandRun rewind = turndiff("rewind", "--turn", turn).expect(3);
    JsonNode report = rewind.json();
    assertFalse(report.get("complete").asBoolean(), rewind.out());
    assertEquals("a.txt", report.get("restored").get(0).asText(), rewind.out());
    assertEquals(1, report.get("skipped").size(), rewind.out());
    assertEquals("linkdir/secret.txt", report.get("skipped").get(0).get("path").asText());
    assertEquals("escapes_workspace", report.get("skipped").get(0).get("reason").asText());
    assertEquals("mine\n", workspace.readText("a.txt"));
    assertEquals(
        "written by the tool through the link\n",
        Files.readString(workspace.secret()),
        "the rewind never writes outside");
  }

  @Test
  void aNameThatIsNotUtf8IsGivenAsBase64() throws Exception {
    String turn = begin();
    byte[] name = {'n', (byte) 0xFF, '.', 't', 'x', 't'};
    JsonNode verdict =
        turndiff(
                "snapshot",
                "--turn",
                turn,
                "--path-base64",
                Base64.getEncoder().encodeToString(name))
            .expect(0)
            .json()
            .get(0);
    assertEquals("n\\xff.txt", verdict.get("path").asText());
    assertEquals(Base64.getEncoder().encodeToString(name), verdict.get("path_base64").asText());
  }

  /**
   * Each path is decoded once into its own input: a text beside a {@code --path-base64} is still a
   * text and held to the U+FFFD rule. (Before, any {@code --path-base64} sent every text through
   * the byte parser, and a lossy name was recorded.)
   */
  @Test
  void aTextPathBesideABase64PathIsStillHeldToTheLossyNameRule() {
    workspace.file("a.txt", "a\n");
    String turn = begin();
    Map<String, Long> rows = StoreRows.count(database);
    String aTxt = Base64.getEncoder().encodeToString("a.txt".getBytes(StandardCharsets.UTF_8));
    CommandRun lossy =
        turndiff("snapshot", "--turn", turn, "caf\uFFFD.txt", "--path-base64", aTxt).expect(2);
    assertEquals(
        "turndiff: path 'caf\uFFFD.txt' contains U+FFFD: a name that was not valid UTF-8 before it "
            + "reached turndiff; give its bytes instead (base64)",
        lossy.err().strip());
    CommandRun surrogate =
        turndiff("snapshot", "--turn", turn, "a\uD800b", "--path-base64", aTxt).expect(2);
    // stderr is UTF-8, which cannot carry the lone surrogate itself
    assertTrue(
        surrogate
            .err()
            .strip()
            .matches("turndiff: path 'a.b' is not valid Unicode \\(an unpaired surrogate\\)"),
        surrogate.err());
    assertEquals(rows, StoreRows.count(database), "nothing was recorded");
  }

  @Test
  void aBase64PathThatIsNotBase64IsBadUsageNamingIt() {
    String turn = begin();
    Map<String, Long> rows = StoreRows.count(database);
    CommandRun bad =
        turndiff("snapshot", "--turn", turn, "a.txt", "--path-base64", "!!!!").expect(2);
    assertEquals("turndiff: --path-base64 '!!!!' is not base64", bad.err().strip());
    assertEquals(rows, StoreRows.count(database), "nothing was recorded");
  }

  @Test
  void badUsageExitsWithTwo() {
    CommandRun missing = turndiff("snapshot", "a.txt").expect(2);
    assertTrue(missing.err().contains("--turn"), missing.err());
    String turn = begin();
    CommandRun nul = turndiff("snapshot", "--turn", turn, "bad\0name").expect(2);
    assertTrue(nul.err().contains("NUL"), nul.err());
    CommandRun empty = turndiff("snapshot", "--turn", turn, "").expect(2);
    assertTrue(empty.err().contains("empty"), empty.err());
    workspace.directory("src");
    CommandRun directory = turndiff("snapshot", "--turn", turn, "src/").expect(2);
    assertTrue(directory.err().contains("'src/'"), directory.err());
    turndiff("snapshot", "--turn", turn).expect(2);
    turndiff("no-such-command").expect(2);
  }

  @Test
  void errorsNameTheInputAndExitWithOne() {
    CommandRun unknown = turndiff("turn", "finish", "--turn", "nope").expect(1);
    assertTrue(unknown.err().contains("'nope'"), unknown.err());
    String turn = begin();
    turndiff("turn", "finish", "--turn", turn).expect(0);
    Map<String, Long> rows = StoreRows.count(database);
    CommandRun again = turndiff("turn", "finish", "--turn", turn).expect(1);
    assertTrue(again.err().contains(turn) && again.err().contains("finished"), again.err());
    assertEquals(rows, StoreRows.count(database), "nothing written");
    CommandRun missing =
        turndiff("turn", "begin", "--workspace", temp.resolve("absent").toString()).expect(1);
    assertTrue(
        missing.err().contains("absent") && missing.err().contains("does not exist"),
        missing.err());
  }

  @Test
  void theReviewCommands() throws Exception {
    workspace.file("a.txt", "a1\n");
    String first = begin();
    turndiff("snapshot", "--turn", first, "a.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "a2\n");
    turndiff("turn", "finish", "--turn", first).expect(0);
    String second = begin();
    turndiff("snapshot", "--turn", second, "a.txt", "b.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "a3\n");
    workspace.file("b.txt", "b\n");
    turndiff("turn", "finish", "--turn", second).expect(0);

    JsonNode sessions =
        turndiff("turns", "--workspace", workspace.root().toString()).expect(0).json();
    assertEquals("s1", sessions.get("sessions").get(0).get("session").asText());
    assertEquals(2, sessions.get("sessions").get(0).get("turns").size());
    JsonNode page = turndiff("turns", "--session", "s1", "--limit", "1").expect(0).json();
    assertEquals(first, page.get("turns").get(0).get("turn").asText());
    assertEquals(1, page.get("next_after").asLong());
    JsonNode next = turndiff("turns", "--session", "s1", "--after", "1").expect(0).json();
    assertEquals(second, next.get("turns").get(0).get("turn").asText());
    assertEquals(2, next.get("turns").get(0).get("files").asInt());

    String range = turndiff("diff", "--from", first, "--to", second).expect(0).out();
    assertTrue(range.contains("-a1\n+a3\n"), range);
    assertTrue(range.contains("new file mode 100644"), range);
    turndiff("diff", "--turn", first, "--from", first, "--to", second).expect(2);

    JsonNode log =
        turndiff("log", "--workspace", workspace.root().toString(), "a.txt").expect(0).json();
    assertEquals(2, log.size());
    assertEquals(first, log.get(0).get("turn").asText());
    assertEquals("modified", log.get(1).get("file").get("change").asText());
    // the path is read as a snapshot's: '.' and '..' are applied to the name (they used to be
    // refused)
    for (String given : List.of("./a.txt", "x/../a.txt", workspace.root() + "/./a.txt")) {
      assertEquals(
          log,
          turndiff("log", "--workspace", workspace.root().toString(), given).expect(0).json(),
          given);
    }
    assertTrue(turndiff("diff", "--turn", first, "./a.txt").expect(0).out().contains("-a1\n+a2\n"));
    turndiff("turns", "--session", "no-such-session").expect(1);
  }

  @Test
  void storeOptionsBeforeTheCommand() throws Exception {
    // as git takes -C before its command: the store options go before the command words, between
    // them, or after
    workspace.file("a.txt", "a\n");
    String db = database.toString();
    String turn =
        CliRun.inProcess(
                "--db",
                db,
                "--size-limit",
                "5",
                "turn",
                "begin",
                "--workspace",
                workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    JsonNode verdict =
        CliRun.inProcess("turn", "--db", db, "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json();
    assertTrue(verdict.has("turn"), verdict.toString());
    CliRun.inProcess("--db", db, "snapshot", "--turn", turn, "a.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "b\n");
    CliRun.inProcess("--db", db, "turn", "finish", "--turn", turn).expect(0);
    JsonNode before = CliRun.inProcess("--db", db, "show", "--turn", turn).expect(0).json();
    JsonNode after = CliRun.inProcess("show", "--db", db, "--turn", turn).expect(0).json();
    assertEquals(before, after);
    assertEquals("a.txt", before.get(0).get("path").asText(), before.toString());
    assertEquals("modified", before.get(0).get("change").asText(), before.toString());
    CommandRun negative =
        CliRun.inProcess("--size-limit", "-1", "--db", db, "show", "--turn", turn).expect(2);
    assertTrue(negative.err().contains("--size-limit"), negative.err());
  }

  @ParameterizedTest
  @CsvSource({"fallback, secure_directory_stream", "openat, openat", "openat2, openat2"})
  void theBoundaryChosenIsNamedInTheRecords(String option, String recorded) throws Exception {
    workspace.file("a.txt", "a\n");
    String turn =
        CliRun.inProcess(
                "turn",
                "begin",
                "--db",
                database.toString(),
                "--boundary",
                option,
                "--workspace",
                workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    JsonNode verdict =
        CliRun.inProcess(
                "snapshot",
                "--db",
                database.toString(),
                "--boundary",
                option,
                "--turn",
                turn,
                "a.txt")
            .expect(0)
            .json()
            .get(0);
    assertEquals(recorded, verdict.get("boundary").asText());
    assertEquals("captured", verdict.get("verdict").asText());
    String text =
        new String(Files.readAllBytes(workspace.resolve("a.txt")), StandardCharsets.UTF_8);
    assertEquals("a\n", text);
    CliRun.inProcess(
            "snapshot",
            "--db",
            database.toString(),
            "--boundary",
            "openat3",
            "--turn",
            turn,
            "a.txt")
        .expect(2);
  }

  @Test
  void trackKeepsSmallIgnoredFilesByDefaultAndStatusNamesThoseOverTheCap() throws Exception {
    workspace
        .file(".gitignore", "*.log\n")
        .file("x.log", "x\n")
        .file("big.log", new byte[(5 << 20) + 1]);
    String root = workspace.root().toString();
    JsonNode tracked = turndiff("track", "--workspace", root).expect(0).json();
    JsonNode ignored = tracked.get("ignored_files");
    assertEquals("small", ignored.get("kept").asText(), tracked.toString());
    assertEquals(1, ignored.get("indexed").asInt(), tracked.toString());
    assertEquals("big.log", ignored.get("over_cap").get(0).asText(), tracked.toString());
    Files.writeString(workspace.resolve("x.log"), "x by the shell\n");
    assertEquals(
        "M x.log\n# ignored files over 5242880 bytes, not indexed: big.log\n",
        turndiff("status", "--workspace", root).expect(0).out());
    CommandRun wrong = turndiff("track", "--workspace", root, "--ignored-files", "all").expect(2);
    assertTrue(wrong.err().contains("none, metadata or small, not all"), wrong.err());
  }

  @Test
  void theCapOfIgnoredFilesIsAnOptionThatStatusShowsAndALaterTrackKeeps() throws Exception {
    workspace.file(".gitignore", "*.log\n").file("x.log", "x\n").file("y.log", "longer\n");
    String root = workspace.root().toString();
    CommandRun negative =
        turndiff("track", "--workspace", root, "--ignored-max-bytes", "-1").expect(2);
    assertTrue(negative.err().contains("must not be negative: -1"), negative.err());
    JsonNode ignored =
        turndiff("track", "--workspace", root, "--ignored-max-bytes", "2")
            .expect(0)
            .json()
            .get("ignored_files");
    assertEquals(2, ignored.get("max_bytes").asLong(), ignored.toString());
    assertEquals("[\"y.log\"]", ignored.get("over_cap").toString());
    JsonNode again = turndiff("track", "--workspace", root).expect(0).json().get("ignored_files");
    assertEquals(ignored, again, "a track without the option keeps the workspace's cap");
    assertEquals(
        "# ignored files over 2 bytes, not indexed: y.log\n",
        turndiff("status", "--workspace", root).expect(0).out());
  }

  @Test
  void trackAndStatusSeeWhatTheShellChangedAndATurnPicksTrackingUp() throws Exception {
    workspace
        .file("a.txt", "a\n")
        .file("b.txt", "b\n")
        .file(".gitignore", "*.log\n")
        .file("x.log", "x\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    String root = workspace.root().toString();
    turndiff("status", "--workspace", root).expect(1);

    JsonNode tracked =
        turndiff("track", "--workspace", root, "--ignored-files", "none").expect(0).json();
    assertEquals("none", tracked.get("ignored_files").get("kept").asText(), tracked.toString());
    assertEquals(
        4, tracked.get("files").asInt(), ".gitignore, a.txt, b.txt and the link: " + tracked);
    assertEquals(4, tracked.get("content_read").asInt(), tracked.toString());
    assertFalse(tracked.get("partial").asBoolean());
    assertEquals(0, tracked.get("left_out").size());
    assertEquals(
        "", turndiff("status", "--workspace", root).expect(0).out(), "nothing changed yet");

    Files.writeString(workspace.resolve("a.txt"), "a2\n");
    Files.delete(workspace.resolve("b.txt"));
    workspace.file("c.txt", "c\n").file("y.log", "ignored\n");
    assertEquals(
        "M a.txt\nD b.txt\nA c.txt\n", turndiff("status", "--workspace", root).expect(0).out());
    JsonNode status = turndiff("status", "--workspace", root, "--json").expect(0).json();
    assertEquals(3, status.get("changes").size(), status.toString());
    assertEquals("a.txt", status.get("changes").get(0).get("path").asText());
    assertEquals("modified", status.get("changes").get(0).get("change").asText());
    assertEquals("M", status.get("changes").get(0).get("status").asText());

    // begin refreshes the index (the user's edits above are the before-state); finish scans for the
    // shell's
    String turn = begin();
    assertEquals(
        "", turndiff("status", "--workspace", root).expect(0).out(), "begin refreshed the index");
    Files.writeString(workspace.resolve("c.txt"), "c by the shell\n");
    JsonNode summary = turndiff("turn", "finish", "--turn", turn).expect(0).json();
    assertEquals(1, summary.get("detected_by_scan").asInt(), summary.toString());
    JsonNode records = turndiff("show", "--turn", turn).expect(0).json();
    assertEquals(1, records.size(), records.toString());
    assertEquals("scan", records.get(0).get("detected_by").asText());
    assertTrue(turndiff("diff", "--turn", turn).expect(0).out().contains("-c\n+c by the shell\n"));
  }

  @Test
  void trackRefusesBadBudgetsAndMissingWorkspaces() {
    CommandRun budget =
        turndiff("track", "--workspace", workspace.root().toString(), "--max-files", "0").expect(2);
    assertTrue(budget.err().contains("budgets must be positive"), budget.err());
    CommandRun missing =
        turndiff("track", "--workspace", temp.resolve("absent").toString()).expect(1);
    assertTrue(missing.err().contains("absent"), missing.err());
    CommandRun untracked = turndiff("status", "--workspace", workspace.root().toString()).expect(1);
    assertTrue(untracked.err().contains("not tracked"), untracked.err());
  }

  @Test
  void theFileSystemRootPseudoFileSystemsAndTheEmptyNameAreNeverWorkspaces() {
    begin();
    Map<String, Long> rows = StoreRows.count(database);
    for (String root : new String[] {"/", "/proc/self", "/proc/self/root", "/sys", ""}) {
      CommandRun began = turndiff("turn", "begin", "--workspace", root).expect(2);
      assertTrue(began.err().contains("workspace"), began.err());
      CommandRun tracked = turndiff("track", "--workspace", root).expect(2);
      assertTrue(tracked.err().contains("workspace"), tracked.err());
    }
    assertEquals(rows, StoreRows.count(database), "nothing written, not even a workspace row");
  }
}
