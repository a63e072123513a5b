package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The watch's policy over a real inotify instance: what a check's suspicion does to the baseline of
 * a scan that was already under way when the check (made on another thread, after a hook's scan)
 * suspected a name.
 */
class WatchingTest {

  private static final long WORKSPACE = 7;

  private static IndexCache.Index index(long version) {
    return IndexCache.Index.of(
        version, version, false, List.of(), Optional.of(DirectoryModes.NONE));
  }

  /** The first scan's baseline written (version 1): the scans after it are watched. */
  private static void firstBaselineWritten(Watching watching) {
    Watching.Plan first = watching.plan(WORKSPACE, index(1), Watching.Scope.WRITE);
    assumeTrue(first.watch().isPresent(), "inotify is available here");
    watching.written(WORKSPACE, 1, 1, first.mark().orElseThrow());
  }

  /**
   * A scan planned on the baseline a check then found wrong trusted the watch about the suspected
   * name; its baseline, written after the suspicion, is not kept: the next scan walks the whole
   * tree, which records the miss. Kept, the miss would wait for the next check.
   */
  @Test
  void aScanUnderWayWhenACheckSuspectsANameWritesNoBaseline() {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    try (Watching watching = new Watching(WatchOptions.SERVICE)) {
      Watching.Plan first = watching.plan(WORKSPACE, index(1), Watching.Scope.WRITE);
      assumeTrue(first.watch().isPresent(), "inotify is available here");
      assertTrue(first.dirty().isEmpty(), "the first scan walks the whole tree");
      watching.written(WORKSPACE, 1, 1, first.mark().orElseThrow());

      Watching.Plan underWay = watching.plan(WORKSPACE, index(1), Watching.Scope.WRITE);
      assertTrue(underWay.dirty().isPresent(), "a watched scan");
      // the check, on its own thread, suspects a name no event explains
      watching.suspected(
          WORKSPACE,
          underWay.mark().orElseThrow(),
          Set.of(WorkspacePath.of("a.txt")),
          "/w",
          "{} where a full scan found {a.txt=MODIFIED}");
      assertFalse(watching.written(WORKSPACE, 2, 2, underWay.mark().orElseThrow()));

      long wholeBefore = watching.status().fullScans();
      Watching.Plan next = watching.plan(WORKSPACE, index(2), Watching.Scope.WRITE);
      assertTrue(next.dirty().isEmpty(), "the scan after the suspicion walks the whole tree");
      assertEquals(wholeBefore + 1, watching.status().fullScans());

      // a scan that began after the suspicion makes the baseline again
      watching.written(WORKSPACE, 3, 3, next.mark().orElseThrow());
      assertTrue(watching.plan(WORKSPACE, index(3), Watching.Scope.WRITE).dirty().isPresent());
    }
  }

  /**
   * A status baseline is used while the index held is still its index; a hook's scan that wrote a
   * later baseline meanwhile (one whose transaction then did not commit, so the index held is the
   * status baseline's again) forgot the events between the two marks. The status walks the whole
   * tree rather than trust a watch that no longer knows every name changed since its mark.
   */
  @Test
  void aStatusBaselineOlderThanTheEventsForgottenIsNotTrusted() {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    try (Watching watching = new Watching(WatchOptions.SERVICE)) {
      firstBaselineWritten(watching);
      Watching.Plan status = watching.plan(WORKSPACE, index(1), Watching.Scope.STATUS);
      assertTrue(status.dirty().isPresent(), "a watched status");
      watching.statusSeen(WORKSPACE, index(1), status.mark().orElseThrow(), Set.of());

      Watching.Plan hook = watching.plan(WORKSPACE, index(1), Watching.Scope.WRITE);
      assertTrue(hook.mark().orElseThrow() > status.mark().orElseThrow());
      watching.written(WORKSPACE, 2, 2, hook.mark().orElseThrow());

      Watching.Plan next = watching.plan(WORKSPACE, index(1), Watching.Scope.STATUS);
      assertTrue(next.dirty().isEmpty(), "the status walks the whole tree");
      assertEquals(
          1L,
          watching.status().fallbacks().get("the events since the baseline were forgotten"),
          watching.status().toString());

      // that whole walk leaves a status baseline the watch remembers all of: trusted again
      watching.statusSeen(WORKSPACE, index(1), next.mark().orElseThrow(), Set.of());
      assertTrue(
          watching.plan(WORKSPACE, index(1), Watching.Scope.STATUS).dirty().isPresent(),
          "the status after it is watched");
    }
  }

  /**
   * A suspected name is judged only against the events a sync has read that began once its wait was
   * over: a scan that synced before (here, the baseline written from it five seconds later) leaves
   * it waiting, as a reader that stalled would have left its event unread; the next scan's answered
   * sync judges it. Judged by the clock alone, the write counted the disagreement.
   */
  @Test
  void aSuspectedNameIsJudgedOnlyAfterASyncThatBeganOnceItsWaitWasOver() throws Exception {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    try (Watching watching = new Watching(WatchOptions.SERVICE)) {
      firstBaselineWritten(watching);
      Watching.Plan scan = watching.plan(WORKSPACE, index(1), Watching.Scope.WRITE);
      watching.suspected(
          WORKSPACE,
          scan.mark().orElseThrow(),
          Set.of(WorkspacePath.of("a.txt")),
          "/w",
          "{} where a full scan found {a.txt=MODIFIED}");

      Thread.sleep(Watching.JUDGED_AFTER.toMillis() + 100);
      watching.written(WORKSPACE, 2, 2, scan.mark().orElseThrow());
      assertEquals(0, watching.status().disagreements(), "not judged without a sync since");
      assertEquals(1, watching.status().awaitingEvents());

      watching.plan(WORKSPACE, index(2), Watching.Scope.WRITE);
      assertEquals(1, watching.status().disagreements(), "judged at the next answered sync");
      assertEquals(0, watching.status().awaitingEvents());
    }
  }
}
