package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The human views of the packaged jar, on a pseudo-terminal ({@code script(1)} from util-linux, in
 * every Debian: the JDK has no way to open one) beside the same commands piped, whose output must
 * stay what scripts and the other tests read: a table of turns, {@code show} as files with their
 * stats, {@code log} as {@code git log --stat} and {@code diff} coloured, both through {@code
 * $PAGER}, binary patches named and not printed, and {@code undo}'s plan and question.
 */
class HumanViewsProcessIT {

  private static final String ESC = "\u001b[";

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;

  @BeforeEach
  void setUp() {
    workspace = TestWorkspace.in(temp.resolve("ws"));
    database = temp.resolve("store/turndiff.db");
  }

  /** Turn {@code id} of session s1 begun, and {@code paths} snapshotted in it. */
  private void begin(String id, String... paths) {
    StoreCommands.beginTurn(database, workspace, "s1", id).expect(0);
    List<String> snapshot = new ArrayList<>(List.of("snapshot", "--turn", id));
    snapshot.addAll(List.of(paths));
    StoreCommands.run(database, snapshot.toArray(String[]::new)).expect(0);
  }

  private void finish(String id) {
    StoreCommands.run(database, "turn", "finish", "--turn", id).expect(0);
  }

  /** The environment of a person's shell: a terminal that takes colours, and a pager that logs. */
  private Map<String, String> terminalEnvironment() {
    Map<String, String> environment = new HashMap<>();
    environment.put("TERM", "xterm");
    environment.put("HOME", temp.resolve("home").toString());
    // the pager sees what a person would, and keeps a copy for the test
    environment.put("PAGER", "tee '" + temp.resolve("paged.txt") + "'");
    return environment;
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * Runs the jar in the workspace on a pseudo-terminal (its stdin, stdout and stderr), {@code
   * input} typed into it; stdout and stderr come back together, as a person sees them, with the
   * terminal's CR LF line ends made LF.
   */
  private CommandRun onTerminal(Map<String, String> environment, String input, String... args)
      throws Exception {
    return onTerminal(workspace.root(), environment, input, args);
  }

  /** As {@link #onTerminal(Map, String, String...)}, in {@code directory}. */
  private CommandRun onTerminal(
      Path directory, Map<String, String> environment, String input, String... args)
      throws Exception {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    ProcessBuilder jar = CliProcess.builder(environment, withStore.toArray(String[]::new));
    String command =
        jar.command().stream().map(HumanViewsProcessIT::quoted).collect(Collectors.joining(" "));
    ProcessBuilder script =
        new ProcessBuilder("script", "-qec", command, "/dev/null").directory(directory.toFile());
    script.environment().clear();
    script.environment().putAll(jar.environment());
    script.environment().put("SHELL", "/bin/sh");
    CommandRun run =
        CommandRun.ofProcess(script, input.getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(2));
    return new CommandRun(run.exitCode(), run.out().replace("\r\n", "\n"), run.err());
  }

  /** The same command piped, in the workspace. */
  private CommandRun piped(String... args) throws Exception {
    return piped(workspace.root(), args);
  }

  /** As {@link #piped(String...)}, in {@code directory}. */
  private CommandRun piped(Path directory, String... args) throws Exception {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    ProcessBuilder jar =
        CliProcess.builder(Map.of("TERM", "xterm"), withStore.toArray(String[]::new))
            .directory(directory.toFile());
    return CommandRun.ofProcess(jar);
  }

  private String paged() throws Exception {
    return Files.readString(temp.resolve("paged.txt"), StandardCharsets.UTF_8);
  }

  @Test
  void turnsShowLogAndDiffAreForPeopleOnATerminalAndUnchangedThroughAPipe() throws Exception {
    workspace.file("a.txt", "one\n");
    begin("t1", "a.txt");
    workspace.file("a.txt", "two\n");
    finish("t1");
    begin("t2", "a.txt", "img.bin");
    workspace.file("a.txt", "three\n").file("img.bin", new byte[] {(byte) 0x89, 'P', 0, 1, 2, 27});
    finish("t2");
    Map<String, String> environment = terminalEnvironment();

    CommandRun table = onTerminal(environment, "", "turns").expect(0);
    String text = table.out();
    assertTrue(text.contains("session s1"), text);
    assertTrue(text.contains("#1") && text.contains("#2"), text);
    assertTrue(text.contains("just now"), text);
    assertTrue(text.contains("a.txt and 1 more"), text);
    assertTrue(text.contains("2 files") && text.contains("+1") && text.contains("-1"), text);
    assertTrue(text.contains(ESC), "in colour: " + text);
    assertFalse(text.contains("{\""), text);
    JsonNode listing = piped("turns").expect(0).json();
    assertEquals(2, listing.get("sessions").get(0).get("turns").size(), "piped: the JSON as ever");
    // the page size is checked before the newest page is counted back from it, as piped
    String badLimit =
        onTerminal(environment, "", "turns", "--session", "s1", "--limit", "-1").expect(2).out();
    assertTrue(badLimit.contains("limit -1 is not within 1..500"), badLimit);
    assertFalse(badLimit.contains("unexpected error"), badLimit);

    String shown = onTerminal(environment, "", "show", "--turn", "last").expect(0).out();
    assertTrue(shown.contains("turn t2"), shown);
    assertTrue(shown.contains("Session: s1 #2"), shown);
    assertTrue(shown.contains(" a.txt   | 2 "), shown);
    assertTrue(shown.contains("2 files changed, 1 insertion(+), 1 deletion(-)"), shown);
    assertTrue(piped("show", "--turn", "last").expect(0).json().isArray());

    onTerminal(environment, "", "log", "a.txt").expect(0);
    String log = paged();
    assertTrue(log.contains("turn t1") && log.contains("turn t2"), log);
    assertTrue(log.indexOf("turn t1") < log.indexOf("turn t2"), "oldest first: " + log);
    assertTrue(log.contains("a.txt | 2 "), log);
    assertTrue(log.contains("1 file changed, 1 insertion(+), 1 deletion(-)"), log);
    assertTrue(piped("log", "a.txt").expect(0).json().isArray());

    onTerminal(environment, "", "diff", "--turn", "last").expect(0);
    String diff = paged();
    assertTrue(diff.contains(ESC + "32m+three"), diff);
    assertTrue(diff.contains(ESC + "31m-two"), diff);
    assertTrue(diff.contains("Binary files a/img.bin and b/img.bin differ"), diff);
    assertFalse(diff.contains("GIT binary patch"), "never the base85 on a terminal: " + diff);
    String patch = piped("diff", "--turn", "last").expect(0).out();
    assertTrue(patch.contains("GIT binary patch") && !patch.contains(ESC), patch);

    environment.put("NO_COLOR", "1");
    onTerminal(environment, "", "diff", "--turn", "last").expect(0);
    assertFalse(paged().contains(ESC), paged());
    assertTrue(paged().contains("+three"), paged());
  }

  @Test
  void undoOnATerminalShowsThePlanAndAsksFirst() throws Exception {
    workspace.file("a.txt", "one\n");
    begin("t1", "a.txt");
    workspace.file("a.txt", "two\n");
    finish("t1");
    Map<String, String> environment = terminalEnvironment();
    environment.put("NO_COLOR", "1");

    CommandRun declined = onTerminal(environment, "n\n", "undo").expect(0);
    String asked = declined.out();
    String root = workspace.root().toRealPath().toString();
    assertTrue(asked.contains("Undo #1 of session s1"), asked);
    assertTrue(asked.contains("Workspace: " + root + "\n"), "the workspace is named: " + asked);
    assertTrue(asked.contains("put back") && asked.contains("a.txt"), asked);
    assertTrue(asked.contains("Rewind turn #1 in " + root + " now? [y/N]"), asked);
    assertTrue(asked.contains("nothing was changed"), asked);
    assertEquals("two\n", workspace.readText("a.txt"));

    // from a subdirectory (no git repository here): the workspace is the nearest one above, said
    // so on a terminal, and refused under --yes unless named
    workspace.file("src/keep.txt", "kept\n");
    CommandRun refused = piped(workspace.resolve("src"), "undo", "--yes").expect(2);
    assertTrue(refused.err().contains("give --workspace "), refused.err());
    assertEquals("two\n", workspace.readText("a.txt"), "nothing was written");
    CommandRun accepted =
        onTerminal(workspace.resolve("src"), environment, "y\n", "undo").expect(0);
    assertTrue(
        accepted.out().contains("(the nearest directory above this one with turns"),
        accepted.out());
    assertTrue(accepted.out().contains("Put back 1 path."), accepted.out());
    assertTrue(accepted.out().contains("Recorded as rewind turn "), accepted.out());
    assertEquals("one\n", workspace.readText("a.txt"));

    CommandRun nothingLeft = onTerminal(environment, "", "undo").expect(1);
    assertTrue(nothingLeft.out().contains("has no turn left to undo"), nothingLeft.out());
  }

  /**
   * Issue 22 item 3: {@code rewind --dry-run --patch} on a terminal shows the plan, then each file
   * to merge's preview coloured as {@code diff} colours a patch, through the pager; nothing is
   * written. {@code undo --dry-run --patch} the same, after its heading.
   */
  @Test
  void aPlansMergePreviewIsAColouredPatchOnATerminal() throws Exception {
    String lines = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    workspace.file("a.txt", lines);
    begin("t1", "a.txt");
    workspace.file("a.txt", lines.replace("\n2\n", "\ntwo\n"));
    finish("t1");
    String users = lines.replace("\n2\n", "\ntwo\n").replace("\n11\n", "\neleven\n");
    workspace.file("a.txt", users);

    CommandRun plan =
        onTerminal(terminalEnvironment(), "", "rewind", "--turn", "t1", "--dry-run", "--patch")
            .expect(0);
    String paged = paged();
    assertTrue(paged.contains("merge") && paged.contains("a.txt"), paged);
    assertTrue(paged.contains("diff --git a/a.txt b/a.txt"), paged);
    assertTrue(paged.contains(ESC + "31m-two"), "a removed line in red: " + paged);
    assertTrue(paged.contains(ESC + "32m+2"), "an added line in green: " + paged);
    assertFalse(paged.contains("eleven"), "the user's edit is no change: " + paged);
    assertFalse(plan.out().contains("{\""), plan.out());
    assertEquals(users, workspace.readText("a.txt"), "a plan writes nothing");

    // undo's plan of the same turn: its heading, then the same preview, through the pager
    onTerminal(terminalEnvironment(), "", "undo", "--dry-run", "--patch").expect(0);
    String undone = paged();
    assertTrue(undone.contains("#1") && undone.contains("of session s1"), undone);
    assertTrue(undone.contains(ESC + "31m-two") && undone.contains(ESC + "32m+2"), undone);
    assertEquals(users, workspace.readText("a.txt"), "undo's plan writes nothing");
  }
}
