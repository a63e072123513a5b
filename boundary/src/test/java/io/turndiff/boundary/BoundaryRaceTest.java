package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Path swaps while the boundary reads: each test runs an attacker thread for a fixed time and
 * asserts that the secret's bytes never appear in anything the boundary returned (not that an error
 * was seen), and that the outside tree is unchanged.
 */
class BoundaryRaceTest {

  private static final Duration RACE = Duration.ofMillis(1200);

  @TempDir Path temp;

  private static WorkspaceBoundary open(TestWorkspace workspace, BoundaryKind kind) {
    return KindsInThisMode.open(workspace.root(), kind);
  }

  /** Reads {@code path} until the race time is over; returns how many reads returned content. */
  private static long readDuringRace(
      WorkspaceBoundary boundary, TestWorkspace workspace, String path) {
    long deadline = System.nanoTime() + RACE.toNanos();
    AtomicLong withContent = new AtomicLong();
    while (System.nanoTime() < deadline) {
      List<Observation> observations = boundary.observe(path);
      for (Observation observation : observations) {
        observation
            .content()
            .ifPresent(
                bytes -> {
                  workspace.canary().assertNotIn("content read during the race", bytes);
                  withContent.incrementAndGet();
                });
        workspace
            .canary()
            .assertNotIn("a snapshot read during the race", observation.snapshot().toString());
      }
    }
    return withContent.get();
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void finalComponentSwappedBetweenFileAndSymlinkNeverLeaks(BoundaryKind kind) throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp)
            .file("target.txt", "harmless\n")
            .symlink("spare", "../outside/secret.txt");
    try (WorkspaceBoundary boundary = open(workspace, kind);
        Attacker attacker =
            Attacker.exchanging(workspace.resolve("target.txt"), workspace.resolve("spare"))) {
      long read = readDuringRace(boundary, workspace, "target.txt");
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
      assertTrue(read > 0, "the harmless file was still read sometimes");
    }
    workspace.assertOutsideUnchanged();
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void directoryComponentSwappedBetweenDirectoryAndSymlinkNeverLeaks(BoundaryKind kind)
      throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp).file("d/secret.txt", "harmless\n");
    workspace.symlink("spare", workspace.outside().resolve("dir").toString());
    try (WorkspaceBoundary boundary = open(workspace, kind);
        Attacker attacker =
            Attacker.exchanging(workspace.resolve("d"), workspace.resolve("spare"))) {
      readDuringRace(boundary, workspace, "d/secret.txt");
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
    }
    workspace.assertOutsideUnchanged();
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void relativeDirectoryLinkSwappedInNeverLeaks(BoundaryKind kind) throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp)
            .file("d/secret.txt", "harmless\n")
            .symlink("spare", "../outside/dir");
    try (WorkspaceBoundary boundary = open(workspace, kind);
        Attacker attacker =
            Attacker.exchanging(workspace.resolve("d"), workspace.resolve("spare"))) {
      readDuringRace(boundary, workspace, "d/secret.txt");
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
    }
    workspace.assertOutsideUnchanged();
  }

  @ParameterizedTest
  @EnumSource(
      value = BoundaryKind.class,
      names = {"OPENAT2", "OPENAT"})
  void hardlinkSwappedInByRenameExchangeIsNeverRead(BoundaryKind kind) throws Exception {
    // Only the fd boundaries check nlink on the opened fd. The fallback checks the inode by name
    // before and after the read (documented in StreamHandle): a swap in and back between the two
    // checks is outside what it can see, so it is not held to this test.
    TestWorkspace workspace = TestWorkspace.in(temp).file("target.txt", "harmless\n");
    workspace.hardlink("spare", workspace.secret()).refreshOutsidePicture();
    try (WorkspaceBoundary boundary = open(workspace, kind);
        Attacker attacker =
            Attacker.exchanging(workspace.resolve("target.txt"), workspace.resolve("spare"))) {
      long read = readDuringRace(boundary, workspace, "target.txt");
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
      assertTrue(read > 0, "the harmless file was still read sometimes");
    }
    workspace.assertOutsideUnchanged();
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void fifoSwappedInNeverHangs(BoundaryKind kind) throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux");
    TestWorkspace workspace = TestWorkspace.in(temp).file("target.txt", "harmless\n").fifo("spare");
    try (WorkspaceBoundary boundary = open(workspace, kind);
        Attacker attacker =
            Attacker.exchanging(workspace.resolve("target.txt"), workspace.resolve("spare"))) {
      // every read returns: the whole race (1.2 s of reads) finishes well within the bound
      assertTimeoutPreemptively(
          RACE.plusSeconds(20), () -> readDuringRace(boundary, workspace, "target.txt"));
      assertTrue(attacker.swaps() > 100, "the attacker swapped " + attacker.swaps() + " times");
    }
    workspace.assertOutsideUnchanged();
  }
}
