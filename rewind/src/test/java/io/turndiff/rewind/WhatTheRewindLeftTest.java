package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TestHook;
import io.turndiff.store.StoredTurn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rewind turn's after-state of a file the rewind put in place is what the rewind left there:
 * the content it wrote and the stat of the file it renamed into place ({@code fstat} of the staged
 * file once written), not a read of the path after the run, which may find another's change.
 */
class WhatTheRewindLeftTest extends HarnessTest {

  /**
   * Someone writes a.txt after the rewind renamed it into place and before the rewind turn was
   * finished. The rewind turn records what the rewind left, so undoing the rewind finds a.txt
   * changed since and leaves that change, reported; before, the rewind turn recorded the other's
   * change as the rewind's own after-state, and the undo overwrote it. (The fallback's handle
   * cannot stat the file it wrote, so there the path is still read after the run, and such a change
   * is still taken for the rewind's: {@code WriteOutcome.Staged#written}.)
   */
  @Test
  void aChangeMadeRightAfterTheRenameIsNotTakenForTheRewindsOwn() throws Exception {
    RewindHarness over = h.over(BoundaryKind.OPENAT2);
    h.workspace.file("a.txt", "one\n").file("b.txt", "b\n");
    String turn =
        over.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "two\n");
              Files.writeString(file("b.txt"), "b, edited\n");
            });
    TestHook editsAfterTheRename =
        point -> {
          if (point == TestHook.Point.BEFORE_REWIND_JOURNALED_DONE) {
            try {
              Files.writeString(file("a.txt"), "someone's edit\n");
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          }
        };
    RewindReport rewound =
        new RewindService(over.store, over.handles, editsAfterTheRename)
            .rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    assertEquals(List.of("a.txt", "b.txt"), paths(rewound.restored()), rewound.toString());
    Map<String, Snapshot> left = afterStates(rewound.rewindTurn().orElseThrow());
    assertEquals(
        Optional.of(Sha256.of("one\n".getBytes(StandardCharsets.UTF_8))),
        left.get("a.txt").storedContent(),
        "the rewind turn holds what the rewind wrote");

    RewindReport undone = over.rewindTurn(rewound.rewindTurn().orElseThrow());
    assertEquals(List.of("b.txt"), paths(undone.restored()), undone.toString());
    assertEquals(
        List.of("a.txt conflict"),
        undone.skipped().stream().map(skip -> skip.path().display() + " " + skip.reason()).toList(),
        undone.toString());
    assertEquals("someone's edit\n", Files.readString(file("a.txt")), "the other's change kept");
    assertEquals("b, edited\n", Files.readString(file("b.txt")));
  }

  /**
   * What the rewind turn holds of a file the rewind put in place is the file's own stat: the inode,
   * size, modification time and mode a stat of it gives after the rewind, through either handle
   * (the fallback's is read after the run, as every path was before). A guard that the stat the
   * staged file's descriptor gave is the one the path holds once renamed, which a read after the
   * run, as before, also passes.
   */
  @ParameterizedTest
  @EnumSource(
      value = BoundaryKind.class,
      names = {"OPENAT2", "SECURE_DIRECTORY_STREAM"})
  void theAfterStateOfAFilePutInPlaceIsItsOwnStat(BoundaryKind kind) throws Exception {
    RewindHarness over = h.over(kind);
    h.workspace.file("run.sh", "echo one\n").mode("run.sh", "rwxr-x---");
    h.workspace.file("dir/notes.md", "# notes\n");
    String turn =
        over.turn(
            List.of("run.sh", "dir/notes.md"),
            () -> {
              Files.writeString(file("run.sh"), "echo two, longer\n");
              Files.delete(file("dir/notes.md"));
            });
    // the rewind's writes come a tick later than the turn's: their times differ from the turn's
    TimeUnit.MILLISECONDS.sleep(20);
    RewindReport rewound = over.rewindTurn(turn);
    assertTrue(rewound.complete(), rewound.toString());
    Map<String, Snapshot> left = afterStates(rewound.rewindTurn().orElseThrow());
    for (String path : List.of("run.sh", "dir/notes.md")) {
      assertEquals(
          Optional.of(statOf(path)), left.get(path).metadata(), path + " as a stat of it says");
    }
  }

  private Map<String, Snapshot> afterStates(String rewindTurn) {
    StoredTurn stored = h.store.read(tx -> tx.turns().byExternalId(rewindTurn)).orElseThrow();
    return h.store.read(tx -> tx.fileChanges().ofTurn(stored.id())).stream()
        .collect(
            Collectors.toMap(
                change -> change.path().display(), change -> change.after().orElseThrow()));
  }

  private FileMetadata statOf(String path) throws Exception {
    Map<String, Object> unix =
        Files.readAttributes(
            file(path), "unix:ino,size,lastModifiedTime,mode,nlink", LinkOption.NOFOLLOW_LINKS);
    return new FileMetadata(
        FileType.REGULAR,
        ((Number) unix.get("size")).longValue(),
        ((FileTime) unix.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
        (Integer) unix.get("mode") & 07777,
        ((Number) unix.get("ino")).longValue(),
        ((Number) unix.get("nlink")).longValue());
  }
}
