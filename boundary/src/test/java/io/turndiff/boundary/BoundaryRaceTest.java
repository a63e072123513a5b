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
 * Path swaps while the boundary reads: each test runs an attacker thread for a fixed time (longer
 * while no read has returned content) and asserts that the secret's bytes never appear in anything
 * the boundary returned (not that an error was seen), and that the outside tree is unchanged.
 */
class BoundaryRaceTest {

  private static final Duration RACE = Duration.ofMillis(1200);

  /**
   * How long a race goes on past {@link #RACE} while no read has returned content yet. The tests
   * that assert the harmless file was still read sometimes check that the boundary does not refuse
   * every read while a swap goes on, not the scheduler's luck: with three builds on two cores, a
   * race of 1.2 s was seen to end with none of its few reads landing between two swaps.
   */
  private static final Duration RACE_AT_MOST = Duration.ofSeconds(10);

  @TempDir Path temp;

  private static WorkspaceBoundary open(TestWorkspace workspace, BoundaryKind kind) {
    return KindsInThisMode.open(workspace.root(), kind);
  }

  /**
   * Reads {@code path} until the race time is over, and past it while no read has returned content
   * ({@link #RACE_AT_MOST}); returns how many reads returned content.
   */
  private static long readDuringRace(
      WorkspaceBoundary boundary, TestWorkspace workspace, String path) {
    long start = System.nanoTime();
    AtomicLong withContent = new AtomicLong();
    while (System.nanoTime() - start < RACE.toNanos()
        || withContent.get() == 0 && System.nanoTime() - start < RACE_AT_MOST.toNanos()) {
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
