package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The write protocol's check next to the change: {@code commitIfUnchanged} and {@code
 * deleteIfUnchanged} look at the target through the parent they then rename or unlink in. Over
 * every mechanism; every test checks that nothing outside the workspace changed and that no
 * temporary file is left behind.
 */
class WriteProtocolTest {

  private static final byte[] RESTORED = "restored\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;

  private WorkspaceBoundary open(BoundaryKind kind) {
    boundary = KindsInThisMode.open(workspace.root(), kind);
    assertEquals(kind, boundary.kind());
    return boundary;
  }

  @AfterEach
  void canary() throws IOException {
    if (boundary != null) {
      boundary.close();
    }
    WriteCanary.assertNothingLandedOutside(workspace, "restored");
    try (Stream<Path> inside = Files.walk(workspace.root())) {
      assertEquals(
          List.of(),
          inside.filter(p -> p.getFileName().toString().startsWith(".turndiff-")).toList(),
          "no temporary file is left behind");
    }
  }

  private Snapshot now(String path) {
    return boundary.observeExact(WorkspacePath.of(path)).snapshot();
  }

  private WriteOutcome.Staged stage(String path) {
    return assertInstanceOf(
        WriteOutcome.Staged.class,
        boundary.stageFile(WorkspacePath.of(path), RESTORED, 0644, Optional.empty()));
  }

