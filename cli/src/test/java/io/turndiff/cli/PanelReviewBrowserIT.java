package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.store.Store;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * The review panel in a real headless Chromium against a real {@code turndiff serve} process, on
 * turns an agent runtime made through the API over a real workspace: the login link {@code turndiff
 * open} prints, the session and its turns, a file's diff and its changed lines, the layouts and the
 * keys, the viewed marks (kept over a reload), whitespace hidden and more context, a rewind
 * planned, confirmed and undone (checked on disk each time), the live view, and the time to the
 * first screen of a 1,000-file turn (reported, never asserted). One browser for the class; every
 * step leaves a screenshot in {@code target/panel-screenshots/}.
 */
class PanelReviewBrowserIT {

  @TempDir static Path shared;

  @TempDir Path temp;

  private static PanelService service;
  private static PanelBrowser browser;
  private TestWorkspace workspace;

  @BeforeAll
  static void start() throws Exception {
    // a small size limit, so that one file of the turn is over it: its before-state is not captured
    service = PanelService.start(shared, "--size-limit", "65536");
    browser = PanelBrowser.start(shared.resolve("profile"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (service != null) {
      service.close();
    }
  }

  @AfterEach
  void nothingOutside() throws Exception {
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
      String shown = (String) browser.script("return document.documentElement.outerHTML;");
      workspace.canary().assertNotIn("the panel's page", shown);
    }
  }

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  private static final String APP_BEFORE =
      lines(
          "def total(items):",
          "    return sum(items)",
          "",
          "",
          "def count(items):",
          "    return len(items)");
  private static final String APP_AFTER =
      lines(
          "def total(items):",
          "    return sum(i.price for i in items)",
          "",
          "",
          "def count(items):",
          "    return len(items)",
          "",
          "",
          "def empty(items):",
          "    return not items");

  @Test
  void reviewATurnThenRewindItAndUndoTheRewindCheckedOnDisk() throws Exception {
    String bigLine = "sku,name,price,0123456789abcdef0123456789abcdef\n";
    workspace =
        TestWorkspace.in(temp.resolve("shop"))
            .file("src/app.py", APP_BEFORE)
            .file("README.md", lines("# Shop", "", "Run it with make.", ""))
            .file("docs/old.md", "old notes\n")
            .file("data/big.csv", bigLine.repeat(2048));
    Path root = workspace.root();
    Map<String, String> beforeTurn = TreeContent.of(root);

    // the agent's turn, made as a runtime makes it: snapshot, then write, then finish
    String turn = service.begin(root, "conv-review");
    service.snapshot(
        turn, List.of("src/app.py", "README.md", "docs/old.md", "src/new.py", "data/big.csv"));
    Files.writeString(workspace.resolve("src/app.py"), APP_AFTER);
    Files.writeString(
        workspace.resolve("README.md"), lines("# Shop", "", "Run it with make run.", ""));
    Files.delete(workspace.resolve("docs/old.md"));
    Files.writeString(workspace.resolve("src/new.py"), lines("def new():", "    return 1"));
    Files.writeString(workspace.resolve("data/big.csv"), bigLine.repeat(2049));
    service.finish(turn);
    // a second turn, so that the session has a timeline
    String second = service.begin(root, "conv-review");
    service.snapshot(second, List.of("notes.txt"));
    Files.writeString(workspace.resolve("notes.txt"), "remember the milk\n");
    service.finish(second);
    // the prompt that made the second turn, as a prompt hook has the store keep it (V17): markup
    // in it is text in the panel
    try (Store store = Store.open(service.database())) {
      store.write(
          tx -> {
            tx.prompts()
                .record(
                    tx.turns().require(second).id(),
                    "Remember <img src=x onerror=document.title='owned'> the milk\nand the eggs");
            return null;
          });
    }
    // the person edits the line the turn changed: a conflict for the rewind
    Files.writeString(
        workspace.resolve("README.md"), lines("# Shop", "", "Run it with ./run.", ""));
    Map<String, String> beforeRewind = TreeContent.of(root);

    // the login link, as `turndiff open` prints it (the running service is found, not started)
    CommandRun opened =
        CliProcess.run(
            Map.of("TURNDIFF_DB", service.database().toString()),
            "open",
            "--port",
            Integer.toString(service.port()),
            "--workspace",
            root.toString());
    assertEquals(0, opened.exitCode(), opened.err());
    JsonNode openAnswer = Json.mapper().readTree(opened.out());
    assertFalse(openAnswer.get("started").asBoolean(), opened.out());
    String loginUrl = openAnswer.get("url").asText();
    assertTrue(loginUrl.startsWith(service.url() + "/#login="), loginUrl);

    browser.open(loginUrl);
    browser.awaitText(".card-title", "conv-review");
    assertFalse(
        browser.url().contains("login="), "the code left the address bar: " + browser.url());
    assertEquals(root.toString(), browser.await(".path-title").getText());
    browser.screenshot("sessions");
    browser.awaitText(".card", "conv-review").click();

    browser.awaitText(".turn-row", "Turn 2");
    assertEquals(2, browser.all(".turn-row").size());
    assertEquals(
        "Remember <img src=x onerror=document.title='owned'> the milk",
        browser.await(".turn-row[data-seq='2'] .turn-prompt").getText(),
        "the prompt's first line is the turn's title");
    assertEquals(0, browser.all(".turn-row img").size(), "the prompt's markup stays text");
    assertTrue(browser.all(".turn-row[data-seq='1'] .turn-prompt").isEmpty(), "no prompt kept");
    browser.screenshot("timeline");
    browser.awaitText(".turn-link", "Turn 1").click();

    // the turn: its files, and the first changed one's diff
    browser.awaitText(".review-title", "Turn 1");
    browser.awaitTrue("document.querySelectorAll('.file-row').length === 5");
    assertEquals(
        Set.of("README.md", "data/big.csv", "docs/old.md", "src/app.py", "src/new.py"),
        Set.copyOf(attributes(".file-row", "title")));
    assertTrue(
        browser.await(".file-row[title='data/big.csv']").getText().contains("too large"),
        "the file over the size limit carries its reason");
    browser.await(".file-row[title='src/app.py']").click();
    browser.awaitText(".diff-path", "src/app.py");
    browser.awaitTrue("document.querySelector('.diff-body .d2h-file-wrapper')");
    assertTrue(
        changedLines("ins").containsAll(List.of("    return sum(i.price for i in items)")),
        "the added line: " + changedLines("ins"));
    assertEquals(List.of("    return sum(items)"), changedLines("del"));

    // unified and side by side, by button and by key; j/k between files
    browser.press("u");
    assertLayout("Unified", 0);
    browser.clickButton("Side by side");
    assertLayout("Side by side", 2);
    Path shot = browser.screenshot("turn-side-by-side");
    browser.press("u");
    assertLayout("Unified", 0);
    browser.screenshot("turn-unified");
    browser.press("s");
    assertLayout("Side by side", 2);
    browser.press("j");
    browser.awaitText(".diff-path", "src/new.py");
    browser.awaitTrue(
        "document.querySelector('.file-row[aria-selected=true]').title === 'src/new.py'");
    browser.press("k");
    browser.awaitText(".diff-path", "src/app.py");

    // the folder tree beside the flat list (issue 22 item 9): folders first, each closes and opens
    browser.await(".tree-toggle").click();
    browser.awaitTrue("document.querySelectorAll('.dir-row').length === 3");
    assertEquals(List.of("data", "docs", "src"), attributes(".dir-row", "data-dir"));
    assertEquals(
        List.of("data/big.csv", "docs/old.md", "src/app.py", "src/new.py", "README.md"),
        attributes(".file-row", "data-path"));
    browser.await(".dir-row[data-dir='src']").click();
    browser.awaitTrue("document.querySelectorAll('.file-row').length === 3");
    assertEquals("false", browser.await(".dir-row[data-dir='src']").getAttribute("aria-expanded"));
    browser.screenshot("turn-tree");
    browser.await(".dir-row[data-dir='src']").click();
    browser.awaitTrue("document.querySelectorAll('.file-row').length === 5");
    browser.await(".tree-toggle").click();
    browser.awaitTrue("!document.querySelector('.dir-row')");
    assertEquals(
        List.of("README.md", "data/big.csv", "docs/old.md", "src/app.py", "src/new.py"),
        attributes(".file-row", "data-path"));
    browser.assertQuiet("the turn view");
    System.out.println("README screenshot candidate: " + shot);

    // the rewind: the plan first, and nothing written by it
    browser.clickButton("Rewind turn…");
    browser.await("#rewind-dialog .tallies");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    Map<String, List<String>> plan = planSections();
    assertEquals(
        Set.of("docs/old.md", "src/app.py"), Set.copyOf(plan.get("To restore")), plan.toString());
    // the file the turn created is listed apart: the rewind deletes it
    assertEquals(List.of("src/new.py"), plan.get("To delete"), plan.toString());
    assertTrue(
        browser
            .await("#rewind-dialog .plan-warn summary")
            .getText()
            .contains("will delete 1 file the turn created"),
        plan.toString());
    // a conflict says who made it: no turn did, the person's edit
    assertEquals(
        List.of("README.md changed outside any turn"), plan.get("Conflicts"), plan.toString());
    assertEquals(1, plan.get("Skipped").size(), plan.toString());
    assertTrue(
        plan.get("Skipped").getFirst().startsWith("data/big.csv over the size limit"),
        plan.toString());
    browser.screenshot("rewind-plan");
    assertEquals(beforeRewind, TreeContent.of(root), "the plan wrote nothing");

    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog button", "Undo this rewind…");
    assertTrue(
        browser.await("#rewind-dialog .notice").getText().contains("some paths were skipped"),
        browser.await("#rewind-dialog .notice").getText());
    browser.screenshot("rewind-done");
    // on disk: the turn's files are back, the person's edit and the file over the limit stay
    Map<String, String> expected = new TreeMap<>(beforeTurn);
    for (String kept : List.of("README.md", "data/big.csv", "notes.txt")) {
      expected.put(kept, beforeRewind.get(kept));
    }
    assertEquals(expected, TreeContent.of(root), "the rewind put back exactly the turn's files");
    assertEquals(APP_BEFORE, workspace.readText("src/app.py"));
    assertEquals("old notes\n", workspace.readText("docs/old.md"));
    assertFalse(Files.exists(workspace.resolve("src/new.py")));
    assertEquals(lines("# Shop", "", "Run it with ./run.", ""), workspace.readText("README.md"));

    // the undo: planned, confirmed, and the tree is as it was before the rewind
    browser.clickButton("Undo this rewind…");
    browser.awaitText("#rewind-title", "Undo");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    Map<String, List<String>> undoPlan = planSections();
    assertEquals(
        Set.of("src/app.py", "src/new.py"),
        Set.copyOf(undoPlan.get("To restore")),
        undoPlan.toString());
    assertEquals(List.of("docs/old.md"), undoPlan.get("To delete"), undoPlan.toString());
    browser.screenshot("rewind-undo-plan");
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog .notice", "Done: every path was put back.");
    assertEquals(beforeRewind, TreeContent.of(root), "the undo put the tree back");
    browser.await("#rewind-dialog .dialog-actions .button-primary").click();

    // the timeline shows both rewinds; the file's history lists every turn that recorded it
    browser.script("location.hash = arguments[0];", "#/s/conv-review");
    browser.awaitTrue("document.querySelectorAll('.turn-row').length === 4");
    assertEquals(2, browser.all(".turn-kind-rewind").size());
    // its rewind undone, the turn's changes are all there: it reads finished, its history says both
    String row = ".turn-row[data-turn='" + turn + "']";
    assertEquals("finished", browser.await(row).getAttribute("data-state"));
    String badge = browser.await(row + " [data-badge=rewound]").getText();
    // the rewind left the person's edit and the file over the limit: partly
    assertTrue(badge.contains("rewound by #3 (partly), undone by #4"), badge);
    // undoing the undone rewind again would do nothing: its button is disabled and says why
    WebElement undoAgain = browser.await(".turn-row[data-seq='3'] button");
    assertEquals("true", undoAgain.getAttribute("disabled"));
    assertTrue(
        undoAgain.getAttribute("title").startsWith("Already undone by #4"),
        undoAgain.getAttribute("title"));
    browser.screenshot("timeline-after-undo");
    browser.script(
        "location.hash = arguments[0];",
        "#/h/" + encode(root.toString()) + "/" + encode("src/app.py"));
    browser.awaitTrue("document.querySelectorAll('.history-entry').length === 3");
    browser.awaitTrue("document.querySelector('.history-entry .d2h-file-wrapper')");
    browser.screenshot("history");
    browser.assertQuiet("the timeline and history");
  }

  @Test
  void aSnapshotMadeWhileThePageIsOpenAppearsWithoutReloadAndTheTurnTurnsFinal() throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("live"))
            .file("a.txt", "a\n")
            .file("b.txt", "b\n")
            .file("c.txt", "c\n");
    Path root = workspace.root();
    String earlier = service.begin(root, "conv-live");
    service.snapshot(earlier, List.of("a.txt"));
    service.finish(earlier);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-live").click();
    browser.awaitText(".turn-row", "Turn 1");
    browser.await("#live[data-state='live']");
    browser.script("window.__sameDocument = true;");

