package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.TurnKind;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A prompt is kept whatever characters it holds, the same on both dialects: PostgreSQL's text
 * cannot hold a NUL, which a JSON string may carry (escaped) and a pasted binary brings, so a NUL
 * is kept as the symbol for one, on SQLite too. Read back in a store opened again.
 */
class PromptsTest {

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aPromptWithANulIsKeptWithTheSymbolForIt(String dialect) {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    long turn;
    try (Store store = Store.open(address)) {
      turn =
          store.write(
              tx -> {
                tx.prompts().keep(true);
                var workspace = tx.workspaces().register("/given/w", "/real/w", 1, 2);
                var session = tx.sessions().create("s", workspace.id());
                long id = tx.turns().begin("t", session, TurnKind.AGENT).id();
                tx.prompts().record(id, "explain this file: PK\u0003\u0004\u0000\u0000 and fix it");
                return id;
              });
    }
    try (Store again = Store.open(address)) {
      assertEquals(
          Optional.of("explain this file: PK\u0003\u0004\u2400\u2400 and fix it"),
          again.read(tx -> tx.prompts().of(turn)));
    }
  }
}
