package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The portability modes (TURNDIFF_PORTABILITY): this suite runs in both (Surefire's default and
 * {@code posix} executions), and each test checks what the mode of its run promises.
 */
class PortabilityTest {

  @TempDir Path temp;

  @Test
  void theVariableNamesTheMode() {
    assertEquals(Portability.LINUX, Portability.named(null));
    assertEquals(Portability.LINUX, Portability.named(""));
    assertEquals(Portability.LINUX, Portability.named("linux"));
    assertEquals(Portability.POSIX, Portability.named("posix"));
    assertEquals(Portability.POSIX, Portability.named("POSIX"));
    assertNull(Portability.named("macos"));
  }

  @Test
  void thePosixModeHoldsEveryRootWithOpenatPerComponent() {
    assumeTrue(Portability.current() == Portability.POSIX, "a posix run");
    TestWorkspace workspace = TestWorkspace.in(temp).file("a/b.txt", "b\n");
    try (WorkspaceBoundary boundary = WorkspaceBoundary.open(workspace.root())) {
      assertEquals(BoundaryKind.OPENAT, boundary.kind());
      assertEquals(
          BoundaryKind.OPENAT,
          boundary.observeExact(WorkspacePath.of("a/b.txt")).snapshot().boundary());
    }
    for (BoundaryOptions.Mechanism refused :
        new BoundaryOptions.Mechanism[] {
          BoundaryOptions.Mechanism.OPENAT2, BoundaryOptions.Mechanism.SECURE_DIRECTORY_STREAM
        }) {
      BoundaryException e =
          assertThrows(
              BoundaryException.class,
              () ->
                  WorkspaceBoundary.open(
                      workspace.root(), BoundaryOptions.builder().mechanism(refused).build()));
      assertTrue(e.getMessage().contains("TURNDIFF_PORTABILITY=posix"), e.getMessage());
    }
  }

  @Test
  void thePosixModeWatchesNothing() {
    assumeTrue(Portability.current() == Portability.POSIX, "a posix run");
    assertTrue(TreeWatch.open(TreeWatch.Settings.DEFAULTS).isEmpty());
    assertTrue(MemoryFile.holding("portability-test", new byte[] {1}).isEmpty());
  }

  @Test
  void theLinuxModeWatchesWithInotify() throws Exception {
    assumeTrue(Portability.current() == Portability.LINUX, "a default run");
    try (TreeWatch watch = TreeWatch.open(TreeWatch.Settings.DEFAULTS).orElseThrow()) {
      assertTrue(watch.sync(Duration.ofSeconds(5)).isPresent());
    }
  }
}
