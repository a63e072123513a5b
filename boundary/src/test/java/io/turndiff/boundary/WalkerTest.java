package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one walk to a parent, over every mechanism: the same refusal, in the same words, whichever
 * handle walks; a parent swapped for a link between staging and the commit is never followed.
 * Canary checked after each.
 */
class WalkerTest {

  private static final byte[] RESTORED = "restored\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;

  private void open(BoundaryKind kind) {
    boundary = KindsInThisMode.open(workspace.root(), kind);
  }

  @AfterEach
  void canary() {
    if (boundary != null) {
      boundary.close();
    }
    WriteCanary.assertNothingLandedOutside(workspace, "restored");
  }

  private String refusal(WriteOutcome outcome) {
    return assertInstanceOf(WriteOutcome.Refused.class, outcome).reason();
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void everyMechanismRefusesAParentInTheSameWords(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp).file("file", "f\n").directory("d");
    workspace.symlink("d/out", workspace.outside().toString());
    open(kind);
    assertEquals(
        "parent d/out is a symlink; it is never followed",
        refusal(
            OneFileWrites.writeFile(boundary, WorkspacePath.of("d/out/x.txt"), RESTORED, 0644)));
    assertEquals(
        "parent file is not a directory",
        refusal(
            boundary.stageFile(WorkspacePath.of("file/x.txt"), RESTORED, 0644, Optional.empty())));
    assertEquals(
        "parent d/out is a symlink; it is never followed",
        refusal(OneFileWrites.delete(boundary, WorkspacePath.of("d/out/secret"))));
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aParentSwappedForALinkAfterStagingIsNeverFollowed(BoundaryKind kind) throws IOException {
    workspace = TestWorkspace.in(temp).file("d/a.txt", "a\n");
    open(kind);
    WriteOutcome.Staged staged =
        assertInstanceOf(
            WriteOutcome.Staged.class,
            boundary.stageFile(WorkspacePath.of("d/a.txt"), RESTORED, 0644, Optional.empty()));
    var expected = boundary.observeExact(WorkspacePath.of("d/a.txt")).snapshot();
    Files.move(workspace.resolve("d"), workspace.resolve("moved"));
    Files.createSymbolicLink(workspace.resolve("d"), workspace.outside());
    assertEquals(
        "parent d is a symlink; it is never followed",
        refusal(boundary.commitIfUnchanged(staged, expected)));
    assertEquals(
        "parent d is a symlink; it is never followed",
        refusal(boundary.deleteIfUnchanged(WorkspacePath.of("d/a.txt"), expected)));
    assertTrue(Files.isSymbolicLink(workspace.resolve("d")));
    assertEquals("a\n", workspace.readText("moved/a.txt"));
    boundary.discard(
        new WriteOutcome.Staged(WorkspacePath.of("moved/a.txt"), staged.temporaryName()));
    assertFalse(
        Files.exists(
            workspace.resolve("moved/" + staged.temporaryName()), LinkOption.NOFOLLOW_LINKS),
        "the staged file is removed where it is");
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void missingParentsAreMadeOneComponentAtATime(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    open(kind);
    assertTrue(
        OneFileWrites.writeFile(boundary, WorkspacePath.of("a/b/c/d.txt"), RESTORED, 0644).done());
    assertEquals("restored\n", workspace.readText("a/b/c/d.txt"));
    assertEquals(kind, boundary.kind());
  }
}
