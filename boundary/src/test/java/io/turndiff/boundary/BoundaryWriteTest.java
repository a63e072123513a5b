package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.WorkspacePath;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The write side of the boundary: a name is replaced, never written through; parents are walked
 * without following links. Every test checks that nothing outside the workspace was created or
 * changed.
 */
class BoundaryWriteTest {

  private static final byte[] RESTORED = "restored\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;

  private WorkspaceBoundary open(BoundaryKind kind) {
    return open(kind, BoundaryOptions.builder());
  }

  private WorkspaceBoundary open(BoundaryKind kind, BoundaryOptions.Builder options) {
    boundary =
        WorkspaceBoundary.open(
            workspace.root(), options.mechanism(KindsInThisMode.mechanism(kind)).build());
    return boundary;
  }

  @AfterEach
  void canary() throws Exception {
    if (boundary != null) {
      boundary.close();
    }
    WriteCanary.assertNothingLandedOutside(workspace, "restored");
  }

  private static WorkspacePath path(String relative) {
    return WorkspacePath.of(relative);
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void writesANewFileCreatingItsParentsWithItsMode(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp);
    open(kind);
    assertTrue(OneFileWrites.writeFile(boundary, path("a/b/c.sh"), RESTORED, 0750).done());
    assertArrayEquals(RESTORED, workspace.read("a/b/c.sh"));
    assertEquals(
        "rwxr-x---",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(workspace.resolve("a/b/c.sh"))));
    try (Stream<Path> files = Files.list(workspace.resolve("a/b"))) {
      assertEquals(1, files.count(), "no temporary file is left behind");
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aFinalSymlinkIsReplacedNotWrittenThrough(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp);
    workspace.symlink("a.txt", workspace.secret().toString());
    open(kind);
    assertTrue(OneFileWrites.writeFile(boundary, path("a.txt"), RESTORED, 0644).done());
    assertFalse(Files.isSymbolicLink(workspace.resolve("a.txt")));
    assertArrayEquals(RESTORED, workspace.read("a.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aHardlinkedNameIsReplacedAndTheOutsideInodeKeepsItsBytes(BoundaryKind kind)
      throws Exception {
    workspace = TestWorkspace.in(temp);
    workspace.hardlink("a.txt", workspace.secret());
    Object outsideInode = Files.readAttributes(workspace.secret(), "unix:ino").get("ino");
    workspace.refreshOutsidePicture();
    open(kind);
    assertTrue(OneFileWrites.writeFile(boundary, path("a.txt"), RESTORED, 0644).done());
    assertArrayEquals(RESTORED, workspace.read("a.txt"));
    assertArrayEquals(workspace.canary().bytes(), Files.readAllBytes(workspace.secret()));
    assertEquals(outsideInode, Files.readAttributes(workspace.secret(), "unix:ino").get("ino"));
    assertEquals(
        1,
        Files.getAttribute(workspace.secret(), "unix:nlink"),
        "the workspace name no longer links it");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aFifoAtTheNameIsReplacedWithoutOpeningIt(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp).fifo("a.txt");
    open(kind);
    WriteOutcome outcome =
        Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> OneFileWrites.writeFile(boundary, path("a.txt"), RESTORED, 0644));
    assertTrue(outcome.done());
    assertArrayEquals(RESTORED, workspace.read("a.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aSymlinkedParentIsRefused(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    workspace.symlink("dir", workspace.outside().resolve("dir").toString());
    open(kind);
    WriteOutcome outcome =
        OneFileWrites.writeFile(boundary, path("dir/secret.txt"), RESTORED, 0644);
    WriteOutcome.Refused refused = assertInstanceOf(WriteOutcome.Refused.class, outcome);
    assertTrue(refused.reason().contains("symlink"), refused.reason());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void parentsAreNeverCreatedThroughASymlink(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    workspace.symlink("out", workspace.outside().toString());
    open(kind);
    assertInstanceOf(
        WriteOutcome.Refused.class,
        OneFileWrites.writeFile(boundary, path("out/new/deep.txt"), RESTORED, 0644));
    assertFalse(Files.exists(workspace.outside().resolve("new")), "nothing created outside");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aFileAsAParentIsRefused(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("plain", "x\n");
    open(kind);
    WriteOutcome.Refused refused =
        assertInstanceOf(
            WriteOutcome.Refused.class,
            OneFileWrites.writeFile(boundary, path("plain/a.txt"), RESTORED, 0644));
    assertTrue(refused.reason().contains("not a directory"), refused.reason());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aPrePlantedTemporaryNameIsNeverWrittenThroughNorSwappedForAnUnjournaledOne(BoundaryKind kind)
      throws Exception {
    workspace =
        TestWorkspace.in(temp)
            .file("a.txt", "old\n")
            .file("d/.turndiff-planted-too.tmp", "the user's\n");
    workspace.symlink(".turndiff-planted.tmp", workspace.secret().toString());
    open(kind);
    // the caller journaled the name: a file under another name would be one it could not find after
    // a crash
    assertEquals(
        new WriteOutcome.NameTaken(".turndiff-planted.tmp"),
        OneFileWrites.writeFile(
            boundary, path("a.txt"), RESTORED, 0644, Optional.of(".turndiff-planted.tmp")));
    assertEquals(
        new WriteOutcome.NameTaken(".turndiff-planted.tmp"),
        boundary.stageFile(
            path("a.txt"),
            new ByteArrayInputStream(RESTORED),
            0644,
            Optional.of(".turndiff-planted.tmp")));
    assertEquals(
        new WriteOutcome.NameTaken(".turndiff-planted-too.tmp"),
        boundary.stageSymlink(
            path("d/link"), LinkTarget.of("a.txt"), Optional.of(".turndiff-planted-too.tmp")));
    assertEquals("old\n", workspace.readText("a.txt"));
    assertTrue(
        Files.isSymbolicLink(workspace.resolve(".turndiff-planted.tmp")),
        "the planted link is untouched");
    assertEquals("the user's\n", workspace.readText("d/.turndiff-planted-too.tmp"));
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertEquals(5, files.count(), "nothing was staged under another name: " + workspace.root());
    }

    String fresh = boundary.newTemporaryName();
    assertTrue(fresh.startsWith(".turndiff-") && !fresh.equals(boundary.newTemporaryName()), fresh);
    assertTrue(
        OneFileWrites.writeFile(boundary, path("a.txt"), RESTORED, 0644, Optional.of(fresh))
            .done());
    assertArrayEquals(RESTORED, workspace.read("a.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aStagedFileAKilledProcessLeftIsDiscardedByItsJournaledName(BoundaryKind kind)
      throws Exception {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "old\n");
    open(kind);
    WriteOutcome.Staged file =
        assertInstanceOf(
            WriteOutcome.Staged.class,
            boundary.stageFile(
                path("d/a.txt"), RESTORED, 0644, Optional.of(".turndiff-journaled-1.tmp")));
    WriteOutcome.Staged link =
        assertInstanceOf(
            WriteOutcome.Staged.class,
            boundary.stageSymlink(
                path("d/b.txt"), LinkTarget.of("a.txt"), Optional.of(".turndiff-journaled-2.tmp")));
    assertTrue(Files.exists(workspace.resolve("d/.turndiff-journaled-1.tmp")));
    // what a resumed run knows: the path and the name it journaled
    boundary.discard(new WriteOutcome.Staged(path("d/a.txt"), file.temporaryName()));
    boundary.discard(new WriteOutcome.Staged(path("d/b.txt"), link.temporaryName()));
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertEquals(
          List.of("d", "d/a.txt"),
          files
              .filter(found -> !found.equals(workspace.root()))
              .map(found -> workspace.root().relativize(found).toString())
              .sorted()
              .toList());
    }
    assertEquals("old\n", workspace.readText("d/a.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aDirectoryWhereTheFileShouldGoIsRefused(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt/inside.txt", "mine\n");
    open(kind);
    assertInstanceOf(
        WriteOutcome.Refused.class,
        OneFileWrites.writeFile(boundary, path("a.txt"), RESTORED, 0644));
    assertEquals("mine\n", workspace.readText("a.txt/inside.txt"));
    try (Stream<Path> files = Files.list(workspace.root())) {
      assertEquals(1, files.count(), "no temporary file is left behind");
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aSymlinkIsRestoredWithItsExactText(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "was a file\n");
    open(kind);
    assertTrue(
        OneFileWrites.writeSymlink(boundary, path("a.txt"), LinkTarget.of("../outside/secret.txt"))
            .done());
    assertEquals(
        Path.of("../outside/secret.txt"), Files.readSymbolicLink(workspace.resolve("a.txt")));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void deleteRemovesALinkNotItsTargetAndNeverADirectory(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp).directory("dir");
    workspace.symlink("link", workspace.secret().toString());
    open(kind);
    assertTrue(OneFileWrites.delete(boundary, path("link")).done());
    assertFalse(Files.exists(workspace.resolve("link"), LinkOption.NOFOLLOW_LINKS));
    assertInstanceOf(WriteOutcome.Refused.class, OneFileWrites.delete(boundary, path("dir")));
    assertTrue(Files.isDirectory(workspace.resolve("dir")));
    assertTrue(
        OneFileWrites.delete(boundary, path("never-was.txt")).done(),
        "a name already gone counts as done");
  }

  @ParameterizedTest
  @EnumSource(
      value = BoundaryKind.class,
      names = {"OPENAT2", "OPENAT"})
  void aParentFlippingBetweenDirectoryAndSymlinkNeverLetsAWriteOut(BoundaryKind kind)
      throws Exception {
    // The fallback creates directories at the root's path and moves them in; its parent walk
    // refuses links the same way, but this race is held against the kernel-enforced boundary.
    workspace = TestWorkspace.in(temp).directory("d");
    workspace.symlink("spare", workspace.outside().resolve("dir").toString());
    open(kind);
    long writes = 0;
    long refused = 0;
    try (Attacker attacker =
        Attacker.exchanging(workspace.resolve("d"), workspace.resolve("spare"))) {
      long deadline = System.nanoTime() + 1_200_000_000L;
      for (int i = 0; System.nanoTime() < deadline; i++) {
        WriteOutcome outcome =
            OneFileWrites.writeFile(
                boundary, path("d/sub" + (i % 3) + "/file" + (i % 7) + ".txt"), RESTORED, 0644);
        if (outcome.done()) {
          writes++;
        } else {
          refused++;
        }
      }
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
    }
    assertTrue(writes > 0 && refused > 0, "writes " + writes + ", refused " + refused);
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aDirectoryIsMadeWithExactlyItsRecordedModeAndNothingInTheWayIsReplaced(BoundaryKind kind)
      throws Exception {
    workspace = TestWorkspace.in(temp).file("a-file", "x\n");
    workspace.symlink("a-link", workspace.outside().resolve("dir").toString());
    open(kind);
    assertInstanceOf(
        DirectoryOutcome.Done.class,
        boundary.makeDirectory(path("new/deep"), OptionalInt.of(0705)));
    assertEquals(
        "rwx---r-x",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(workspace.resolve("new/deep"))),
        "the exact bits, whatever the umask");
    assertInstanceOf(
        DirectoryOutcome.AlreadySo.class,
        boundary.makeDirectory(path("new/deep"), OptionalInt.of(0700)));
    assertEquals(
        "rwx---r-x",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(workspace.resolve("new/deep"))),
        "a directory already there is left as it is");
    assertInstanceOf(
        DirectoryOutcome.Refused.class,
        boundary.makeDirectory(path("a-file"), OptionalInt.empty()));
    assertInstanceOf(
        DirectoryOutcome.Refused.class,
        boundary.makeDirectory(path("a-link"), OptionalInt.empty()));
    assertInstanceOf(
        DirectoryOutcome.Refused.class,
        boundary.makeDirectory(path("a-link/sub"), OptionalInt.empty()),
        "never created through a link");
    assertEquals(
        Optional.of(DirectoryState.present(path("new/deep"), 0705)),
        boundary.directoryAt(path("new/deep")));
    assertEquals(
        Optional.of(DirectoryState.absent(path("nope/not"))),
        boundary.directoryAt(path("nope/not")));
    assertEquals(
        Optional.empty(), boundary.directoryAt(path("a-link")), "a link is not a directory");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void onlyAnEmptyDirectoryIsRemovedAndNeverThroughALink(BoundaryKind kind) throws Exception {
    workspace =
        TestWorkspace.in(temp)
            .directory("empty/inner")
            .file("full/keep.txt", "keep\n")
            .file("f.txt", "f\n");
    workspace.symlink("a-link", workspace.outside().resolve("dir").toString());
    workspace.symlink("via/link", workspace.outside().toString());
    open(kind);
    assertInstanceOf(DirectoryOutcome.NotEmpty.class, boundary.removeDirectory(path("empty")));
    assertInstanceOf(DirectoryOutcome.Done.class, boundary.removeDirectory(path("empty/inner")));
    assertInstanceOf(DirectoryOutcome.Done.class, boundary.removeDirectory(path("empty")));
    assertFalse(Files.exists(workspace.resolve("empty")));
    assertInstanceOf(DirectoryOutcome.AlreadySo.class, boundary.removeDirectory(path("empty")));
    assertInstanceOf(DirectoryOutcome.NotEmpty.class, boundary.removeDirectory(path("full")));
    assertEquals(List.of("keep.txt"), boundary.namesIn(path("full")));
    assertInstanceOf(DirectoryOutcome.Refused.class, boundary.removeDirectory(path("f.txt")));
    assertInstanceOf(DirectoryOutcome.Refused.class, boundary.removeDirectory(path("a-link")));
    assertInstanceOf(
        DirectoryOutcome.Refused.class,
        boundary.removeDirectory(path("via/link/dir")),
        "a parent that is a link is never followed");
    assertTrue(Files.isSymbolicLink(workspace.resolve("a-link")));
    assertTrue(Files.exists(workspace.resolve("f.txt")));
  }

  private String modeOf(String relative) throws Exception {
    return String.format(
        "%04o",
        (Integer)
                Files.getAttribute(
                    workspace.resolve(relative), "unix:mode", LinkOption.NOFOLLOW_LINKS)
            & 07777);
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aDirectorysModeIsSetThroughItsOwnDescriptorOnlyWhenItIsStillTheExpectedOne(BoundaryKind kind)
      throws Exception {
    workspace =
        TestWorkspace.in(temp)
            .file("a/keep.txt", "keep\n")
            .mode("a", "rwx------")
            .file("f.txt", "f\n")
            .directory("b")
            .mode("b", "rwxr-x---");
    workspace.symlink("a-link", workspace.outside().resolve("dir").toString());
    workspace.symlink("via", workspace.outside().toString());
    Files.setPosixFilePermissions(
        workspace.outside().resolve("dir"), PosixFilePermissions.fromString("rwx------"));
    workspace.refreshOutsidePicture();
    String fileMode = modeOf("f.txt");
    open(kind);
    assertInstanceOf(
        DirectoryOutcome.Done.class, boundary.changeDirectoryMode(path("a"), 0700, 0755));
    assertEquals("0755", modeOf("a"), "the exact bits");
    assertEquals("keep\n", workspace.readText("a/keep.txt"));
    assertInstanceOf(
        DirectoryOutcome.AlreadySo.class, boundary.changeDirectoryMode(path("a"), 0700, 0755));
    assertEquals(
        new DirectoryOutcome.Changed(0750),
        boundary.changeDirectoryMode(path("b"), 0700, 0755),
        "changed since it was looked at: left as it is");
    assertEquals("0750", modeOf("b"));
    for (String notADirectory : List.of("f.txt", "a-link", "via/dir", "gone")) {
      assertInstanceOf(
          DirectoryOutcome.Refused.class,
          boundary.changeDirectoryMode(path(notADirectory), 0700, 0755),
          notADirectory);
    }
    assertEquals(fileMode, modeOf("f.txt"), "never a file");
    assertTrue(
        Files.isSymbolicLink(workspace.resolve("a-link")), "a link is never followed, nor changed");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void setuidSetgidAndStickyBitsAreSetExactlyOrRefused(BoundaryKind kind) throws Exception {
    workspace =
        TestWorkspace.in(temp).directory("shared").mode("shared", "rwxr-x---").directory("plain");
    Files.setAttribute(workspace.resolve("plain"), "unix:mode", 02770);
    open(kind);
    DirectoryOutcome setgid = boundary.changeDirectoryMode(path("shared"), 0750, 03770);
    if (kind != BoundaryKind.SECURE_DIRECTORY_STREAM) {
      assertInstanceOf(DirectoryOutcome.Done.class, setgid);
      assertEquals("3770", modeOf("shared"));
    } else {
      assertInstanceOf(
          DirectoryOutcome.Refused.class, setgid, "the JDK's stream sets nine bits only");
      assertEquals("0750", modeOf("shared"), "nothing set inexactly");
    }
    assertInstanceOf(
        DirectoryOutcome.Done.class, boundary.changeDirectoryMode(path("plain"), 02770, 0755));
    assertEquals("0755", modeOf("plain"), "the bits it had go too");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aDirectoryFlippingWithALinkOutNeverHasTheOutsideDirectorysModeChanged(BoundaryKind kind)
      throws Exception {
    workspace = TestWorkspace.in(temp).directory("d").mode("d", "rwx------");
    Path outsideDirectory = workspace.outside().resolve("dir");
    Files.setPosixFilePermissions(outsideDirectory, PosixFilePermissions.fromString("rwx------"));
    workspace.symlink("spare", outsideDirectory.toString());
    workspace.refreshOutsidePicture();
    open(kind);
    long changed = 0;
    try (Attacker attacker =
        Attacker.exchanging(workspace.resolve("d"), workspace.resolve("spare"))) {
      long deadline = System.nanoTime() + 1_200_000_000L;
      for (int i = 0; System.nanoTime() < deadline; i++) {
        boolean even = i % 2 == 0;
        if (boundary.changeDirectoryMode(path("d"), even ? 0700 : 0755, even ? 0755 : 0700)
            instanceof DirectoryOutcome.Done) {
          changed++;
        }
      }
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
    }
    assertTrue(changed > 0, "the directory's mode was set while the name flipped");
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(outsideDirectory)),
        "the directory outside never changed (the canary checks the whole outside tree)");
  }
}
