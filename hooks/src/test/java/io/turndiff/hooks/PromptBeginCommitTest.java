package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestPostgres;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.store.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prompt's hook is one write to the store: the turn's begin, its prompt and the runtime process
 * the hook script named, in one transaction. Before, the prompt and the process each took a write
 * transaction of their own after the begin's, three commits a prompt (docs/performance.md, "A
 * prompt's begin in one commit"). Over a real store, real files and a real runtime process ({@code
 * sleep}); closing the calls checks nothing outside the workspace changed.
 */
class PromptBeginCommitTest {

  @TempDir Path temp;

  private final StandInRuntimes runtimes = new StandInRuntimes();
  private ClaudeCodeCalls calls;

  @AfterEach
  void tearDown() throws InterruptedException {
    runtimes.close();
    if (calls != null) {
      calls.close();
    }
  }

  @Test
  void aPromptsBeginKeepsItsPromptAndRuntimeInOneWrite() throws IOException {
    beginsInOneWrite(false);
  }

  @Test
  void aPromptsBeginInATrackedWorkspaceKeepsThemInOneWriteToo() throws IOException {
    beginsInOneWrite(true);
  }

  private void beginsInOneWrite(boolean tracked) throws IOException {
    calls = ClaudeCodeCalls.in(temp, tracked);
    RuntimeProcess runtime = runtimes.start();
    calls.from(runtime);
    // the session's first prompt also makes the session: a second prompt is a prompt alone
    calls.prompt("p-1");
    calls.send("p-1", "Stop", "");
    calls.workspace.file("a.txt", "changed between the turns\n");

    long before = writes();
    HookOutcome begun = calls.prompt("p-2");
    long written = writes() - before;

    assertEquals(List.of("begun"), begun.outcomes());
    assertEquals(1, written, "write transactions of the prompt's hook");
    assertEquals("go", prompt("claude-code:p-2"));
    assertEquals(
        runtime.pid() + " " + runtime.startTicks() + " " + runtime.bootId().orElseThrow(),
        runtimeOf("claude-code:p-2"));
  }

  /**
   * On PostgreSQL, where a store keeps prompts only when told to: the runtime is kept with the
   * begin, a runtime with no boot id too (a NULL bound to the prepared update), and the prompt is
   * dropped until the store is told to keep prompts, then kept.
   */
  @Test
  void onPostgresqlThePromptIsKeptOnlyWhenTheStoreKeepsPrompts() throws IOException {
    calls = ClaudeCodeCalls.on(temp, TestPostgres.freshStore());
    RuntimeProcess started = runtimes.start();
    RuntimeProcess runtime =
        new RuntimeProcess(started.pid(), started.startTicks(), Optional.empty());
    calls.from(runtime);

    assertEquals(List.of("begun"), calls.prompt("p-1").outcomes());
    assertEquals(runtime.pid() + " " + runtime.startTicks() + " ", runtimeOf("claude-code:p-1"));
    assertEquals(
        "1",
        StoreRows.text(
            calls.turndiff.store(),
            "SELECT count(*) FROM turn WHERE external_id = 'claude-code:p-1'"
                + " AND runtime_boot_id IS NULL"),
        "no boot id: NULL, not a text");
    assertEquals("0", count("claude-code:p-1"), "a prompt this store does not keep");

    calls
        .turndiff
        .store()
        .write(
            tx -> {
              tx.prompts().keep(true);
              return null;
            });
    assertEquals(List.of("finished", "begun"), calls.prompt("p-2").outcomes());
    assertEquals("go", prompt("claude-code:p-2"));
    assertEquals(runtime.pid() + " " + runtime.startTicks() + " ", runtimeOf("claude-code:p-2"));
  }

  private String prompt(String turn) {
    return StoreRows.text(calls.turndiff.store(), "SELECT prompt FROM turn_prompt" + ofTurn(turn));
  }

  private String count(String turn) {
    return StoreRows.text(
        calls.turndiff.store(), "SELECT count(*) FROM turn_prompt" + ofTurn(turn));
  }

  /** The turn's runtime process as its row keeps it: pid, start ticks, boot id (blank if none). */
  private String runtimeOf(String turn) {
    return StoreRows.text(
        calls.turndiff.store(),
        "SELECT runtime_pid || ' ' || runtime_start_ticks || ' ' || coalesce(runtime_boot_id, '')"
            + " FROM turn WHERE external_id = '"
            + turn
            + "'");
  }

  private static String ofTurn(String turn) {
    return " WHERE turn_id = (SELECT id FROM turn WHERE external_id = '" + turn + "')";
  }

  /**
   * This process's writes to the store so far ({@link Store#changeMark}: a SQLite store). The mark
   * is not taken while another thread writes: the line diffs a finish or an outside turn left to
   * the background are stored first (their writes are not counted).
   */
  private long writes() {
    calls.turndiff.diffs().awaitAskedFor();
    return calls.turndiff.store().changeMark().orElseThrow().writes();
  }
}
