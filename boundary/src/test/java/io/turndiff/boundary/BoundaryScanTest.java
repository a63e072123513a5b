package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Walking the workspace through the boundary, for both implementations; every test checks the
 * canary.
 */
class BoundaryScanTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;

  private WorkspaceBoundary open(BoundaryKind kind) {
    boundary = KindsInThisMode.open(workspace.root(), kind);
    return boundary;
  }

  @AfterEach
  void canary() {
    if (boundary != null) {
      boundary.close();
    }
    workspace.assertOutsideUnchanged();
  }

  /** Records every call, and the thread it came on. */
  private static final class Recorder implements ScanVisitor {
    final List<String> calls = new ArrayList<>();
    final Set<Thread> threads = new HashSet<>();
    final List<ScannedEntry> found = new ArrayList<>();
    private final Set<String> ignoredDirectories;

    Recorder(Set<String> ignoredDirectories) {
      this.ignoredDirectories = ignoredDirectories;
    }

    @Override
    public void entering(Optional<WorkspacePath> directory, Set<String> interestingPresent) {
      threads.add(Thread.currentThread());
      calls.add("enter " + directory.map(WorkspacePath::display).orElse("."));
    }

    @Override
    public Descend directory(WorkspacePath directory) {
      threads.add(Thread.currentThread());
      return ignoredDirectories.contains(directory.display()) ? Descend.IGNORE : Descend.ENTER;
    }

    @Override
    public boolean ignored(WorkspacePath path) {
      threads.add(Thread.currentThread());
      return false;
    }

    @Override
    public void found(ScannedEntry entry) {
      threads.add(Thread.currentThread());
      calls.add("found " + entry.path().display());
      found.add(entry);
    }

    @Override
    public void unlisted(WorkspacePath directory, String why) {
      threads.add(Thread.currentThread());
      calls.add("unlisted " + directory.display());
    }
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void theWalkIsDepthFirstInByteOrderAndCallsTheVisitorOnTheCallingThreadOnly(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    // a directory's own names first, then its subdirectories, each in byte order
    List<String> expected = new ArrayList<>(List.of("enter ."));
    for (String top : List.of("a", "b", "c")) {
      expected.add("enter " + top);
      workspace.file(top + "/z.txt", "z\n");
      expected.add("found " + top + "/z.txt");
      for (String sub : List.of("x", "y")) {
        expected.add("enter " + top + "/" + sub);
        for (int f = 0; f < 3; f++) {
          workspace.file(top + "/" + sub + "/f" + f + ".txt", top + sub + f + "\n");
          expected.add("found " + top + "/" + sub + "/f" + f + ".txt");
        }
      }
    }
    Recorder recorder = new Recorder(Set.of());
    open(kind).scan(recorder);
    assertEquals(expected, recorder.calls);
    assertEquals(Set.of(Thread.currentThread()), recorder.threads);
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void linksAreReportedAsLinksAndIgnoredDirectoriesAreNotEntered(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    workspace.file("a.txt", "a\n").file("skipped/inside.txt", "s\n");
    workspace.symlink("vendor", workspace.outside().resolve("dir").toString());
    workspace.symlink("secret.txt", workspace.secret().toString());
    Recorder recorder = new Recorder(Set.of("skipped"));
    open(kind).scan(recorder);
    assertEquals(
        List.of("enter .", "found a.txt", "found secret.txt", "found vendor"), recorder.calls);
    for (ScannedEntry entry : recorder.found.subList(1, 3)) {
      assertEquals(FileType.SYMLINK, entry.type(), entry.path().display());
      assertTrue(
          entry.linkTarget().isPresent(), "the link's text is reported: " + entry.path().display());
    }
  }
}
