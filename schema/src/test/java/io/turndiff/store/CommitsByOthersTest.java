package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Store#commitsByOthers()} on a real SQLite file opened twice, as two processes open it: the
 * number moves when the other store commits, and stays put for the store's own writes and when
 * nothing was committed, so that a service announces only what it did not announce itself.
 */
class CommitsByOthersTest {

  @TempDir Path temp;

  @Test
  void theNumberMovesForTheOtherStoresCommitsOnly() {
    Path file = temp.resolve("turndiff.db");
    try (Store service = Store.open(file);
        Store other = Store.open(file)) {
      OptionalLong first = service.commitsByOthers();
      assertTrue(first.isPresent(), "SQLite keeps the number");
      assertEquals(first, service.commitsByOthers(), "nothing committed: the same number");

      service.write(
          transaction -> {
            transaction.settings().put("max_size", "1000");
            return null;
          });
      assertEquals(first, service.commitsByOthers(), "its own commit is not another's");

      other.write(
          transaction -> {
            transaction.settings().put("max_size", "2000");
            return null;
          });
      OptionalLong afterOther = service.commitsByOthers();
      assertNotEquals(first, afterOther, "the other store's commit moved it");
      assertEquals(afterOther, service.commitsByOthers(), "and it stays until the next");
      assertEquals(
          "2000",
          service.read(transaction -> transaction.settings().get("max_size")).orElseThrow());
    }
  }
}
