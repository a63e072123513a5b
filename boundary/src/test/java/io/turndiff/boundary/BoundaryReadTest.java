package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BadPathException;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StateComparison;
import io.turndiff.model.WorkspacePath;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The read-side case families of the boundary design, for both implementations. Every test ends by
 * checking the canary: the outside tree is unchanged and no observation holds the secret's bytes.
 */
class BoundaryReadTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;
  private final List<Observation> seen = new ArrayList<>();

  private WorkspaceBoundary open(BoundaryKind kind) {
    boundary = KindsInThisMode.open(workspace.root(), kind);
    assertEquals(kind, boundary.kind());
    return boundary;
  }

  private List<Observation> observe(String path) {
    List<Observation> observations = boundary.observe(path);
    seen.addAll(observations);
    observations.forEach(o -> assertEquals(boundary.kind(), o.snapshot().boundary()));
    return observations;
  }

  private Observation only(String path) {
    List<Observation> observations = observe(path);
    assertEquals(1, observations.size(), () -> "one record for " + path + ": " + observations);
    return observations.getFirst();
  }

  @AfterEach
  void canary() {
    if (boundary != null) {
      boundary.close();
    }
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
      for (Observation observation : seen) {
        observation
            .content()
            .ifPresent(bytes -> workspace.canary().assertNotIn("observed content", bytes));
        workspace.canary().assertNotIn("a snapshot", observation.snapshot().toString());
      }
    }
  }

  private static String text(Observation observation) {
    return new String(observation.content().orElseThrow(), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void plainFileIsCapturedWithItsContent(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("a.txt", "hello\n");
    open(kind);
    Observation a = only("a.txt");
    assertEquals(WorkspacePath.of("a.txt"), a.snapshot().path());
    assertTrue(a.snapshot().captured());
    assertEquals("hello\n", text(a));
    assertEquals(Optional.empty(), a.via());
    assertEquals(Optional.of(FileType.REGULAR), a.snapshot().type());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void nestedFileIsCaptured(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("src/main/App.java", "class App {}\n");
    open(kind);
    assertEquals("class App {}\n", text(only("src/main/App.java")));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void missingFileIsKnownAbsent(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).directory("src");
    open(kind);
    Snapshot snapshot = only("src/new.txt").snapshot();
    assertEquals(Presence.ABSENT, snapshot.presence());
    assertTrue(snapshot.captured(), "a known absence is restorable (by deleting)");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void dotDotInsideIsResolvedAndTheGivenPathKept(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("b.txt", "b\n").directory("a");
    open(kind);
    Observation b = only("a/../b.txt");
    assertEquals(WorkspacePath.of("b.txt"), b.snapshot().path());
    assertEquals("a/../b.txt", b.via().orElseThrow().display());
    assertEquals("b\n", text(b));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void dotDotLeavingTheRootIsOutsideAndNeverOpened(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    open(kind);
    Snapshot snapshot = only("../outside/secret.txt").snapshot();
    assertEquals(Optional.of(Reason.OUTSIDE_WORKSPACE), snapshot.reason());
    assertEquals(Presence.PRESENT, snapshot.presence(), "lstat of an outside path is allowed");
    assertTrue(snapshot.path().isOutside());
    assertEquals(workspace.secret().toString(), snapshot.path().display());
    assertFalse(snapshot.captured());
    assertTrue(snapshot.sha256().isEmpty());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void absolutePathInsideIsRelativized(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("a.txt", "a\n");
    open(kind);
    Observation a = only(workspace.root().resolve("a.txt").toString());
    assertEquals(WorkspacePath.of("a.txt"), a.snapshot().path());
    assertEquals("a\n", text(a));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void absolutePathOutsideIsMetadataOnly(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    open(kind);
    Snapshot snapshot = only(workspace.secret().toString()).snapshot();
    assertEquals(Optional.of(Reason.OUTSIDE_WORKSPACE), snapshot.reason());
    assertEquals(workspace.canary().bytes().length, snapshot.metadata().orElseThrow().size());
    assertTrue(snapshot.sha256().isEmpty());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void relativeFileSymlinkOutEscapes(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("leak.txt", "../outside/secret.txt");
    open(kind);
    Snapshot snapshot = only("leak.txt").snapshot();
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), snapshot.reason());
    assertEquals(WorkspacePath.of("leak.txt"), snapshot.path());
    assertEquals(Optional.of(FileType.SYMLINK), snapshot.type(), "the link itself is described");
    assertEquals("../outside/secret.txt", snapshot.linkTarget().orElseThrow().display());
    assertFalse(snapshot.captured());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void absoluteFileSymlinkOutEscapes(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    workspace.symlink("leak.txt", workspace.secret().toString());
    open(kind);
    Snapshot snapshot = only("leak.txt").snapshot();
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), snapshot.reason());
    assertTrue(snapshot.sha256().isEmpty());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void directorySymlinkOutEscapes(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    workspace.symlink("vendor", workspace.outside().resolve("dir").toString());
    open(kind);
    Snapshot snapshot = only("vendor/secret.txt").snapshot();
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), snapshot.reason());
    assertEquals(Presence.UNKNOWN, snapshot.presence(), "nothing behind the link is looked at");
    assertEquals(WorkspacePath.of("vendor/secret.txt"), snapshot.path());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void relativeDirectorySymlinkOutEscapes(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("up", "../outside/dir");
    open(kind);
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), only("up/secret.txt").snapshot().reason());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void symlinkInsideRecordsTheTargetAndTheLink(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("real.txt", "real\n").symlink("link.txt", "real.txt");
    open(kind);
    List<Observation> observations = observe("link.txt");
    assertEquals(2, observations.size());
    Snapshot link = observations.get(0).snapshot();
    assertEquals(WorkspacePath.of("link.txt"), link.path());
    assertEquals(Optional.of(FileType.SYMLINK), link.type());
    assertEquals("real.txt", link.linkTarget().orElseThrow().display());
    assertTrue(link.captured(), "an inside link is restorable as a link");
    Observation target = observations.get(1);
    assertEquals(WorkspacePath.of("real.txt"), target.snapshot().path());
    assertEquals("link.txt", target.via().orElseThrow().display());
    assertEquals("real\n", text(target));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void absoluteSymlinkInsideIsFollowed(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("real.txt", "real\n");
    workspace.symlink("abs.txt", workspace.root().resolve("real.txt").toString());
    open(kind);
    List<Observation> observations = observe("abs.txt");
    assertEquals(WorkspacePath.of("real.txt"), observations.get(1).snapshot().path());
    assertEquals("real\n", text(observations.get(1)));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void symlinkChainInsideIsFollowed(BoundaryKind kind) {
    workspace =
        TestWorkspace.in(temp)
            .file("d/real.txt", "real\n")
            .symlink("one", "two")
            .symlink("two", "d/real.txt");
    open(kind);
    List<Observation> observations = observe("one");
    assertEquals(WorkspacePath.of("one"), observations.get(0).snapshot().path());
    assertEquals(WorkspacePath.of("d/real.txt"), observations.get(1).snapshot().path());
    assertEquals("real\n", text(observations.get(1)));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void symlinkWithDotDotInsideIsFollowed(BoundaryKind kind) {
    workspace =
        TestWorkspace.in(temp).file("real.txt", "real\n").symlink("sub/up.txt", "../real.txt");
    open(kind);
    List<Observation> observations = observe("sub/up.txt");
    assertEquals(WorkspacePath.of("real.txt"), observations.get(1).snapshot().path());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void directorySymlinkInsideRecordsTheResolvedPath(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("real/a.txt", "a\n").symlink("alias", "real");
    open(kind);
    Observation a = only("alias/a.txt");
    assertEquals(WorkspacePath.of("real/a.txt"), a.snapshot().path());
    assertEquals("alias/a.txt", a.via().orElseThrow().display());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void chainEscapingAtTheLastHopEscapes(BoundaryKind kind) {
    workspace =
        TestWorkspace.in(temp)
            .symlink("first", "second")
            .symlink("second", "../outside/secret.txt");
    open(kind);
    Snapshot snapshot = only("first").snapshot();
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), snapshot.reason());
    assertEquals(WorkspacePath.of("first"), snapshot.path());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void symlinkLoopIsUnreadable(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("ping", "pong").symlink("pong", "ping");
    open(kind);
    Snapshot snapshot = only("ping").snapshot();
    assertEquals(Optional.of(Reason.UNREADABLE), snapshot.reason());
    assertTrue(snapshot.reasonDetail().contains("symlinks"), snapshot.reasonDetail());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void danglingSymlinkRecordsTheLinkAndTheAbsentTarget(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("dangling", "not-yet.txt");
    open(kind);
    List<Observation> observations = observe("dangling");
    assertEquals(2, observations.size());
    assertEquals(Optional.of(FileType.SYMLINK), observations.get(0).snapshot().type());
    assertEquals(WorkspacePath.of("not-yet.txt"), observations.get(1).snapshot().path());
    assertEquals(Presence.ABSENT, observations.get(1).snapshot().presence());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void hardlinkToAnOutsideFileIsNeverRead(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    workspace.hardlink("innocent.txt", workspace.secret());
    // a hardlink raises the secret's link count: take the picture of the outside tree after
    // planting it
    workspace = workspaceWithOutsideAsItIsNow();
    open(kind);
    Snapshot snapshot = only("innocent.txt").snapshot();
    assertEquals(Optional.of(Reason.HARDLINKED), snapshot.reason());
    assertEquals(2, snapshot.metadata().orElseThrow().nlink());
    assertTrue(snapshot.sha256().isEmpty());
  }

  private TestWorkspace workspaceWithOutsideAsItIsNow() {
    return workspace.refreshOutsidePicture();
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void fifoIsSpecialAndDoesNotBlock(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).fifo("pipe");
    open(kind);
    Snapshot snapshot =
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> only("pipe").snapshot());
    assertEquals(Optional.of(Reason.SPECIAL_FILE), snapshot.reason());
    assertEquals(Optional.of(FileType.FIFO), snapshot.type());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void socketIsSpecial(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).socket("agent.sock");
    open(kind);
    Snapshot snapshot = only("agent.sock").snapshot();
    assertEquals(Optional.of(Reason.SPECIAL_FILE), snapshot.reason());
    assertEquals(Optional.of(FileType.SOCKET), snapshot.type());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void deviceLinkEscapesAndIsNeverRead(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("zeros", "/dev/zero");
    open(kind);
    Snapshot snapshot =
        Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(10), () -> only("zeros").snapshot());
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), snapshot.reason());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void deviceNodeInsideIsSpecial(BoundaryKind kind) {
    assumeTrue(TestWorkspace.isRoot(), "creating a device node needs root");
    workspace = TestWorkspace.in(temp);
    TestWorkspace.run("mknod", workspace.resolve("zero").toString(), "c", "1", "5");
    open(kind);
    Snapshot snapshot =
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> only("zero").snapshot());
    assertEquals(Optional.of(Reason.SPECIAL_FILE), snapshot.reason());
    assertEquals(Optional.of(FileType.CHAR_DEVICE), snapshot.type());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void procMagicLinkEscapes(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("root", "/proc/self/root");
    open(kind);
    String viaProc = "root" + workspace.secret();
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), only(viaProc).snapshot().reason());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aBindMountIsAnEscape(BoundaryKind kind) throws Exception {
    assumeTrue(TestWorkspace.isRoot(), "a bind mount needs root");
    workspace = TestWorkspace.in(temp).directory("mnt");
    Path mountPoint = workspace.resolve("mnt");
    Process mount =
        new ProcessBuilder(
                "mount",
                "--bind",
                workspace.outside().resolve("dir").toString(),
                mountPoint.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assumeTrue(mount.waitFor() == 0, "mount --bind is not permitted here: " + output);
    try {
      open(kind);
      Snapshot snapshot = only("mnt/secret.txt").snapshot();
      assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), snapshot.reason(), snapshot.toString());
      assertTrue(snapshot.sha256().isEmpty());
    } finally {
      TestWorkspace.run("umount", mountPoint.toString());
    }
  }

  /**
   * A file bind-mounted over a name: the same file system, so only the mount itself says it leads
   * out.
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aBindMountedFileIsAnEscape(BoundaryKind kind) throws Exception {
    assumeTrue(TestWorkspace.isRoot(), "a bind mount needs root");
    workspace = TestWorkspace.in(temp).file("f.txt", "inside\n");
    Path mountPoint = workspace.resolve("f.txt");
    Process mount =
        new ProcessBuilder("mount", "--bind", workspace.secret().toString(), mountPoint.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assumeTrue(mount.waitFor() == 0, "mount --bind is not permitted here: " + output);
    try {
      open(kind);
      Observation observed = only("f.txt");
      assertEquals(
          Optional.of(Reason.ESCAPES_WORKSPACE), observed.snapshot().reason(), observed.toString());
      assertTrue(observed.content().isEmpty(), "the outside file's bytes are never read");
      assertTrue(boundary.observeExact(WorkspacePath.of("f.txt")).content().isEmpty());
    } finally {
      TestWorkspace.run("umount", mountPoint.toString());
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void directoryGivenAsAFileIsMetadataOnly(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).directory("src");
    open(kind);
    Snapshot snapshot = only("src").snapshot();
    assertEquals(Optional.of(Reason.DIRECTORY), snapshot.reason());
    assertEquals(Presence.PRESENT, snapshot.presence());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aSymlinkToADirectoryIsRecordedAsTheLinkAlone(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("v-1.0/a.txt", "a\n").symlink("cur", "v-1.0");
    open(kind);
    Snapshot link = only("cur").snapshot();
    assertEquals(WorkspacePath.of("cur"), link.path());
    assertEquals(Optional.of(FileType.SYMLINK), link.type());
    assertEquals("v-1.0", link.linkTarget().orElseThrow().display());
    assertTrue(
        link.captured(),
        "the link is restorable; the directory it reaches is no record of its own");
    assertEquals(
        Optional.of(FileType.SYMLINK),
        boundary.observeExact(WorkspacePath.of("cur")).snapshot().type());
    Snapshot named = only("v-1.0").snapshot();
    assertEquals(
        Optional.of(Reason.DIRECTORY),
        named.reason(),
        "a directory named itself is still recorded");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aSymlinkToADirectoryOutsideIsRecordedAsTheLinkAloneAndNothingOutsideIsRead(
      BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).symlink("up", "../outside/dir");
    workspace.symlink("vendor", workspace.outside().resolve("dir").toString());
    open(kind);
    for (String name : List.of("up", "vendor")) {
      Snapshot link = only(name).snapshot();
      assertEquals(WorkspacePath.of(name), link.path());
      assertEquals(Optional.of(FileType.SYMLINK), link.type());
      assertTrue(link.captured(), name + " is restorable as a link: " + link);
      assertTrue(link.sha256().isEmpty());
      assertEquals(
          link.linkTarget(), boundary.observeExact(WorkspacePath.of(name)).snapshot().linkTarget());
      assertTrue(
          boundary.observeExact(WorkspacePath.of(name)).snapshot().captured(),
          "the after-state alike");
    }
    Snapshot leak = only("up/secret.txt").snapshot();
    assertEquals(
        Optional.of(Reason.ESCAPES_WORKSPACE),
        leak.reason(),
        "a file reached through it still escapes");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void whetherALinkOutLeadsToADirectoryIsAskedOfTheKernelNotReadFromItsText(BoundaryKind kind)
      throws Exception {
    workspace = TestWorkspace.in(temp);
    Path outside = workspace.outside();
    // other/s -> elsewhere/x/y: the kernel follows s before it applies "..", so other/s/../NAME is
    // elsewhere/x/NAME
    Files.createDirectories(outside.resolve("other/d"));
    Files.write(outside.resolve("other/f"), workspace.canary().bytes());
    Files.createDirectories(outside.resolve("elsewhere/x/y"));
    Files.createDirectories(outside.resolve("elsewhere/x/f"));
    Files.write(outside.resolve("elsewhere/x/d"), workspace.canary().bytes());
    Files.createSymbolicLink(outside.resolve("other/s"), outside.resolve("elsewhere/x/y"));
    workspace.refreshOutsidePicture();
    workspace
        .symlink("to-file", outside + "/other/s/../d")
        .symlink("to-dir", outside + "/other/s/../f");
    open(kind);
    for (Snapshot file :
        List.of(
            only("to-file").snapshot(),
            boundary.observeExact(WorkspacePath.of("to-file")).snapshot())) {
      assertEquals(
          Optional.of(Reason.ESCAPES_WORKSPACE),
          file.reason(),
          "its text reads as a directory, but it leads to a file outside: " + file);
      assertFalse(file.captured());
    }
    for (Snapshot directory :
        List.of(
            only("to-dir").snapshot(),
            boundary.observeExact(WorkspacePath.of("to-dir")).snapshot())) {
      assertEquals(Optional.of(FileType.SYMLINK), directory.type());
      assertTrue(
          directory.captured(),
          "it leads to a directory outside: the link alone, captured: " + directory);
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void anAbsoluteLinkIntoTheRootThroughALinkOutThenDotDotLeadsWhereTheKernelGoes(
      BoundaryKind kind) {
    // ROOT/s/../secret.txt reads as ROOT/secret.txt; the kernel follows s (-> outside/dir) before
    // the "..": the link leads to outside/secret.txt, and the file inside of the same name is not
    // what it reaches
    workspace = TestWorkspace.in(temp).file("secret.txt", "the inside file of that name\n");
    workspace.symlink("s", workspace.outside().resolve("dir").toString());
    workspace.symlink("lnk", workspace.root() + "/s/../secret.txt");
    open(kind);
    Snapshot link = only("lnk").snapshot();
    assertEquals(WorkspacePath.of("lnk"), link.path(), "not the inside secret.txt: " + link);
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), link.reason(), link.toString());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void fileGivenAsADirectoryIsAbsent(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("a.txt", "a\n");
    open(kind);
    assertEquals(Presence.ABSENT, only("a.txt/child").snapshot().presence());
  }

  @Test
  void trailingSlashIsRefusedNamingTheInput() {
    workspace = TestWorkspace.in(temp).directory("src");
    open(BoundaryKind.OPENAT2);
    BadPathException e = assertThrows(BadPathException.class, () -> boundary.parse("src/"));
    assertTrue(e.getMessage().contains("'src/'"), e.getMessage());
  }

  @Test
  void nulAndEmptyPathsAreRefused() {
    workspace = TestWorkspace.in(temp);
    open(BoundaryKind.OPENAT2);
    assertTrue(
        assertThrows(BadPathException.class, () -> boundary.parse(""))
            .getMessage()
            .contains("empty"));
    assertTrue(
        assertThrows(BadPathException.class, () -> boundary.parse("a\0b"))
            .getMessage()
            .contains("NUL"));
    assertThrows(BadPathException.class, () -> boundary.parse("."));
    assertThrows(BadPathException.class, () -> boundary.parse("a/.."));
  }

  @Test
  void veryLongPathAndLongComponentAreRefused() {
    workspace = TestWorkspace.in(temp);
    open(BoundaryKind.OPENAT2);
    String longPath = "d/".repeat(2100) + "f";
    assertTrue(
        assertThrows(BadPathException.class, () -> boundary.parse(longPath))
            .getMessage()
            .contains("4095"));
    String longName = "n".repeat(256);
    assertTrue(
        assertThrows(BadPathException.class, () -> boundary.parse(longName))
            .getMessage()
            .contains("255"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aFileReadAtPositionsGivesItsBytesThereAndALinkOutIsNeverOpened(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("pack/data.bin", "0123456789abcdef");
    workspace.symlink("pack/leak.bin", workspace.secret().toString());
    workspace.symlink("linked", workspace.outside().resolve("dir").toString());
    workspace.hardlink("pack/hard.bin", workspace.secret());
    workspace = workspaceWithOutsideAsItIsNow();
    open(kind);

    String parts =
        boundary.readPositioned(
            WorkspacePath.of("pack/data.bin"),
            file -> {
              ByteBuffer at10 = ByteBuffer.allocate(4);
              ByteBuffer at2 = ByteBuffer.allocate(3);
              assertEquals(4, file.read(at10, 10));
              assertEquals(3, file.read(at2, 2));
              assertEquals(-1, file.read(ByteBuffer.allocate(1), 16));
              return file.size()
                  + ":"
                  + new String(at10.array(), StandardCharsets.US_ASCII)
                  + new String(at2.array(), StandardCharsets.US_ASCII);
            });
    assertEquals("16:abcd234", parts);

    for (String refused : List.of("pack/leak.bin", "linked/secret.txt", "pack/hard.bin")) {
      BoundaryException e =
          assertThrows(
              BoundaryException.class,
              () ->
                  boundary.readPositioned(
                      WorkspacePath.of(refused),
                      file -> Assertions.fail("opened " + refused + ": " + file.size())));
      assertTrue(e.getMessage().startsWith(refused + ": "), e.getMessage());
      workspace.canary().assertNotIn(refused, e.getMessage());
    }
  }

  @Test
  void nameThatWasNotUtf8BeforeItArrivedIsRefused() {
    workspace = TestWorkspace.in(temp);
    open(BoundaryKind.OPENAT2);
    assertTrue(
        assertThrows(BadPathException.class, () -> boundary.parse("caf\uFFFD.txt"))
            .getMessage()
            .contains("U+FFFD"));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void newlineInANameIsKept(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("two\nlines.txt", "x\n");
    open(kind);
    Observation observation = only("two\nlines.txt");
    assertEquals("two\nlines.txt", observation.snapshot().path().display());
    assertEquals("x\n", text(observation));
  }

  @Test
  void nonUtf8NameIsKeyedByItsBytes() throws Exception {
    workspace = TestWorkspace.in(temp);
    byte[] name = {'l', 'a', 't', 'i', 'n', (byte) 0xE9, '.', 't', 'x', 't'};
    // create the file through the boundary's own write side: the JDK cannot name it in a UTF-8
    // locale
    open(BoundaryKind.OPENAT2);
    WorkspacePath path = WorkspacePath.ofRelativeBytes(name);
    assertTrue(
        OneFileWrites.writeFile(boundary, path, "latin\n".getBytes(StandardCharsets.UTF_8), 0644)
            .done());
    Observation observation = boundary.observe(boundary.parse(name)).getFirst();
    seen.add(observation);
    assertArrayEquals(name, observation.snapshot().path().bytes());
    assertFalse(observation.snapshot().path().isUtf8());
    assertEquals("latin\\xe9.txt", observation.snapshot().path().display());
    assertEquals("latin\n", text(observation));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void workspaceReachedThroughASymlinkedRootIsCaptured(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "a\n");
    Path alias = temp.resolve("alias");
    Files.createSymbolicLink(alias, workspace.root());
    boundary =
        WorkspaceBoundary.open(
            alias, BoundaryOptions.builder().mechanism(KindsInThisMode.mechanism(kind)).build());
    assertEquals(workspace.root().toRealPath(), boundary.rootReal());
    assertEquals("a\n", text(only("a.txt")));
    assertEquals(
        "a\n", text(only(alias.resolve("a.txt").toString())), "absolute through the alias");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void rootRenamedAfterOpenStaysTheHeldDirectory(BoundaryKind kind) throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "original\n");
    open(kind);
    Path moved = temp.resolve("moved");
    Files.move(workspace.root(), moved);
    // a new directory at the old path, with a file of the same name holding the secret
    Files.createDirectories(workspace.root());
    Files.write(workspace.root().resolve("a.txt"), workspace.canary().bytes());
    Observation a = only("a.txt");
    if (kind != BoundaryKind.SECURE_DIRECTORY_STREAM) {
      assertEquals("original\n", text(a), "read through the held root fd");
    } else {
      // the fallback checks the by-name inode against the held stream's: a mismatch is never read
      assertTrue(a.content().isEmpty() || text(a).equals("original\n"));
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void fileOverTheSizeLimitIsHashedWholeWhenAskedButNotStored(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("big.bin", new byte[5000]);
    boundary =
        WorkspaceBoundary.open(
            workspace.root(),
            BoundaryOptions.builder()
                .sizeLimit(4096)
                .fullHash(true)
                .mechanism(KindsInThisMode.mechanism(kind))
                .build());
    Snapshot snapshot = only("big.bin").snapshot();
    assertEquals(Optional.of(Reason.TOO_LARGE), snapshot.reason());
    assertEquals(Sha256.of(new byte[5000]), snapshot.sha256().orElseThrow());
    assertTrue(snapshot.sampledSha256().isEmpty());
    assertTrue(snapshot.storedContent().isEmpty());
  }

  /**
   * Item 16: a huge sparse file costs a bounded read; its record says the fingerprint is sampled.
   */
  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aHugeSparseFileOverTheSizeLimitIsFingerprintedBySampling(BoundaryKind kind)
      throws Exception {
    workspace = TestWorkspace.in(temp);
    try (RandomAccessFile file =
        new RandomAccessFile(workspace.resolve("huge.img").toFile(), "rw")) {
      file.setLength(32L << 30);
      file.seek((32L << 30) - 5);
      file.write("tail\n".getBytes(StandardCharsets.US_ASCII));
    }
    open(kind);
    Snapshot snapshot = only("huge.img").snapshot();
    assertEquals(Optional.of(Reason.TOO_LARGE), snapshot.reason());
    assertEquals(32L << 30, snapshot.metadata().orElseThrow().size());
    assertTrue(snapshot.sha256().isEmpty(), "not read whole for a content hash: " + snapshot);
    assertTrue(
        snapshot.fingerprint().contains(":sampled="),
        "the fingerprint says it is sampled: " + snapshot.fingerprint());
    assertTrue(
        snapshot.fingerprint().contains(":inode=" + snapshot.metadata().orElseThrow().inode()),
        snapshot.fingerprint());
    assertFalse(snapshot.captured());
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aSampledFingerprintShowsChangesInSampledBlocksAndNeverProvesSameness(BoundaryKind kind)
      throws Exception {
    byte[] content = new byte[300_000];
    new Random(7).nextBytes(content);
    workspace = TestWorkspace.in(temp).file("big.bin", content);
    boundary =
        WorkspaceBoundary.open(
            workspace.root(),
            BoundaryOptions.builder()
                .sizeLimit(4096)
                .mechanism(KindsInThisMode.mechanism(kind))
                .build());
    Snapshot first = only("big.bin").snapshot();
    Snapshot again = only("big.bin").snapshot();
    assertEquals(
        first.sampledSha256(), again.sampledSha256(), "the same blocks give the same sample");
    assertEquals(
        StateComparison.UNKNOWN,
        first.compareState(again),
        "equal samples never prove the same content");
    content[0] ^= 1;
    Files.write(workspace.resolve("big.bin"), content);
    Snapshot changed = only("big.bin").snapshot();
    assertEquals(
        StateComparison.DIFFERENT,
        first.compareState(changed),
        "a changed first block changes the sample");
    assertEquals(ChangeKind.MODIFIED, ChangeKind.between(first, changed));
  }

  @Test
  void unreadableFileIsNeverRecordedAsAbsent() throws Exception {
    assumeTrue(
        !TestWorkspace.isRoot(), "root reads any file; CliProcessIT runs this case as nobody");
    workspace = TestWorkspace.in(temp).file("locked.txt", "x\n").mode("locked.txt", "---------");
    open(BoundaryKind.OPENAT2);
    Snapshot snapshot = only("locked.txt").snapshot();
    assertEquals(Optional.of(Reason.UNREADABLE), snapshot.reason());
    assertEquals(Presence.UNKNOWN, snapshot.presence());
  }

  /**
   * One numbering whichever boundary holds the root: the kernel's major and minor, as {@code
   * stat(1)} shows them.
   */
  @Test
  void everyBoundaryNumbersTheRootDeviceAlike() throws Exception {
    workspace = TestWorkspace.in(temp);
    Process stat = new ProcessBuilder("stat", "-c", "%Hd %Ld", workspace.root().toString()).start();
    String[] majorMinor =
        new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
            .strip()
            .split(" ");
    assertEquals(0, stat.waitFor());
    long expected = Long.parseLong(majorMinor[0]) << 32 | Long.parseLong(majorMinor[1]);
    for (BoundaryKind kind : BoundaryKind.values()) {
      try (WorkspaceBoundary opened = open(kind)) {
        assertEquals(expected, opened.rootDevice(), kind.code());
        assertTrue(RootAtPath.stillNames(opened), kind.code());
      }
    }
    boundary = null;
  }

  @Test
  void missingWorkspaceIsAClearError() {
    BoundaryException e =
        assertThrows(BoundaryException.class, () -> WorkspaceBoundary.open(temp.resolve("nope")));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }
}
