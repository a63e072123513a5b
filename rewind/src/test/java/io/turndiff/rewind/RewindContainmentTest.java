package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The write-side case families of the boundary design, through rewind: a rewind never writes
 * through a symlink, into a hardlinked inode, under a symlinked parent, or outside the workspace,
 * even with --force and under a racing attacker. Every test checks the canary.
 */
class RewindContainmentTest extends HarnessTest {

  private String modifyTurn(String path) {
    return h.turn(List.of(path), () -> Files.writeString(file(path), "agent's version\n"));
  }

  /** A turn that modified a.txt, which the user then replaced with a link to the outside secret. */
  private String turnWhoseFileIsNowALinkOut() throws Exception {
    h.workspace.file("a.txt", "mine\n");
    String turn = modifyTurn("a.txt");
    Files.delete(file("a.txt"));
    Files.createSymbolicLink(file("a.txt"), h.workspace.secret());
    return turn;
  }

  private static RewindRequest forced(String turn) {
    return new RewindRequest(turn, false, Optional.empty(), false, true);
  }

  @Test
  void aFinalSymlinkPlantedAfterTheTurnIsReplacedOnlyWithForceAndNeverWrittenThrough()
      throws Exception {
    String turn = turnWhoseFileIsNowALinkOut();
    assertEquals("conflict", h.rewindTurn(turn).skipped().getFirst().reason());
    assertTrue(Files.isSymbolicLink(file("a.txt")));
    RewindReport forced =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true));
    assertEquals(List.of(WorkspacePath.of("a.txt")), forced.restored(), forced.toString());
    assertFalse(Files.isSymbolicLink(file("a.txt")));
    assertEquals("mine\n", h.workspace.readText("a.txt"));
  }

  @Test
  void theUndoOfARewindThatForcedOverALinkOutPutsTheLinkBackWithItsText() throws Exception {
    String turn = turnWhoseFileIsNowALinkOut();
    RewindReport forced = h.rewind.rewind(forced(turn));
    assertEquals(List.of(WorkspacePath.of("a.txt")), forced.restored(), forced.toString());
    assertEquals("mine\n", h.workspace.readText("a.txt"));
    var replaced =
        h.queries.records(forced.rewindTurn().orElseThrow()).changes().getFirst().before();
    assertEquals(
        Optional.of(h.workspace.secret().toString()), replaced.linkTarget().map(t -> t.display()));
    assertTrue(
        replaced.captured(),
        "the link it replaced is recorded as the link: its text is all it held");

    RewindReport undone = h.rewindTurn(forced.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(
        h.workspace.secret(), Files.readSymbolicLink(file("a.txt")), "the link is back, same text");
  }

  @Test
  void aForcedRewindOverALinkOutThatFailedBeforeItsRenameIsResumedAndItsUndoPutsTheLinkBack()
      throws Exception {
    String turn = turnWhoseFileIsNowALinkOut();
    RewindService failing =
        new RewindService(
            h.store,
            h.handles,
            point -> {
              if (point == TestHook.Point.BEFORE_REWIND_RENAME) {
                throw new IllegalStateException("the rewind dies before its rename");
              }
            });
    Assertions.assertThrows(IllegalStateException.class, () -> failing.rewind(forced(turn)));
    assertEquals(
        h.workspace.secret(), Files.readSymbolicLink(file("a.txt")), "nothing renamed yet");
    RewindReport resumed = h.rewind.rewind(forced(turn));
    assertEquals(
        List.of(WorkspacePath.of("a.txt")),
        resumed.restored(),
        "the link out still holds what it held when the write was decided: " + resumed);
    assertEquals("mine\n", h.workspace.readText("a.txt"));
    assertTrue(h.rewindTurn(resumed.rewindTurn().orElseThrow()).complete());
    assertEquals(h.workspace.secret(), Files.readSymbolicLink(file("a.txt")));
  }

  @Test
  void aHardlinkedNameIsReplacedWithForceAndTheOutsideInodeIsUnchanged() throws Exception {
    h.workspace.file("a.txt", "mine\n");
    String turn = modifyTurn("a.txt");
    Files.delete(file("a.txt"));
    Files.createLink(file("a.txt"), h.workspace.secret());
    h.workspace.refreshOutsidePicture();
    Object inode = Files.getAttribute(h.workspace.secret(), "unix:ino");
    assertEquals("conflict", h.rewindTurn(turn).skipped().getFirst().reason());
    RewindReport forced =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true));
    assertEquals(List.of(WorkspacePath.of("a.txt")), forced.restored(), forced.toString());
    assertEquals("mine\n", h.workspace.readText("a.txt"));
    assertEquals(inode, Files.getAttribute(h.workspace.secret(), "unix:ino"));
    assertEquals(h.workspace.canary().text(), Files.readString(h.workspace.secret()));
  }

  @Test
  void aParentReplacedByASymlinkIsRefusedEvenWithForce() throws Exception {
    h.workspace.file("dir/secret.txt", "mine\n");
    String turn = modifyTurn("dir/secret.txt");
    Files.move(file("dir"), file("dir.moved"));
    Files.createSymbolicLink(file("dir"), h.workspace.outside().resolve("dir"));
    RewindReport report =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true));
    assertEquals("refused", report.skipped().getFirst().reason(), report.toString());
  }

  @Test
  void parentsAreNeverCreatedThroughASymlink() throws Exception {
    h.workspace.file("kept/deep/x.txt", "x\n");
    String turn =
        h.turn(
            List.of("kept/deep/x.txt"),
            () -> {
              Files.delete(file("kept/deep/x.txt"));
              Files.delete(file("kept/deep"));
              Files.delete(file("kept"));
            });
    Files.createSymbolicLink(file("kept"), h.workspace.outside());
    RewindReport report =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true));
    assertEquals("refused", report.skipped().getFirst().reason(), report.toString());
    assertFalse(Files.exists(h.workspace.outside().resolve("deep")), "nothing created outside");
  }

  @Test
  void aDirectoryWhereTheFileShouldGoIsRefusedEvenWithForce() throws Exception {
    h.workspace.file("a.txt", "mine\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.delete(file("a.txt")));
    h.workspace.file("a.txt/inside.txt", "the user's\n");
    RewindReport report =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true));
    assertEquals("refused", report.skipped().getFirst().reason(), report.toString());
    assertEquals("the user's\n", h.workspace.readText("a.txt/inside.txt"));
  }

  @Test
  void prePlantedTemporaryNamesAreNeverWrittenThrough() throws Exception {
    h.workspace.file("a.txt", "mine\n");
    String turn = modifyTurn("a.txt");
    for (int entry = 1; entry <= 20; entry++) {
      Files.createSymbolicLink(file(".turndiff-rewind-" + entry + ".tmp"), h.workspace.secret());
    }
    RewindReport report = h.rewindTurn(turn);
    assertEquals(List.of(WorkspacePath.of("a.txt")), report.restored());
    assertEquals("mine\n", h.workspace.readText("a.txt"));
    assertTrue(Files.isSymbolicLink(file(".turndiff-rewind-1.tmp")));
  }

  @Test
  void aParentFlippingBetweenDirectoryAndSymlinkDuringRewindsNeverLetsAWriteOut() throws Exception {
    int turns = 40;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < turns; i++) {
      h.workspace.file("d/m" + i + ".txt", "before " + i + "\n");
    }
    for (int i = 0; i < turns; i++) {
      String path = "d/m" + i + ".txt";
      ids.add(h.turn(List.of(path), () -> Files.writeString(file(path), "after\n")));
    }
    Files.createSymbolicLink(file("spare"), h.workspace.outside().resolve("dir"));
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong swaps = new AtomicLong();
    Thread attacker =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (running.get()) {
                    try {
                      Path d = file("d");
                      Path spare = file("spare");
                      Path hold = file("hold");
                      Files.move(d, hold);
                      Files.move(spare, d);
                      Files.move(hold, spare);
                      Files.move(d, hold);
                      Files.move(spare, d);
                      Files.move(hold, spare);
                      swaps.incrementAndGet();
                    } catch (IOException e) {
                      // a rename lost a race with the rewind; keep swapping
                    }
                  }
                });
    long restored = 0;
    long refused = 0;
    long deadline = System.nanoTime() + 1_500_000_000L;
    try {
      for (int i = 0; i < turns && System.nanoTime() < deadline; i++) {
        RewindReport report = h.rewindTurn(ids.get(i));
        restored += report.restored().size();
        refused += report.skipped().size();
      }
    } finally {
      running.set(false);
      attacker.join();
    }
    assertTrue(swaps.get() > 10, "the attacker swapped " + swaps.get() + " times");
    assertTrue(restored + refused > 0);
    try (var outside = Files.walk(h.workspace.outside())) {
      outside
          .filter(Files::isRegularFile)
          .forEach(
              path -> {
                try {
                  String text = Files.readString(path, StandardCharsets.UTF_8);
                  assertFalse(text.startsWith("before"), "a rewind wrote outside: " + path);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