    // the timeline: a turn begun and snapshotted by the runtime appears, recording
    String turn = service.begin(root, "conv-live");
    browser.awaitText(".turn-open", "Turn 2");
    service.snapshot(turn, List.of("a.txt"));
    browser.awaitText(".turn-open .turn-stats", "1 file so far");
    browser.screenshot("live-timeline");

    // the open turn: each snapshot call adds its files
    browser.awaitText(".turn-open .turn-link", "Turn 2").click();
    browser.await(".chip-open");
    browser.awaitTrue("document.querySelectorAll('.file-row').length === 1");
    browser.await("#live[data-state='live']");
    service.snapshot(turn, List.of("b.txt", "c.txt"));
    browser.awaitTrue("document.querySelectorAll('.file-row').length === 3");
    assertEquals(List.of("a.txt", "b.txt", "c.txt"), attributes(".file-row", "title"));
    browser.screenshot("live-turn-open");

    // finished: the chip goes, the diffs come, still the same document
    Files.writeString(workspace.resolve("b.txt"), "b, changed by the turn\n");
    service.finish(turn);
    browser.awaitTrue("!document.querySelector('.chip-open')");
    browser.await(".file-row[title='b.txt']").click();
    browser.awaitText(".diff-path", "b.txt");
    browser.awaitTrue("document.querySelector('.diff-body .d2h-file-wrapper')");
    assertEquals(List.of("b, changed by the turn"), changedLines("ins"));
    assertEquals(
        Boolean.TRUE, browser.script("return window.__sameDocument === true;"), "no reload");
    browser.screenshot("live-turn-finished");
    browser.assertQuiet("the live view");
  }

  /**
   * The history of a file follows the store as the timeline does: a turn that another process
   * records on the same store (the CLI's {@code turn begin}, {@code snapshot}, {@code turn finish},
   * run in this test's JVM, of which the service announces nothing itself) appears in the open
   * history view through {@code store_changed}, without a reload.
   */
  @Test
  void aTurnAnotherProcessRecordsAppearsInTheOpenHistoryOfItsFile() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("history")).file("a.txt", "a\n");
    Path root = workspace.root();
    String first = service.begin(root, "conv-history");
    service.snapshot(first, List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "a, first turn\n");
    service.finish(first);

    browser.open(service.loginUrl(root));
    browser.await("#live");
    browser.script(
        "location.hash = '#/h/' + encodeURIComponent(arguments[0]) + '/' + encodeURIComponent("
            + "'a.txt');",
        root.toRealPath().toString());
    browser.awaitText(".history-turn", "Turn 1");
    browser.await("#live[data-state='live']");
    browser.script("window.__sameDocument = true;");
    // The page is redrawn in place: the list never gives way to "Loading…" while the new history
    // loads (events come in bursts, and each blank was a flash for the reader and an empty list for
    // a test that looked in between).
    browser.script(
        "window.__blanked = false;"
            + "new MutationObserver(() => {"
            + "  if (!document.querySelector('.history-entry')) window.__blanked = true;"
            + "}).observe(document.body, {childList: true, subtree: true});");

    // the CLI's commands in this JVM (StoreCommands), a process other than the serve's, as a
    // runtime's CLI would be: the same code, without a JVM started for each
    Path database = service.database();
    StoreCommands.run(
            database,
            "turn",
            "begin",
            "--workspace",
            root.toString(),
            "--session",
            "conv-history",
            "--turn",
            "t-from-the-cli")
        .expect(0);
    StoreCommands.run(database, "snapshot", "--turn", "t-from-the-cli", "a.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "a, second turn, by the CLI\n");
    StoreCommands.run(database, "turn", "finish", "--turn", "t-from-the-cli").expect(0);

    browser.awaitTrue(
        "Array.from(document.querySelectorAll('.history-turn'), e => e.textContent).join()"
            + " === 'Turn 2,Turn 1'");
    assertEquals(List.of("Turn 2", "Turn 1"), browser.texts(".history-turn"));
    assertEquals(
        Boolean.TRUE, browser.script("return window.__sameDocument === true;"), "no reload");
    assertEquals(
        Boolean.FALSE, browser.script("return window.__blanked;"), "the list was never blanked");
    assertEquals(
        Boolean.TRUE,
        browser.script(
            "return document.querySelector(\".history-entry[data-turn='\" + arguments[0] + \"']\").open;",
            first),
        "the entry the reader had open (Turn 1) stays open beside the new turn");
    browser.screenshot("live-history");
    browser.assertQuiet("the live history");
  }

  /**
   * Issue 24 item 1 in the panel: a turn's steps are its tool calls in order, and "rewind to before
   * this step" plans first (nothing written), then puts back the files as they were before that
   * call: that call and every later one rewound, the earlier call's write kept; the undo brings the
   * tree back. Checked on disk each time.
   */
  @Test
  void rewindToBeforeAStepPutsBackThatStepAndTheLaterOnesCheckedOnDisk() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("steps")).file("a.txt", "a0\n").file("b.txt", "b0\n");
    Path root = workspace.root();
    String turn = service.begin(root, "conv-steps");
    service.snapshot(turn, "toolu-z-edit-a", List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "a1\n");
    service.snapshot(turn, "toolu-b-edit-ab", List.of("a.txt", "b.txt"));
    Files.writeString(workspace.resolve("a.txt"), "a2\n");
    Files.writeString(workspace.resolve("b.txt"), "b1\n");
    service.snapshot(turn, "toolu-m-new-c", List.of("c.txt"));
    Files.writeString(workspace.resolve("c.txt"), "c1\n");
    service.finish(turn);
    Map<String, String> afterTurn = TreeContent.of(root);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-steps");
    browser.open(service.url() + "/#/t/" + turn);
    // the calls' ids do not sort as the calls came: the steps follow the turn's order
    browser.await("details.steps summary").click();
    browser.awaitTrue("document.querySelectorAll('.step-row').length === 3");
    assertEquals(
        List.of("toolu-z-edit-a", "toolu-b-edit-ab", "toolu-m-new-c"),
        attributes(".step-row", "data-call"));
    browser.screenshot("turn-steps");

    // step 2: the plan first, and nothing written by it
    browser.await(".step-row[data-step='2'] button").click();
    browser.awaitText("#rewind-title", "to before step 2");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    Map<String, List<String>> plan = planSections();
    assertEquals(Set.of("a.txt", "b.txt"), Set.copyOf(plan.get("To restore")), plan.toString());
    assertEquals(List.of("c.txt"), plan.get("To delete"), plan.toString());
    assertEquals(afterTurn, TreeContent.of(root), "the plan wrote nothing");
    browser.screenshot("rewind-step-plan");

    // the run: what step 1 wrote stays, steps 2 and 3 are undone
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog .notice", "Done: every path was put back.");
    assertEquals("a1\n", workspace.readText("a.txt"), "step 1's write stays");
    assertEquals("b0\n", workspace.readText("b.txt"));
    assertFalse(Files.exists(workspace.resolve("c.txt")), "step 3 created it: deleted");
    assertEquals(Set.of("a.txt", "b.txt"), TreeContent.of(root).keySet());

    // undoable as every rewind: the tree is as the turn left it
    browser.clickButton("Undo this rewind…");
    browser.awaitText("#rewind-title", "Undo");
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog .notice", "Done: every path was put back.");
    assertEquals(afterTurn, TreeContent.of(root), "the undo put the turn's files back");
    browser.await("#rewind-dialog .dialog-actions .button-primary").click();
    browser.assertQuiet("a rewind to before a step");
  }

  /**
   * Issue 22 item 8: each hunk of a finished turn's modified file has its button; "Rewind hunk 2…"
   * plans, then reverses that hunk alone (hunk 1 and the user's later edit stay, checked on disk),
   * and the undo gives the file back byte for byte.
   */
  @Test
  void aHunkIsRewoundAloneFromItsButtonAndUndone() throws Exception {
    String before =
        lines("l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8", "l9", "l10", "l11", "l12", "l13");
    String after = before.replace("l2\n", "two\n").replace("l12\n", "twelve\n");
    workspace = TestWorkspace.in(temp.resolve("hunks")).file("f.txt", before);
    Path root = workspace.root();
    String turn = service.begin(root, "conv-hunks");
    service.snapshot(turn, List.of("f.txt"));
    Files.writeString(workspace.resolve("f.txt"), after);
    service.finish(turn);
    // the person's own edit between the two hunks: the rewind merges around it
    String edited = after.replace("l7\n", "seven, by hand\n");
    Files.writeString(workspace.resolve("f.txt"), edited);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-hunks");
    browser.script("location.hash = arguments[0];", "#/t/" + turn);
    browser.await(".file-row[title='f.txt']").click();
    browser.awaitTrue("document.querySelectorAll('.hunk-rewind').length === 2");
    browser.await(".hunk-rewind[data-hunk='2']").click();
    browser.awaitText("#rewind-title", "Rewind hunk 2");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    assertEquals(List.of("f.txt"), planSections().get("Merged"), planSections().toString());
    // issue 22 item 3: the file to merge is previewed, drawn as the review draws a diff: from the
    // file now (the person's edit in it) to what the run writes, which it then writes (see below)
    browser.await("#rewind-dialog .merge-preview[data-path='f.txt'] summary").click();
    browser.awaitTrue(
        "document.querySelector('#rewind-dialog .merge-preview .d2h-file-wrapper') !== null");
    assertEquals(
        List.of("-twelve", "+l12"),
        browser.script(
            "return [...document.querySelectorAll('#rewind-dialog .merge-preview"
                + " td.d2h-del, #rewind-dialog .merge-preview td.d2h-ins')]"
                + ".filter(td => !td.classList.contains('d2h-code-linenumber'))"
                + ".map(td => (td.classList.contains('d2h-del') ? '-' : '+')"
                + " + td.querySelector('.d2h-code-line-ctn').textContent.trim());"),
        "the preview shows hunk 2 reversed, and nothing of the person's edit");
    assertEquals(edited, workspace.readText("f.txt"), "the plan wrote nothing");
    browser.screenshot("hunk-rewind-plan");
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog button", "Undo this rewind…");
    assertEquals(
        edited.replace("twelve\n", "l12\n"),
        workspace.readText("f.txt"),
        "hunk 2 went back; hunk 1 and the person's edit stay");
    browser.clickButton("Undo this rewind…");
    browser.awaitText("#rewind-title", "Undo");
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog .notice", "Done: every path was put back.");
    assertEquals(edited, workspace.readText("f.txt"), "undone byte for byte");
    browser.await("#rewind-dialog .dialog-actions .button-primary").click();
    browser.assertQuiet("the hunk rewind");
  }

  /**
   * Each load of the panel opens an event stream. A page left behind stays in the back/forward
   * cache with its open requests, and Chromium keeps at most six connections per host: when the
   * pages kept their streams, the seventh load waited about a minute for a connection (found by
   * this class, in the view after the 1,000-file turn's runs). Loaded ten times, each load is
   * served; the 30 s bound is a liveness bound, far above a load's second on a loaded machine and
   * far below the minute of a stall.
   */
  @Test
  void reloadingThePanelNeverRunsTheBrowserOutOfConnections() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("reload")).file("a.txt", "a\n");
    Path root = workspace.root();
    String turn = service.begin(root, "conv-reload");
    service.snapshot(turn, List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "b\n");
    service.finish(turn);
    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-reload");
    for (int load = 0; load < 10; load++) {
      browser.openWithin(service.url() + "/#/t/" + turn, Duration.ofSeconds(30));
      browser.awaitWithin("document.body.dataset.firstScreen", Duration.ofSeconds(30));
      browser.await("#live[data-state='live']");
    }
    browser.assertQuiet("ten loads");
  }

  /**
   * Reports the time from navigation to the first screen of a 1,000-file turn in this Chromium
   * against the real service (docs/review-panel.md, section 8), beside its anchor in the same run:
   * the first screen of a one-file turn of the same workspace (the page, its modules, the login,
   * one diff: what every turn costs), loaded just before each load of the large one, so both see
   * the same load, and their ratio is the figure that means something on a shared machine. Printed
   * and written to {@code target/panel-screenshots/first-screen.json}; {@code
   * -Dpanel.firstScreen.runs=N} (default 5). Not a timed assertion: the figure depends on the
   * machine's load, which the report names.
   */
  @Test
  void theFirstScreenOfAThousandFileTurnIsReported() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("large"));
    Path root = workspace.root();
    List<String> paths =
        IntStream.range(0, 1000).mapToObj(i -> "src/module-%03d.py".formatted(i)).toList();
    for (String path : paths) {
      workspace.file(path, lines("# " + path, "VALUE = 1", "", "def f():", "    return VALUE"));
    }
    String turn = service.begin(root, "conv-large");
    service.snapshot(turn, paths);
    for (String path : paths) {
      Files.writeString(
          workspace.resolve(path),
          lines("# " + path, "VALUE = 2", "", "def f():", "    return VALUE"));
    }
    service.finish(turn);
    // the anchor's file is one the large turn did not touch: its plan stays 1,000 files to restore
    workspace.file("anchor.py", lines("VALUE = 1"));
    String anchor = service.begin(root, "conv-one-file");
    service.snapshot(anchor, List.of("anchor.py"));
    Files.writeString(workspace.resolve("anchor.py"), lines("VALUE = 2"));
    service.finish(anchor);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-large");
    int runs = Integer.getInteger("panel.firstScreen.runs", 5);
    List<Long> firstScreen = new ArrayList<>();
    List<Long> anchorScreen = new ArrayList<>();
    List<Long> painted = new ArrayList<>();
    List<Long> records = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      browser.open(service.url() + "/#/t/" + anchor);
      browser.awaitTrue("window.__turndiff.painted");
      anchorScreen.add(
          ((Number) browser.script("return Number(document.body.dataset.firstScreen);"))
              .longValue());
      browser.open(service.url() + "/#/t/" + turn);
      browser.awaitTrue("window.__turndiff.painted");
      firstScreen.add(
          ((Number) browser.script("return Number(document.body.dataset.firstScreen);"))
              .longValue());
      painted.add(((Number) browser.script("return window.__turndiff.painted;")).longValue());
      records.add(
          ((Number)
                  browser.script(
                      "return performance.getEntriesByType('resource')"
                          + ".find(r => /\\/v1\\/turns\\/[^/]+$/.test(r.name)).duration;"))
              .longValue());
    }
    assertEquals("1,000 files · 0 of 1,000 viewed", browser.await(".filelist-summary").getText());
    int rows = browser.all(".file-row").size();
    assertTrue(rows > 0 && rows < 100, "the list is virtualised: " + rows + " rows in the DOM");
    assertEquals("src/module-000.py", browser.await(".diff-path").getText());
    browser.screenshot("turn-1000-files");
    browser.press("j");
    browser.awaitText(".diff-path", "src/module-001.py");

    // the rewind's plan lists all 1,000 as the file list does: only the rows in view are drawn
    // (issue 22 item 3), and scrolling to the end draws the last
    browser.clickButton("Rewind turn…");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    String toRestore = "#rewind-dialog .plan-ok";
    assertEquals("1,000", browser.await(toRestore + " .count").getText());
    int planRows = browser.all(toRestore + " .plan-virtual li").size();
    assertTrue(planRows > 0 && planRows < 100, "the plan is virtualised: " + planRows + " rows");
    browser.script(
        "document.querySelector(arguments[0] + ' .plan-virtual').scrollTop = 1e9;", toRestore);
    browser.awaitTrue(
        "[...document.querySelectorAll('"
            + toRestore
            + " .plan-virtual li')].some(li => li.textContent === 'src/module-999.py')");
    browser.screenshot("rewind-plan-1000-files");
    browser.clickButton("Cancel");
    browser.assertQuiet("the 1,000-file turn");

    String report =
        Json.write(
            Map.of(
                "first_screen_1000_files_ms",
                Map.of("runs", firstScreen, "median", median(firstScreen)),
                "anchor_first_screen_1_file_ms",
                Map.of("runs", anchorScreen, "median", median(anchorScreen)),
                "ratio_1000_files_to_1_file",
                Map.of(
                    "median_of_pairs",
                    medianRatio(firstScreen, anchorScreen),
                    "of_medians",
                    Math.round(100.0 * median(firstScreen) / median(anchorScreen)) / 100.0),
                "painted_ms",
                Map.of("runs", painted, "median", median(painted)),
                "records_request_ms",
                records,
                "rows_in_dom",
                rows,
                "cores",
                Runtime.getRuntime().availableProcessors(),
                "load_average",
                Files.readString(Path.of("/proc/loadavg")).strip()),
            false);
    System.out.println("panel first screen: " + report);
    Files.writeString(
        Path.of(System.getProperty("panel.screenshots", "target/panel-screenshots"))
            .resolve("first-screen.json"),
        report + "\n");
  }

  /** The median of the ratios {@code values[i] / anchors[i]}, to two places. */
  private static double medianRatio(List<Long> values, List<Long> anchors) {
    List<Double> ratios =
        IntStream.range(0, values.size())
            .mapToObj(i -> (double) values.get(i) / Math.max(1, anchors.get(i)))
            .sorted()
            .toList();
    return Math.round(100.0 * ratios.get(ratios.size() / 2)) / 100.0;
  }

  private static long median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @SuppressWarnings("unchecked")
  private static List<String> attributes(String css, String attribute) {
    return (List<String>)
        browser.script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]));",
            css,
            attribute);
  }

  /** The text of the diff's added ({@code ins}) or removed ({@code del}) lines. */
  @SuppressWarnings("unchecked")
  private static List<String> changedLines(String kind) {
    return (List<String>)
        browser.script(
            "return [...document.querySelectorAll('.diff-body td.d2h-' + arguments[0] + ' .d2h-code-line-ctn')]"
                + ".map(e => e.textContent);",
            kind);
  }

  /** The layout button pressed, and the number of side-by-side halves drawn. */
  private static void assertLayout(String pressed, int halves) {
    browser.awaitTrue(
        "document.querySelector('.seg[aria-pressed=true]')?.textContent === '"
            + pressed
            + "' && document.querySelectorAll('.diff-body .d2h-file-side-diff').length === "
            + halves
            + " && document.querySelector('.diff-body .d2h-file-wrapper')");
  }

  /**
   * The rewind dialog's sections: title to entries, each entry its path and, for skipped ones, the
   * reason in words.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, List<String>> planSections() {
    Map<String, List<String>> sections =
        (Map<String, List<String>>)
            browser.script(
                "const out = {};"
                    + "for (const s of document.querySelectorAll('#rewind-dialog .plan-section')) {"
                    + "  out[s.querySelector('summary strong').textContent] ="
                    + "    [...s.querySelectorAll('.plan-list li')].map(li =>"
                    + "      [...li.children].filter(c => !c.classList.contains('detail'))"
                    + "        .map(c => c.textContent).join(' '));"
                    + "}"
                    + "return out;");
    Map<String, List<String>> sorted = new TreeMap<>(sections);
    sorted.putIfAbsent("Conflicts", List.of());
    sorted.putIfAbsent("Skipped", List.of());
    sorted.putIfAbsent("To restore", List.of());
    return sorted;
  }

  /**
   * A conflict a later turn made says so in words (issue 22 item 3): "changed by turn 2 at HH:MM",
   * the turn linked, and "rewind to here…" offered: its plan rewinds turn 2 and every later turn of
   * the session, and its run puts the file back as turn 1 left it, which turn 1's own rewind then
   * reverses cleanly.
   */
  @Test
  void aConflictALaterTurnMadeNamesItAndOffersTheRewindToHere() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("later")).file("a.txt", lines("one", "two"));
    Path root = workspace.root();
    String first = service.begin(root, "conv-later");
    service.snapshot(first, List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), lines("ONE", "two"));
    service.finish(first);
    String second = service.begin(root, "conv-later");
    service.snapshot(second, List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), lines("uno", "two"));
    service.finish(second);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-later");
    browser.open(service.url() + "/#/t/" + first);
    browser.clickButton("Rewind turn…");
    browser.await("#rewind-dialog [data-changed-by]");
    String conflict = planSections().get("Conflicts").getFirst();
    assertTrue(
        conflict.matches("a\\.txt changed by turn 2 at \\d{2}:\\d{2}(:\\d{2})? rewind to here…"),
        conflict);
    assertEquals(
        second,
        browser.script(
            "return document.querySelector('#rewind-dialog [data-changed-by]').dataset.changedBy;"));
    assertTrue(
        browser
            .await("#rewind-dialog [data-changed-by] a")
            .getAttribute("href")
            .endsWith("#/t/" + second),
        "the later turn is linked");
    assertEquals(lines("uno", "two"), workspace.readText("a.txt"), "the plan wrote nothing");
    // the tallies and the force checkbox count the same conflict
    assertEquals(
        List.of("0 to restore", "1 conflict"),
        browser.script(
            "return [...document.querySelectorAll('#rewind-dialog .tallies .tally')]"
                + ".filter(t => /to restore|conflict/.test(t.textContent))"
                + ".map(t => t.querySelector('strong').textContent + ' ' + t.lastChild.textContent);"));
    assertTrue(
        browser
            .await("#rewind-dialog .force")
            .getText()
            .startsWith("Force: overwrite 1 conflict (stored first"),
        browser.await("#rewind-dialog .force").getText());

    browser.clickButton("rewind to here…");
    browser.awaitTrue("!document.querySelector('#rewind-dialog [data-changed-by]')");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    Map<String, List<String>> plan = planSections();
    assertEquals(List.of("a.txt"), plan.get("To restore"), plan.toString());
    assertEquals(List.of(), plan.get("Conflicts"), plan.toString());
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog button", "Undo this rewind…");
    assertEquals(lines("ONE", "two"), workspace.readText("a.txt"), "as turn 1 left it");
    browser.open(service.url() + "/#/t/" + first);
    browser.clickButton("Rewind turn…");
    browser.await("#rewind-dialog .dialog-actions .button-danger");
    assertEquals(List.of(), planSections().get("Conflicts"), "no conflict left");
    browser.await("#rewind-dialog .dialog-actions .button-danger").click();
    browser.awaitText("#rewind-dialog button", "Undo this rewind…");
    assertEquals(lines("one", "two"), workspace.readText("a.txt"), "as before turn 1");
    browser.assertQuiet("a conflict made by a later turn");
  }

  @Test
  void aFileMarkedViewedCollapsesIsTickedAndCountedAndStaysViewedAfterAReload() throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("viewed"))
            .file("a.txt", "a\n")
            .file("b.txt", "b\n")
            .file("c.txt", "c\n");
    Path root = workspace.root();
    String turn = service.begin(root, "conv-viewed");
    service.snapshot(turn, List.of("a.txt", "b.txt", "c.txt"));
    for (String name : List.of("a", "b", "c")) {
      Files.writeString(workspace.resolve(name + ".txt"), name + name + "\n");
    }
    service.finish(turn);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-viewed");
    browser.script("location.hash = arguments[0];", "#/t/" + turn);
    browser.await(".file-row[title='b.txt']").click();
    browser.await(".diff-content .d2h-file-wrapper");
    browser.awaitText(".filelist-summary", "0 of 3 viewed");
    browser.await(".viewed-toggle input").click();
    assertViewed("b.txt");
    browser.screenshot("viewed-marked");

    browser.open(service.url() + "/#/t/" + turn + "?file=b.txt");
    browser.awaitText(".diff-path", "b.txt");
    assertViewed("b.txt");

    // "Show it" opens the diff without unmarking it; unticking takes the mark away
    browser.clickButton("Show it");
    browser.await(".diff-content .d2h-file-wrapper");
    assertEquals("1 of 3 viewed", viewedCount());
    browser.press("v");
    browser.awaitText(".filelist-summary", "0 of 3 viewed");
    assertEquals(
        List.of(), browser.texts(".file-row[data-viewed='true']"), "no row is ticked any more");
    browser.open(service.url() + "/#/t/" + turn + "?file=b.txt");
    browser.awaitText(".filelist-summary", "0 of 3 viewed");
    browser.assertQuiet("viewed marks");
  }

  /**
   * "Hide whitespace" draws the diff without the changes of whitespace alone (a hunk goes, and with
   * it the hunk rewinds, whose hunks are the turn's own), a file changed only so says "Only
   * whitespace changed"; a hunk header's "more lines" and "Whole file" show the lines around the
   * change, from the stored states.
   */
  @Test
  void hidingWhitespaceDropsAWhitespaceOnlyHunkAndMoreContextShowsTheLinesAround()
      throws Exception {
    String before =
        IntStream.rangeClosed(1, 100).mapToObj(n -> "l" + n + "\n").reduce("", String::concat);
    String after = before.replace("l50\n", "L50\n").replace("l60\n", "\tl60  \n");
    workspace =
        TestWorkspace.in(temp.resolve("whitespace")).file("f.txt", before).file("g.txt", "g = 1\n");
    Path root = workspace.root();
    String turn = service.begin(root, "conv-whitespace");
    service.snapshot(turn, List.of("f.txt", "g.txt"));
    Files.writeString(workspace.resolve("f.txt"), after);
    Files.writeString(workspace.resolve("g.txt"), "g  =  1 \n");
    service.finish(turn);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-whitespace");
    browser.script("location.hash = arguments[0];", "#/t/" + turn);
    try {
      browser.await(".file-row[title='f.txt']").click();
      browser.awaitTrue("document.querySelectorAll('.diff-content .context-more').length === 2");
      assertTrue(diffShows("l57"), "the whitespace hunk is drawn");
      assertEquals(2, browser.all(".hunk-rewind").size());

      browser.await(".whitespace-toggle input").click();
      browser.awaitTrue("document.querySelectorAll('.diff-content .context-more').length === 1");
      assertFalse(diffShows("l57"), "the whitespace hunk is gone");
      assertTrue(diffShows("L50"));
      assertEquals(0, browser.all(".hunk-rewind").size(), "no rewind of a hunk not the turn's");
      browser.screenshot("whitespace-hidden");

      browser.await(".context-more").click();
      browser.awaitTrue("document.querySelector('.diff-content').textContent.includes('l27')");
      assertFalse(diffShows("l12"), "20 more lines, not the whole file");
      browser.await(".context-whole").click();
      browser.awaitTrue("document.querySelector('.diff-content').textContent.includes('l12')");
      assertTrue(diffShows("l100"), "to the last line");
      assertEquals(0, browser.all(".context-more").size(), "the whole file: nothing more");

      browser.await(".file-row[title='g.txt']").click();
      browser.awaitText(".diff-card", "Only whitespace changed");
      browser.press("w");
      browser.awaitTrue("document.querySelectorAll('.diff-content .context-more').length === 1");
      assertTrue(diffShows("g  =  1"), "shown again with its whitespace");
      browser.assertQuiet("whitespace and context");
    } finally {
      // the class's browser is shared: the next test starts with whitespace shown
      browser.script("localStorage.removeItem('turndiff.hideWhitespace');");
    }
  }

  private boolean diffShows(String text) {
    return Boolean.TRUE.equals(
        browser.script(
            "return document.querySelector('.diff-content').textContent.includes(arguments[0]);",
            text));
  }

  /** {@code path} is shown viewed: its diff collapsed, its row ticked, and counted. */
  private void assertViewed(String path) {
    browser.awaitText(".viewed-note", "Viewed: the diff is collapsed.");
    assertEquals(
        Boolean.TRUE,
        browser.script(
            "return getComputedStyle(document.querySelector('.diff-content')).display === 'none'"
                + " && document.querySelector('.viewed-toggle input').checked;"),
        "the diff is collapsed and the box ticked");
    browser.await(".file-row[data-viewed='true'][title='" + path + "'] .viewed-tick");
    assertEquals(1, browser.all(".file-row[data-viewed='true']").size());
    assertEquals("1 of 3 viewed", viewedCount());
  }

  private String viewedCount() {
    return browser.await(".filelist-summary .viewed-count").getText().replace("·", "").trim();
  }

  /**
   * A Java file's diff is highlighted (issue 22 item 9): its keywords and types in highlight.js's
   * token spans, the word diff's marks kept around them, and markup in a string left as text.
   */
  @Test
  void aJavaFilesDiffIsHighlightedAndKeepsItsWordDiff() throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("highlight"))
            .file("src/Store.java", lines("public class Store {", "  String name = \"a\";", "}"));
    Path root = workspace.root();
    String turn = service.begin(root, "conv-highlight");
    service.snapshot(turn, List.of("src/Store.java"));
    Files.writeString(
        workspace.resolve("src/Store.java"),
        lines("public class Store {", "  String name = \"<b>bold</b>\";", "  int size = 42;", "}"));
    service.finish(turn);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-highlight");
    browser.open(service.url() + "/#/t/" + turn + "?file=src%2FStore.java");
    browser.awaitTrue(
        "document.querySelector('.diff-body[data-language=\"java\"] .d2h-code-line-ctn .hljs-keyword')");
    List<String> keywords = browser.texts(".diff-body .d2h-code-line-ctn .hljs-keyword");
    assertTrue(keywords.containsAll(List.of("public", "class")), keywords.toString());
    List<String> types = browser.texts(".diff-body .d2h-code-line-ctn .hljs-type");
    assertTrue(types.containsAll(List.of("String", "int")), types.toString());
    assertTrue(
        browser.texts(".diff-body .d2h-code-line-ctn .hljs-number").contains("42"), "a number");
    assertTrue(
        changedLines("ins").contains("  String name = \"<b>bold</b>\";"),
        "the line reads as it is: " + changedLines("ins"));
    assertEquals(0, browser.all(".diff-body b").size(), "the string's markup stays text");
    assertTrue(
        (Boolean)
            browser.script(
                "return [...document.querySelectorAll('.diff-body ins, .diff-body del')]"
                    + ".some(mark => mark.querySelector('[class^=\"hljs-\"]'));"),
        "the word diff's marks are kept, with the tokens inside them");
    browser.screenshot("turn-highlighted");
    browser.assertQuiet("a highlighted diff");
  }

  /**
   * A comment and a text block that span lines are coloured on every line, not only the one where
   * they open: each side of a hunk is highlighted as one text and split by line, the open token
   * carried over. In the unified view the added lines inside the comment (whose opening line is
   * context) are comment, and so is the deleted one; in the side-by-side view too.
   */
  @Test
  void aCommentSpanningLinesIsColouredOnEachOfItsLines() throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("multiline"))
            .file(
                "src/Doc.java",
                lines(
                    "class Doc {",
                    "  /*",
                    "   * the old words",
                    "   */",
                    "  String text = \"\"\"",
                    "      before",
                    "      \"\"\";",
                    "}"));
    Path root = workspace.root();
    String turn = service.begin(root, "conv-multiline");
    service.snapshot(turn, List.of("src/Doc.java"));
    Files.writeString(
        workspace.resolve("src/Doc.java"),
        lines(
            "class Doc {",
            "  /*",
            "   * new words int x = 1;",
            "   */",
            "  String text = \"\"\"",
            "      after class",
            "      \"\"\";",
            "}"));
    service.finish(turn);

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-multiline");
    for (String style : List.of("unified", "side")) {
      browser.script("localStorage.setItem('turndiff.diffStyle', '" + style + "');");
      browser.open("about:blank"); // the page is loaded again, reading the style kept
      browser.open(service.url() + "/#/t/" + turn + "?file=src%2FDoc.java");
      browser.awaitTrue(
          "document.querySelector('.diff-body .d2h-"
              + (style.equals("side") ? "file-side-diff" : "code-linenumber")
              + "')");
      browser.awaitTrue(
          "document.querySelector('.diff-body[data-language=\"java\"] .d2h-code-line-ctn .hljs-keyword')");
      for (String kind : List.of("ins", "del")) {
        String words = kind.equals("ins") ? "   * new words int x = 1;" : "   * the old words";
        String string = kind.equals("ins") ? "      after class" : "      before";
        assertEquals(
            List.of(words, string),
            browser.script(
                "return [...document.querySelectorAll('.diff-body td.d2h-"
                    + kind
                    + " .d2h-code-line-ctn')].map(line => line.textContent);"),
            style);
        assertEquals(
            List.of("hljs-comment", "hljs-string"),
            browser.script(
                "return [...document.querySelectorAll('.diff-body td.d2h-"
                    + kind
                    + " .d2h-code-line-ctn')].map(line => [...new Set([...line.querySelectorAll("
                    + "'span[class^=\"hljs-\"]')].map(span => span.className))].join(' '));"),
            style + ": " + kind + " lines inside a comment and a text block, nothing else");
      }
    }
    browser.assertQuiet("a highlighted diff across lines");
  }

  /**
   * A file git ignores that the shell changed in a tracked workspace keeping ignored files (issue
   * 24 item 2): listed, marked "ignored by git", and its diff neither fetched nor drawn until "Show
   * diff" is clicked, since a {@code .env} holds secrets.
   */
  @Test
  void anIgnoredEnvTheShellChangedIsListedAndItsDiffWaitsForTheButton() throws Exception {
    String secret = "API_KEY=sk-panel-hidden-5c1e";
    workspace =
        TestWorkspace.in(temp.resolve("ignored"))
            .file(".gitignore", ".env\n")
            .file(".env", "API_KEY=old\n")
            .file("app.py", "a = 1\n");
    Path root = workspace.root();
    service.call(
        "POST",
        "/v1/workspaces/track",
        Json.object().put("workspace", root.toString()).put("ignored_files", "small"),
        200);
    String turn = service.begin(root, "conv-ignored");
    service.snapshot(turn, List.of("app.py"));
    Files.writeString(workspace.resolve("app.py"), "a = 2\n");
    // the shell's change: no tool call names the .env, the finish's scan finds it
    Files.writeString(workspace.resolve(".env"), secret + "\n");
    service.finish(turn);
    Map<String, JsonNode> records = new TreeMap<>();
    service.turn(turn).get("files").forEach(file -> records.put(file.get("path").asText(), file));
    assertEquals(Set.of(".env", "app.py"), records.keySet());
    assertTrue(records.get(".env").get("ignored").asBoolean(), records.get(".env").toString());
    assertFalse(records.get("app.py").has("ignored"), "left out when false");

    browser.open(service.loginUrl(root));
    browser.awaitText(".card", "conv-ignored");
    browser.open(service.url() + "/#/t/" + turn + "?file=.env");
    browser.awaitText(".diff-path", ".env");
    assertEquals(
        "ignored by git", browser.await(".file-row[title='.env'] [data-flag='ignored']").getText());
    assertTrue(browser.all(".file-row[title='app.py'] [data-flag='ignored']").isEmpty());
    browser.awaitText(".ignored-gate", "Ignored by git");
    browser.settle();
    String hidden =
        "return performance.getEntriesByType('resource').some(e => e.name.includes('path=.env'));";
    assertEquals(false, browser.script(hidden), "the diff was not even asked for");
    assertFalse(
        ((String) browser.script("return document.documentElement.outerHTML;")).contains(secret));
    assertTrue(browser.all(".diff-body").isEmpty(), "no diff drawn");
    browser.screenshot("ignored-hidden");

    browser.await(".show-ignored-diff").click();
    browser.awaitTrue("document.querySelector('.diff-body .d2h-file-wrapper')");
    assertEquals(List.of(secret), changedLines("ins"));
    assertEquals(List.of("API_KEY=old"), changedLines("del"));
    browser.screenshot("ignored-shown");

    // a range's record says so too, and its diff waits for the button the same way
    browser.open(service.url() + "/#/r/" + turn + "/" + turn + "?file=.env");
    browser.awaitText(".diff-path", ".env");
    browser.awaitText(".ignored-gate", "Ignored by git");
    browser.settle();
    assertEquals(
        false,
        browser.script(
            "return performance.getEntriesByType('resource')"
                + ".some(e => e.name.includes('/v1/range/file') && e.name.includes('path=.env'));"),
        "the range's diff was not asked for");
    browser.await(".show-ignored-diff").click();
    browser.awaitTrue("document.querySelector('.diff-body .d2h-file-wrapper')");
    assertEquals(List.of(secret), changedLines("ins"));

    // and the file's history: its one entry opens on the gate, not on the diff
    browser.open(
        service.url()
            + "/#/h/"
            + URLEncoder.encode(root.toRealPath().toString(), StandardCharsets.UTF_8)
            + "/.env");
    browser.awaitText(".history-entry .ignored-gate", "Ignored by git");
    assertFalse(
        ((String) browser.script("return document.documentElement.outerHTML;")).contains(secret));
    browser.await(".history-entry .show-ignored-diff").click();
    browser.awaitTrue("document.querySelector('.history-diff .d2h-file-wrapper')");
    browser.assertQuiet("an ignored file's diff");
  }
}