  /**
   * A batch staged without a sync each is renamed over its names as any other, and made durable by
   * one {@code syncfs} through the root; the fallback, which has no {@code syncfs}, says so rather
   * than claim a durability it did not get (a rewind then stays unsynced, and is checked again
   * after a restart).
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aBatchStagedWithoutASyncEachIsMadeDurableByOneSyncOfTheFileSystem(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "edited\n").file("e/b.txt", "edited too\n");
    open(kind);
    for (String path : List.of("d/a.txt", "e/b.txt")) {
      Snapshot expected = now(path);
      WriteOutcome.Staged staged =
          assertInstanceOf(
              WriteOutcome.Staged.class,
              boundary.stageFile(
                  WorkspacePath.of(path),
                  RESTORED,
                  0600,
                  Optional.empty(),
                  Durability.SYNCED_AT_THE_END));
      assertInstanceOf(WriteOutcome.Done.class, boundary.commitIfUnchanged(staged, expected));
      assertArrayEquals(RESTORED, workspace.read(path));
    }
    WriteOutcome synced = boundary.syncFileSystem();
    if (kind == BoundaryKind.SECURE_DIRECTORY_STREAM) {
      assertTrue(
          synced instanceof WriteOutcome.Refused(String why) && why.contains("held stream"),
          synced.toString());
    } else {
      assertInstanceOf(WriteOutcome.Done.class, synced);
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void anUnchangedTargetIsRenamedOver(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "edited by the turn\n");
    open(kind);
    Snapshot expected = now("d/a.txt");
    WriteOutcome.Staged staged = stage("d/a.txt");
    assertInstanceOf(WriteOutcome.Done.class, boundary.commitIfUnchanged(staged, expected));
    assertArrayEquals(RESTORED, workspace.read("d/a.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aDirectoryIsSyncedThroughTheHeldWalkAndALinkToOneOutsideIsRefused(BoundaryKind kind)
      throws IOException {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "edited by the turn\n");
    Files.createSymbolicLink(workspace.resolve("out"), workspace.secret().getParent());
    open(kind);
    assertInstanceOf(WriteOutcome.Done.class, boundary.syncDirectory(Optional.empty()));
    assertInstanceOf(
        WriteOutcome.Done.class, boundary.syncDirectory(Optional.of(WorkspacePath.of("d"))));
    assertInstanceOf(
        WriteOutcome.Refused.class,
        boundary.syncDirectory(Optional.of(WorkspacePath.of("out"))),
        "a symlinked directory is never followed, not even to sync it");
    assertInstanceOf(
        WriteOutcome.Refused.class,
        boundary.syncDirectory(Optional.of(WorkspacePath.of("missing"))));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aTargetChangedBetweenStageAndCommitIsLeftAsItIs(BoundaryKind kind) throws IOException {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "edited by the turn\n");
    open(kind);
    Snapshot expected = now("d/a.txt");
    WriteOutcome.Staged staged = stage("d/a.txt");
    Files.writeString(workspace.resolve("d/a.txt"), "the user's later edit\n");
    WriteOutcome.Changed changed =
        assertInstanceOf(WriteOutcome.Changed.class, boundary.commitIfUnchanged(staged, expected));
    assertEquals(
        "the user's later edit\n", workspace.readText("d/a.txt"), "the target is untouched");
    assertArrayEquals(
        "the user's later edit\n".getBytes(StandardCharsets.UTF_8),
        changed.now().content().orElseThrow(),
        "what is there now, read through the held parent");
    assertFalse(changed.now().snapshot().sameStateAs(expected));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aTargetSwappedForALinkOutIsNeitherFollowedNorReplaced(BoundaryKind kind) throws IOException {
    workspace = TestWorkspace.in(temp).file("a.txt", "edited by the turn\n");
    open(kind);
    Snapshot expected = now("a.txt");
    WriteOutcome.Staged staged = stage("a.txt");
    Files.delete(workspace.resolve("a.txt"));
    Files.createSymbolicLink(workspace.resolve("a.txt"), workspace.secret());
    WriteOutcome.Changed changed =
        assertInstanceOf(WriteOutcome.Changed.class, boundary.commitIfUnchanged(staged, expected));
    assertTrue(Files.isSymbolicLink(workspace.resolve("a.txt")), "the link is still there");
    Snapshot link = changed.now().snapshot();
    assertEquals(Optional.of(FileType.SYMLINK), link.type());
    assertEquals(
        Optional.of(Reason.ESCAPES_WORKSPACE),
        link.reason(),
        "observed as a link out, never read through");
    assertTrue(changed.now().content().isEmpty());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aTargetMadeWhereNoneWasIsLeftAsItIs(BoundaryKind kind) throws IOException {
    workspace = TestWorkspace.in(temp).directory("d");
    open(kind);
    Snapshot expected = now("d/new.txt");
    assertEquals(Presence.ABSENT, expected.presence());
    WriteOutcome.Staged staged = stage("d/new.txt");
    Files.writeString(workspace.resolve("d/new.txt"), "made by the user meanwhile\n");
    assertInstanceOf(WriteOutcome.Changed.class, boundary.commitIfUnchanged(staged, expected));
    assertEquals("made by the user meanwhile\n", workspace.readText("d/new.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aLinkThatIsStillTheLinkIsReplaced(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("l", "target.txt").file("target.txt", "t\n");
    open(kind);
    Snapshot expected = now("l");
    WriteOutcome.Staged staged =
        assertInstanceOf(
            WriteOutcome.Staged.class,
            boundary.stageSymlink(
                WorkspacePath.of("l"),
                LinkTarget.of("elsewhere.txt".getBytes(StandardCharsets.UTF_8)),
                Optional.empty()));
    assertInstanceOf(WriteOutcome.Done.class, boundary.commitIfUnchanged(staged, expected));
    assertEquals("elsewhere.txt", readLink("l"));
  }

  private String readLink(String path) {
    try {
      return Files.readSymbolicLink(workspace.resolve(path)).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void anUnchangedNameIsDeletedAndAChangedOneKept(BoundaryKind kind) throws IOException {
    workspace =
        TestWorkspace.in(temp)
            .file("d/gone.txt", "made by the turn\n")
            .file("d/kept.txt", "made\n");
    open(kind);
    Snapshot gone = now("d/gone.txt");
    Snapshot kept = now("d/kept.txt");
    Files.writeString(workspace.resolve("d/kept.txt"), "edited by the user since\n");
    assertInstanceOf(
        WriteOutcome.Done.class, boundary.deleteIfUnchanged(WorkspacePath.of("d/gone.txt"), gone));
    assertFalse(Files.exists(workspace.resolve("d/gone.txt"), LinkOption.NOFOLLOW_LINKS));
    assertInstanceOf(
        WriteOutcome.Changed.class,
        boundary.deleteIfUnchanged(WorkspacePath.of("d/kept.txt"), kept));
    assertEquals("edited by the user since\n", workspace.readText("d/kept.txt"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aNameAlreadyGoneIsDoneOnlyWhenAnAbsenceWasExpected(BoundaryKind kind) throws IOException {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "a\n");
    open(kind);
    Snapshot present = now("d/a.txt");
    Snapshot absent = now("d/none.txt");
    assertInstanceOf(
        WriteOutcome.Done.class,
        boundary.deleteIfUnchanged(WorkspacePath.of("d/none.txt"), absent));
    assertInstanceOf(
        WriteOutcome.Done.class,
        boundary.deleteIfUnchanged(WorkspacePath.of("x/none.txt"), now("x/none.txt")),
        "a missing parent is an absence too");
    Files.delete(workspace.resolve("d/a.txt"));
    WriteOutcome.Changed changed =
        assertInstanceOf(
            WriteOutcome.Changed.class,
            boundary.deleteIfUnchanged(WorkspacePath.of("d/a.txt"), present));
    assertEquals(Presence.ABSENT, changed.now().snapshot().presence());
  }
}
