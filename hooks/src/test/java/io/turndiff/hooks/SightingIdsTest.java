package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.TestPostgres;
import io.turndiff.fixtures.TestStore;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoredHookSighting;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A runtime's session and turn ids are its own free text, and the sightings keep them as it sent
 * them: one holding a NUL (a JSON string may carry one, escaped) is kept with the symbol for it on
 * both dialects — PostgreSQL's text cannot hold a NUL, so the sightings' write failed there, every
 * few seconds — and a call of that session is known for the same session by the next service, which
 * compares it with what the store kept, also where an older version kept the NUL itself (SQLite).
 */
class SightingIdsTest {

  /** Session {@code s␀1}, prompt {@code p␀2}, as a JSON string's content. */
  private static final String SESSION = "s\\u00001";

  private static final String PROMPT = "p\\u00002";

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void idsWithANulAreKeptWithTheSymbolAndKnownAgainByTheNextService(String dialect) {
    StoreAddress store =
        dialect.equals("postgres")
            ? TestPostgres.freshStore()
            : new StoreAddress.SqliteFile(TestStore.fileIn(temp));
    try (ClaudeCodeCalls calls = ClaudeCodeCalls.on(temp, store).inSession(SESSION)) {
      calls.prompt(PROMPT);
      calls.hooks.sightings().persistChanged();
      assertEquals("s\u24001", only(calls.hooks).session(), "as held in memory");

      try (Turndiff reopened = reopen(store)) {
        StoredHookSighting row = onlyRow(reopened);
        assertEquals("s\u24001", row.session());
        assertEquals(Optional.of("p\u24002"), row.promptRuntimeTurn());
        RuntimeHooks next = new RuntimeHooks(reopened, Path::of, new NoTurnEvents());
        assertEquals("s\u24001", only(next).session(), "as the store kept it");
        assertTheToolCallIsOfThePromptSeenToBegin(calls, next);
        next.sightings().persistChanged();
        assertEquals(1, onlyRow(reopened).promptToolCalls());
      }
    }
  }

  @Test
  void aSessionAnOlderVersionKeptWithItsNulIsKnownAgain() throws SQLException {
    StoreAddress.SqliteFile store = new StoreAddress.SqliteFile(TestStore.fileIn(temp));
    try (ClaudeCodeCalls calls = ClaudeCodeCalls.on(temp, store).inSession(SESSION)) {
      calls.prompt(PROMPT);
      calls.hooks.sightings().persistChanged();
      // the row as a version before the ids were kept storable wrote it, NULs and all
      try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + store.path());
          PreparedStatement update =
              sqlite.prepareStatement(
                  "UPDATE hook_sighting SET session = ?, prompt_runtime_turn = ?")) {
        update.setString(1, "s\u00001");
        update.setString(2, "p\u00002");
        assertEquals(1, update.executeUpdate());
      }

      try (Turndiff reopened = reopen(store)) {
        assertEquals("s\u00001", onlyRow(reopened).session(), "the older version's row");
        RuntimeHooks next = new RuntimeHooks(reopened, Path::of, new NoTurnEvents());
        assertEquals("s\u24001", only(next).session());
        assertTheToolCallIsOfThePromptSeenToBegin(calls, next);
      }
    }
  }

  /**
   * A tool call of the prompt {@code calls} began, received by {@code next}: a service that took
   * its session or its prompt for another one's would warn that the prompt's begin never arrived.
   */
  private static void assertTheToolCallIsOfThePromptSeenToBegin(
      ClaudeCodeCalls calls, RuntimeHooks next) {
    next.receive(
        "claude-code",
        calls.payload(
            PROMPT,
            "PreToolUse",
            ClaudeCodeCalls.writeOf(calls.workspace.resolve("a.txt").toString(), "toolu_1")),
        new HookQuery(false, false));
    WireHookSighting seen = only(next);
    assertNull(seen.warning(), "the prompt's begin was seen by the service before");
    assertEquals(1, seen.prompt().toolCalls());
    assertTrue(seen.prompt().begin());
  }

  private static StoredHookSighting onlyRow(Turndiff turndiff) {
    List<StoredHookSighting> rows =
        turndiff.store().readWithoutFolding(tx -> tx.hookSightings().latest(10));
    assertEquals(1, rows.size(), rows.toString());
    return rows.getFirst();
  }

  private static WireHookSighting only(RuntimeHooks hooks) {
    List<WireHookSighting> all = hooks.sightings().all();
    assertEquals(1, all.size(), all.toString());
    return all.getFirst();
  }

  private static Turndiff reopen(StoreAddress store) {
    return Turndiff.builder(store).policy(WorkspacePolicy.anyDirectory()).open();
  }
}
