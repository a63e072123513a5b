package io.turndiff.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestPostgres;
import org.junit.jupiter.api.Test;

/**
 * {@code turndiff bench --db jdbc:postgresql://...} with tiny parameters, on a real PostgreSQL the
 * test starts: capture and query figures for that database and for SQLite in one run (their shape,
 * not their size).
 */
class StoreComparisonBenchTest {

  @Test
  void aPostgresStoreIsMeasuredBesideSqliteInOneRun() {
    String url = TestPostgres.freshStoreUrl();
    JsonNode result =
        CommandRun.inProcess(
                BenchMain::run,
                "--db",
                url,
                "bench",
                "--files",
                "40",
                "--turn-files",
                "3",
                "--turns",
                "3",
                "--warmup",
                "1",
                "--json")
            .expect(0)
            .json();
    for (String store : new String[] {"sqlite", "postgresql"}) {
      JsonNode figures = result.get(store);
      assertEquals(3, figures.get("turns").asInt(), result.toString());
      for (String figure :
          new String[] {"capture_median_ms", "records_median_ms", "patch_median_ms"}) {
        assertTrue(figures.get(figure).asDouble() > 0, store + " " + figure + ": " + result);
      }
    }
    assertTrue(result.get("postgresql").get("store").asText().startsWith("jdbc:postgresql://"));
  }
}
