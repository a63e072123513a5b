package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.StatProof;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record of a clean integrity check: what it holds, when a state may be recorded, and that a
 * record which is not exactly one written by turndiff proves nothing. (How opening a store uses it,
 * on real stores damaged in place: {@link DamagedStoreTest}.)
 */
class CleanCheckTest {

  private static final long NOW = 1_800_000_000_000_000_000L;

  @TempDir Path temp;

  private static CleanCheck.FileState changedAt(long nanos) {
    return new CleanCheck.FileState(2049, 77, 4096, nanos, nanos);
  }

  @Test
  void aStateIsSettledOnlyWhenBothFilesChangedBeforeTheRacyWindow() {
    long old = NOW - StatProof.RACY_WINDOW_NANOS - 1;
    long racy = NOW - StatProof.RACY_WINDOW_NANOS + 1;
    assertTrue(new CleanCheck.StoreState(changedAt(old), Optional.empty(), NOW).settled());
    assertTrue(
        new CleanCheck.StoreState(changedAt(old), Optional.of(changedAt(old)), NOW).settled());
    assertFalse(new CleanCheck.StoreState(changedAt(racy), Optional.empty(), NOW).settled());
    assertFalse(
        new CleanCheck.StoreState(changedAt(old), Optional.of(changedAt(racy)), NOW).settled());
  }

  @Test
  void aRecordReadsBackAsTheStateItWasWrittenFrom() {
    for (Optional<CleanCheck.FileState> wal :
        List.of(Optional.<CleanCheck.FileState>empty(), Optional.of(changedAt(NOW)))) {
      CleanCheck.StoreState state = new CleanCheck.StoreState(changedAt(NOW - 1), wal, NOW);
      assertEquals(Optional.of(state), CleanCheck.StoreState.parse(state.text()));
    }
  }

  @Test
  void aRecordThatIsNotExactlyOneTurndiffWroteProvesNothing() throws Exception {
    Path file = temp.resolve("turndiff.db");
    Files.write(file, new byte[4096]);
    CleanCheck.StoreState now = CleanCheck.StoreState.of(file);
    String good =
        new CleanCheck.StoreState(now.database(), now.wal(), now.takenAtNanos() + 1_000_000_000L)
            .text();
    for (String record :
        List.of(
            "",
            "garbage",
            good.replace("turndiff clean quick_check 1", "turndiff clean quick_check 2"),
            good.substring(0, good.length() - 1),
            good + "more\n",
            good.replace(" ", "  "))) {
      Files.write(CleanCheck.recordOf(file), record.getBytes(StandardCharsets.US_ASCII));
      assertFalse(CleanCheck.stillHolds(file, now), "taken as a clean check: " + record);
    }
    Files.write(CleanCheck.recordOf(file), good.getBytes(StandardCharsets.US_ASCII));
    assertTrue(CleanCheck.stillHolds(file, now), "the record written by turndiff was not taken");
  }
}
