package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's training workload runs every command it names to the end on a fresh store: a
 * command that failed would end the training, and the launcher would never get a cache.
 */
class AotTrainingTest {

  @TempDir Path temp;

  @Test
  void theTrainingRunsEveryCommandAndLeavesTheTurnsItRecorded() throws Exception {
    Path database = temp.resolve("training.db");

    AotTraining.commands(database.toString());

    JsonNode turns =
        StoreCommands.run(database, "turns", "--session", "training").expect(0).json().get("turns");
    List<String> turnsRecorded = new ArrayList<>();
    turns.forEach(
        turn -> turnsRecorded.add(turn.get("kind").asText() + " " + turn.get("state").asText()));
    // the edit the training makes after track (for status to show) is found by the begin: an
    // outside turn before the tracked workspace's turn, begun, snapshotted, shown, finished and
    // rewound, then the rewind's own turn
    assertEquals(
        List.of("outside finished", "agent rewound", "rewind finished"),
        turnsRecorded,
        turns.toString());
  }
}
