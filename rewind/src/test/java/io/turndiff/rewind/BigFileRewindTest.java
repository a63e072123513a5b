package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.BigFiles;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.model.PathInput;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A big file a turn edited (40 MB, within the default size limit of 64 MiB) is rewound byte for
 * byte from its chunks, streamed, and its undo brings the edit back; its diff is the comment line
 * every content too large to show gets. Over the real store and files, the default boundary.
 */
class BigFileRewindTest extends HarnessTest {

  private static final long BIG = 40_000_000;

  @Test
  void aFortyMegabyteFileATurnEditedIsRewoundByteForByteAndTheUndoBringsTheEditBack()
      throws Exception {
    Path lockfile = h.workspace.resolve("package-lock.json");
    BigFiles.writeLockfile(lockfile, BIG);
    Sha256 original = BigFiles.sha256Of(lockfile);
    String turn = h.turn(List.of("package-lock.json"), () -> BigFiles.editTheMiddle(lockfile));
    Sha256 edited = BigFiles.sha256Of(lockfile);

    String diff = h.queries.patch(turn, List.of(PathInput.text("package-lock.json")));
    assertTrue(
        diff.contains("(40000000 bytes, too large to show); no content is shown"),
        "the comment line of a content too large to show: " + diff);

    RewindReport rewound = h.rewindTurn(turn);
    assertTrue(rewound.complete(), rewound.toString());
    assertEquals(List.of(WorkspacePath.of("package-lock.json")), rewound.restored());
    assertEquals(BIG, Files.size(lockfile));
    assertEquals(original, BigFiles.sha256Of(lockfile), "the before-state, byte for byte");
    assertEquals(
        "0",
        StoreRows.text(h.store, "SELECT count(*) FROM chunked_content WHERE sha256 IS NULL"),
        "no upload left unfinished");

    RewindReport undone = h.rewindTurn(rewound.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(edited, BigFiles.sha256Of(lockfile), "the turn's edit, back byte for byte");
  }
}
