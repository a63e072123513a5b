package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The two prompts the Claude Code and Codex end-to-end tests script, each with the runtime's own
 * tools, and what the store must say of them. The workspace:
 *
 * <pre>
 *   notes.txt "alpha\nbeta\n", src/app.txt "v1\n", old.txt "old\n", trash.txt "bye\n"
 *   outside-link.txt -> outside/secret.txt   (the canary's secret)
 *   outside-dir      -> outside               (relinked to src by prompt 2)
 *   escape-dir       -> elsewhere             (a directory out, never relinked)
 * </pre>
 *
 * Prompt 1 adds {@code hello.txt} and {@code sub/rel.txt} and changes {@code notes.txt} with the
 * file tool, {@code src/app.txt} with the shell. Prompt 2, with the shell: moves {@code old.txt} to
 * {@code renamed.txt} and removes {@code trash.txt}; a command holding a patch that names {@code
 * outside-link.txt}, then appends to it (a write through the link out); relinks {@code outside-dir}
 * to {@code src}; writes {@code from-shell.txt} and makes it executable. With the file tool: a new
 * {@code escape-dir/planted.txt} (through the directory link out).
 */
final class TwoPromptScenario {

  /** The shell command of prompt 2 that writes through the file link out of the workspace. */
  static final String APPEND_THROUGH_LINK =
      "cat >/dev/null <<'EOF'\n*** Begin Patch\n*** Update File: outside-link.txt\n@@\n"
          + "+appended\n*** End Patch\nEOF\nprintf 'appended through the link\\n' >> outside-link.txt";

  /** What {@link #APPEND_THROUGH_LINK} appends to the secret when the runtime runs it. */
  static final String APPENDED = "appended through the link\n";

  /** The paths out of the workspace a hook names in prompt 2, recorded metadata only. */
  static final Set<String> ESCAPED = Set.of("escape-dir/planted.txt", "outside-link.txt");

  private final TestWorkspace workspace;
  private final Path elsewhere;
  private final TurnEvidence evidence;
  private Map<String, String> beforeOne;
  private Map<String, String> afterOne;
  private Map<String, String> afterTwo;
  private Path copyOne;
  private Path copyTwo;

  TwoPromptScenario(Path temp, HookTestStore store) throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("w"))
            .file("notes.txt", "alpha\nbeta\n")
            .file("src/app.txt", "v1\n")
            .file("old.txt", "old\n")
            .file("trash.txt", "bye\n");
    elsewhere = Files.createDirectories(workspace.base().resolve("elsewhere"));
    workspace
        .symlink("outside-link.txt", workspace.secret().toString())
        .symlink("outside-dir", workspace.outside().toString())
        .symlink("escape-dir", elsewhere.toString());
    evidence = new TurnEvidence(store.env(), store.database(), temp, workspace.canary());
  }

  TestWorkspace workspace() {
    return workspace;
  }

  /** What the store says, read as the scenario reads it. */
  TurnEvidence evidence() {
    return evidence;
  }

  Path root() {
    return workspace.root();
  }

  /** The directory {@code escape-dir} leads to, outside the workspace and the canary's tree. */
  Path elsewhere() {
    return elsewhere;
  }

  /** Takes the tree (and a copy of it) before prompt 1. */
  void beforePromptOne() {
    beforeOne = TreeContent.of(root());
    copyOne = evidence.copyOf(root(), "tree-before-1");
  }

  /** Takes the tree (and a copy of it) after prompt 1, which is the tree before prompt 2. */
  void beforePromptTwo() {
    afterOne = TreeContent.of(root());
    copyTwo = evidence.copyOf(root(), "tree-before-2");
  }

  /** Takes the tree after prompt 2. */
  void afterPromptTwo() {
    afterTwo = TreeContent.of(root());
  }

  /**
   * The runtime really did what the script asked, else the store would be checked against nothing
   * (the Gemini test's scripted turns make the same changes in a workspace laid out alike).
   */
  static void assertTheRuntimeDidIt(TestWorkspace workspace) throws Exception {
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
  }

  /**
   * What the store says of the session's two prompts: one finished turn each; every changed file's
   * before and after as the trees had them and found as expected (the file tools' snapshots, the
   * shell's finish scan); the paths out metadata only; each turn's patch applied with {@code git
   * apply} gives the tree after it; rewinding the turns newest first gives back the trees before
   * them byte for byte (the paths out skipped); the secret nowhere.
   */
  void assertTurnsReviewAndRewind(String sessionId, int hookCalls) throws Exception {
    JsonNode counters = evidence.hookCounters(sessionId.substring(0, sessionId.indexOf(':')));
    System.out.println("hook calls the service received: " + counters);
    assertEquals(hookCalls, counters.path("received").asInt(), "every hook arrived: " + counters);
    assertEquals(0, counters.path("failed").asInt(), counters.toString());
    List<String> turns = evidence.finishedTurns(sessionId, 2);
    assertEquals(
        List.of("do prompt one", "do prompt two"),
        evidence.titles(sessionId),
        "each turn's title is the prompt the runtime's hook carried");
    String turnOne = turns.get(0);
    String turnTwo = turns.get(1);

    // every file's before and after, as the trees on disk had them; how each was found
    evidence.assertFirstPromptTurn(turnOne, beforeOne, afterOne);

    Map<String, JsonNode> recordsTwo = evidence.records(turnTwo);
    Set<String> insideTwo = new TreeSet<>(recordsTwo.keySet());
    insideTwo.removeAll(ESCAPED);
    assertEquals(
        Set.of("old.txt", "renamed.txt", "trash.txt", "outside-dir", "from-shell.txt"),
        insideTwo,
        recordsTwo.keySet().toString());
    assertEquals(TurnEvidence.changedEntries(afterOne, afterTwo), insideTwo);
    evidence.assertSecondPromptShellRecords(recordsTwo, afterOne, afterTwo);
    evidence.assertEscaped(recordsTwo, "outside-link.txt", "snapshot", "escapes_workspace");
    // the path through the directory link out: before, escapes_workspace; after, exactly that
    // name with nothing followed holds nothing in the workspace (a path under a link is absent, the
    // rule a rewind of a directory replaced by a link relies on); nothing is read on either side
    evidence.assertEscapedThenAbsentByItsExactName(recordsTwo, "escape-dir/planted.txt");
    evidence.assertDirectories(turnTwo, Map.of());

    String patchOne = evidence.assertPatchApplies(turnOne, copyOne, afterOne);
    assertTrue(patchOne.contains("-beta\n+BETA\n"), patchOne);
    String patchTwo = evidence.assertPatchApplies(turnTwo, copyTwo, afterTwo);
    assertTrue(patchTwo.contains("new file mode 100755"), patchTwo);

    evidence.rewind(turnTwo, insideTwo, Set.of(), ESCAPED);
    assertEquals(afterOne, TreeContent.of(root()), "the tree before prompt 2, byte for byte");
    evidence.rewind(
        turnOne,
        Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"),
        Set.of("sub"),
        Set.of());
    assertEquals(beforeOne, TreeContent.of(root()), "the tree before prompt 1, byte for byte");
  }

  /**
   * The canary at the end: the secret's bytes in no store file, no blob, no output or log (the
   * service is stopped for the last look at the files).
   */
  void assertSecretNowhere() throws Exception {
    evidence.assertSecretNowhere();
  }
}
