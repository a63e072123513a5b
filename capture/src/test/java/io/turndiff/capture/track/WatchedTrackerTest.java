package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.boundary.ThreadPriority;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.ThreadNice;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.TestHook;
import io.turndiff.store.Store;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watched scan of tracked workspaces over real files, real inotify and a real store: after
 * every change the watched tracker's answer is compared with an unwatched tracker's full scan of
 * the same tree and index, and the watched tracker checks each of its watched scans against a full
 * one too ({@code verifyEvery} 1: a status's in line, a refresh's after it on the check's thread),
 * counting every disagreement. Every test checks the canary.
 */
class WatchedTrackerTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private WorkspaceHandles handles;
  private CaptureService watchedCapture;
  private Tracker watched;
  private CaptureService fullCapture;
  private Tracker full;
  private final AtomicBoolean pauseReader = new AtomicBoolean();
  private volatile CountDownLatch resume = new CountDownLatch(0);

  /** When set, the watch's reader fails before its next read, counting this down first. */
  private final AtomicReference<CountDownLatch> failReader = new AtomicReference<>();

  /** Run (once) between a watched scan and the whole scan that checks it. */
  private final AtomicReference<Runnable> atCheck = new AtomicReference<>();

  private final TestHook hook =
      point -> {
        if (point == TestHook.Point.WATCH_CHECK_STARTING) {
          Runnable once = atCheck.getAndSet(null);
          if (once != null) {
            once.run();
          }
        }
        CountDownLatch failing = failReader.get();
        if (point == TestHook.Point.WATCH_READING && failing != null) {
          failing.countDown();
          throw new IllegalStateException("the watch's read failed");
        }
        if (point == TestHook.Point.WATCH_READING && pauseReader.get()) {
          try {
            resume.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      };

  @BeforeAll
  static void watching() {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
  }

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    open(WatchOptions.SERVICE.withVerifyEvery(1));
  }

  private void open(WatchOptions options) {
    handles = new WorkspaceHandles(store, BoundaryOptions.defaults());
    watchedCapture = new CaptureService(store, handles, options.withHook(hook), turnRow -> {});
    watched = watchedCapture.tracker();
    fullCapture = new CaptureService(store, BoundaryOptions.defaults());
    full = fullCapture.tracker();
  }

  @AfterEach
  void canary() {
    resume.countDown();
    watchedCapture.close();
    fullCapture.close();
    handles.close();
    workspace.assertNothingLeakedThenClose(store);
  }

  private static Map<String, ChangeKind> changes(Tracker tracker, Path root) {
    return tracker.status(root).changes().stream()
        .collect(Collectors.toMap(change -> change.path().display(), PathChange::kind));
  }

  /**
   * The watched status equals the full scan's, and is {@code expected}; then the watched tracker
   * writes the index (a turn's refresh) and both see nothing.
   */
  private void assertSeen(Map<String, ChangeKind> expected) {
    Map<String, ChangeKind> byWatch = changes(watched, workspace.root());
    assertEquals(changes(full, workspace.root()), byWatch, "the watched scan = the full scan");
    assertEquals(expected, byWatch);
    assertEquals(expected, toMap(watched.refresh(workspaceId())));
    assertEquals(Map.of(), changes(watched, workspace.root()));
    assertEquals(Map.of(), changes(full, workspace.root()));
    assertEquals(0, watched.watchStatus().disagreements(), watched.watchStatus().toString());
  }

  private static Map<String, ChangeKind> toMap(List<PathChange> changes) {
    return changes.stream()
        .collect(Collectors.toMap(change -> change.path().display(), PathChange::kind));
  }

  private long workspaceId() {
    String root = realRoot();
    return store.read(tx -> tx.workspaces().byRealRoot(root).orElseThrow().id());
  }

  private String realRoot() {
    try {
      return workspace.root().toRealPath().toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sh(Path dir, String script) throws Exception {
    Process process =
        new ProcessBuilder("sh", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), script + ": " + output);
  }

  private void track() {
    watched.track(workspace.root(), TrackingOptions.DEFAULTS);
    assumeTrue(watched.watchStatus().workspaces() == 1, "inotify is available here");
  }

  @Test
  void editsCreationsDeletionsAndModesAreSeenByLookingAtTheChangedNamesOnly() throws Exception {
    workspace.file("a.txt", "one\n").file("b.txt", "b\n").file("src/run.sh", "echo\n");
    for (int i = 0; i < 40; i++) {
      workspace.file("d" + i % 4 + "/f" + i + ".txt", "content " + i + "\n");
    }
    track();
    long before = watched.watchStatus().watchedScans();
    sh(
        workspace.root(),
        "echo two >> a.txt && mv b.txt c.txt && chmod +x src/run.sh && ln -s a.txt alias"
            + " && rm d1/f1.txt");
    assertSeen(
        Map.of(
            "a.txt", ChangeKind.MODIFIED,
            "b.txt", ChangeKind.DELETED,
            "c.txt", ChangeKind.ADDED,
            "src/run.sh", ChangeKind.MODIFIED,
            "alias", ChangeKind.ADDED,
            "d1/f1.txt", ChangeKind.DELETED));
    WatchStatus status = watched.watchStatus();
    assertTrue(
        status.watchedScans() > before,
        "the finishes after the track looked at the changed names only: " + status);
    assertTrue(status.checks() > 0, "and each was checked against a full scan: " + status);
  }

  @Test
  void aFileReplacedByARenameIsModified() throws Exception {
    workspace.file("a.txt", "one\n");
    track();
    sh(workspace.root(), "printf 'two\\n' > .a.new && mv .a.new a.txt");
    assertSeen(Map.of("a.txt", ChangeKind.MODIFIED));
  }

  @Test
  void aNestedSubtreeCreatedAfterTheWatchStartedIsWatchedToo() throws Exception {
    workspace.file("a.txt", "one\n");
    track();
    sh(workspace.root(), "mkdir -p x/y/z && echo deep > x/y/z/f.txt && echo mid > x/m.txt");
    assertSeen(Map.of("x/y/z/f.txt", ChangeKind.ADDED, "x/m.txt", ChangeKind.ADDED));
    long watchedScans = watched.watchStatus().watchedScans();
    sh(workspace.root(), "echo deeper >> x/y/z/f.txt && mkdir x/y/z/w && echo w > x/y/z/w/g.txt");
    assertSeen(Map.of("x/y/z/f.txt", ChangeKind.MODIFIED, "x/y/z/w/g.txt", ChangeKind.ADDED));
    assertTrue(watched.watchStatus().watchedScans() > watchedScans, "without a full scan");
  }

  @Test
  void aDirectoryRenamedMovedOutAndMovedBackIn() throws Exception {
    workspace.file("d/a.txt", "a\n").file("d/sub/b.txt", "b\n").file("keep.txt", "k\n");
    track();
    sh(workspace.root(), "mv d e");
    assertSeen(
        Map.of(
            "d/a.txt", ChangeKind.DELETED,
            "d/sub/b.txt", ChangeKind.DELETED,
            "e/a.txt", ChangeKind.ADDED,
            "e/sub/b.txt", ChangeKind.ADDED));
    // an edit under the renamed directory is seen at its new name
    sh(workspace.root(), "echo more >> e/sub/b.txt");
    assertSeen(Map.of("e/sub/b.txt", ChangeKind.MODIFIED));
    int watchedDirectories = watched.watchStatus().directories();
    Path away = workspace.base().resolve("away");
    sh(workspace.root(), "mv e " + away);
    assertSeen(Map.of("e/a.txt", ChangeKind.DELETED, "e/sub/b.txt", ChangeKind.DELETED));
    assertEquals(
        watchedDirectories - 2,
        watched.watchStatus().directories(),
        "the directories moved out are no longer watched");
    // edited while outside: its subtree is unknown when it comes back
    sh(workspace.base(), "echo changed > away/a.txt && echo new > away/sub/c.txt");
    sh(workspace.root(), "mv " + away + " d");
    assertSeen(
        Map.of(
            "d/a.txt", ChangeKind.ADDED,
            "d/sub/b.txt", ChangeKind.ADDED,
            "d/sub/c.txt", ChangeKind.ADDED));
    assertEquals("changed\n", workspace.readText("d/a.txt"));
  }

  // the race is between the kernel's events and the scans; the store only holds the index, so the
  // PostgreSQL run leaves it out (it took a minute of CI there)
  @Tag("store-independent")
  @RepeatedTest(20)
  void changesDuringTheScansAreSeenByALaterOne() throws Exception {
    for (int i = 0; i < 200; i++) {
      workspace.file("d" + i % 10 + "/f" + i + ".txt", "content " + i + "\n");
    }
    track();
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer =
        Thread.ofPlatform()
            .start(
                () -> {
                  for (int round = 0; !stop.get(); round++) {
                    int i = round % 200;
                    try {
                      Path file = workspace.resolve("d" + i % 10 + "/f" + i + ".txt");
                      Files.writeString(file, "round " + round + "\n");
                      if (round % 7 == 0) {
                        Files.createDirectories(workspace.resolve("n" + round % 5));
                        Files.writeString(workspace.resolve("n" + round % 5 + "/x"), "x" + round);
                      }
                    } catch (IOException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                });
    try {
      for (int i = 0; i < 15; i++) {
        watched.refresh(workspaceId());
      }
    } finally {
      stop.set(true);
      writer.join();
    }
    Map<String, ChangeKind> byWatch = changes(watched, workspace.root());
    assertEquals(changes(full, workspace.root()), byWatch, "after the writes stopped");
    watched.refresh(workspaceId());
    assertEquals(Map.of(), changes(full, workspace.root()), "the index holds the tree now");
    // the writer has ended, so every event of its writes was queued before the syncs of the two
    // scans above: a name a check found changed is explained by now, or the watch missed it
    WatchStatus status = watched.watchStatus();
    assertEquals(0, status.awaitingEvents(), status.toString());
    assertEquals(0, status.disagreements(), status.toString());
    assertTrue(status.checks() > 0, status.toString());
  }

  @Test
  void aQueueThatOverflowedMakesTheNextFinishAFullScan() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    resume = new CountDownLatch(1);
    pauseReader.set(true);
    // the reader reads what is queued now and stops before its next read
    sh(workspace.root(), "touch d/b.txt");
    Thread.sleep(100);
    // more events than the kernel queues for one instance (fs.inotify.max_queued_events)
    int queued =
        Integer.parseInt(
            Files.readAllLines(Path.of("/proc/sys/fs/inotify/max_queued_events"))
                .getFirst()
                .trim());
    assumeTrue(queued <= 65_536, "the queue is small enough to overflow here");
    // a create and a close-write per new name, in the watched root: more than the queue holds
    sh(
        workspace.root(),
        "i=0; while [ $i -lt "
            + (queued / 2 + 100)
            + " ]; do : > flood$i; i=$((i+1)); done; rm -f flood*;"
            + " echo two >> a.txt && echo c > d/c.txt");
    pauseReader.set(false);
    resume.countDown();
    long fullScans = watched.watchStatus().fullScans();
    assertSeen(Map.of("a.txt", ChangeKind.MODIFIED, "d/c.txt", ChangeKind.ADDED));
    WatchStatus status = watched.watchStatus();
    assertTrue(status.overflows() >= 1, status.toString());
    assertTrue(status.fullScans() > fullScans, status.toString());
    assertTrue(
        status.fallbacks().containsKey("the kernel's event queue overflowed"), status.toString());
  }

  @Test
  void theWatchLimitReachedMakesEveryFinishAFullScan() throws Exception {
    watchedCapture.close();
    fullCapture.close();
    handles.close();
    open(WatchOptions.SERVICE.withVerifyEvery(1).withMaxWatches(2));
    workspace.file("a/1.txt", "1\n").file("b/2.txt", "2\n").file("c/3.txt", "3\n");
    track();
    assertTrue(watched.watchStatus().directories() <= 2, watched.watchStatus().toString());
    sh(workspace.root(), "echo more >> c/3.txt && echo new > b/n.txt");
    long watchedScans = watched.watchStatus().watchedScans();
    assertSeen(Map.of("c/3.txt", ChangeKind.MODIFIED, "b/n.txt", ChangeKind.ADDED));
    WatchStatus status = watched.watchStatus();
    assertEquals(watchedScans, status.watchedScans(), "no finish trusted an incomplete watch");
    assertTrue(
        status.fallbacks().keySet().stream().anyMatch(why -> why.contains("watch limit")),
        status.toString());
  }

  /**
   * A workspace tracked by another process (a {@code turndiff track} in a JVM of its own) and
   * changed while no watch ran: the service's first status walks the whole tree and sees the
   * change; every status after it looks only at the names with an event since and at those the last
   * status found changed, until a turn writes the index, and each answers as a full scan does. The
   * sampled check is off ({@code verifyEvery} 50, the service's), so the counters show every walk.
   */
  @Test
  void aStatusAfterAnotherProcessTrackedLooksAtTheChangesOnlyFromTheSecondOn() throws Exception {
    watchedCapture.close();
    fullCapture.close();
    handles.close();
    open(WatchOptions.SERVICE.withHook(hook));
    workspace.file("a.txt", "one\n").file("b.txt", "b\n");
    for (int i = 0; i < 40; i++) {
      workspace.file("d" + i % 4 + "/f" + i + ".txt", "content " + i + "\n");
    }
    full.track(workspace.root(), TrackingOptions.DEFAULTS);
    sh(workspace.root(), "echo two >> a.txt");

    assertEquals(Map.of("a.txt", ChangeKind.MODIFIED), changes(watched, workspace.root()));
    WatchStatus first = watched.watchStatus();
    assumeTrue(first.workspaces() == 1, "inotify is available here");
    assertEquals(1, first.fullScans(), "the first status walks the tree: " + first);
    assertEquals(0, first.watchedScans(), first.toString());

    sh(workspace.root(), "rm b.txt && echo new > d0/new.txt && mkdir e && echo e > e/f.txt");
    Map<String, ChangeKind> second = changes(watched, workspace.root());
    assertEquals(
        Map.of(
            "a.txt", ChangeKind.MODIFIED,
            "b.txt", ChangeKind.DELETED,
            "d0/new.txt", ChangeKind.ADDED,
            "e/f.txt", ChangeKind.ADDED),
        second);
    assertEquals(changes(full, workspace.root()), second, "the watched status = a full scan");

    sh(workspace.root(), "printf 'one\\n' > a.txt && echo more >> d2/f2.txt");
    Map<String, ChangeKind> third = changes(watched, workspace.root());
    assertEquals(
        Map.of(
            "b.txt", ChangeKind.DELETED,
            "d0/new.txt", ChangeKind.ADDED,
            "e/f.txt", ChangeKind.ADDED,
            "d2/f2.txt", ChangeKind.MODIFIED),
        third,
        "a.txt holds the index's content again");
    assertEquals(changes(full, workspace.root()), third, "the watched status = a full scan");

    WatchStatus after = watched.watchStatus();
    assertEquals(1, after.fullScans(), "no status after the first walked the tree: " + after);
    assertEquals(2, after.watchedScans(), after.toString());
    assertEquals(0, after.checks(), after.toString());

    // a turn's refresh writes the index: the statuses after it use the index's baseline
    assertEquals(4, watched.refresh(workspaceId()).size());
    assertEquals(Map.of(), changes(watched, workspace.root()));
    assertEquals(Map.of(), changes(full, workspace.root()));
    assertEquals(0, watched.watchStatus().disagreements(), watched.watchStatus().toString());
  }

  /**
   * The same, with every watched status checked against a full scan: an index another process
   * writes after the service's status makes the next status walk the tree again.
   */
  @Test
  void aStatusBaselineIsCheckedAndDroppedWhenAnotherProcessWritesTheIndex() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    full.track(workspace.root(), TrackingOptions.DEFAULTS);
    sh(workspace.root(), "echo two >> a.txt");
    assertEquals(Map.of("a.txt", ChangeKind.MODIFIED), changes(watched, workspace.root()));
    assumeTrue(watched.watchStatus().workspaces() == 1, "inotify is available here");
    sh(workspace.root(), "echo c > d/c.txt && chmod +x d/b.txt");
    assertEquals(
        Map.of(
            "a.txt", ChangeKind.MODIFIED,
            "d/c.txt", ChangeKind.ADDED,
            "d/b.txt", ChangeKind.MODIFIED),
        changes(watched, workspace.root()));
    WatchStatus checked = watched.watchStatus();
    assertEquals(1, checked.watchedScans(), checked.toString());
    assertEquals(1, checked.checks(), checked.toString());
    assertEquals(0, checked.disagreements(), checked.toString());

    full.refresh(workspaceId());
    sh(workspace.root(), "rm a.txt");
    assertEquals(Map.of("a.txt", ChangeKind.DELETED), changes(watched, workspace.root()));
    WatchStatus after = watched.watchStatus();
    assertEquals(2, after.fullScans(), after.toString());
    assertEquals(
        1L, after.fallbacks().get("the index was written by another scan"), after.toString());
  }

  /**
   * A write through a shared mapping changes the file (its content and, at the first write fault,
   * its times) with no event until the writer closes its descriptor ({@code IN_CLOSE_WRITE}): the
   * kernel's event comes after the change is visible, here by as long as the test likes, as a
   * write's {@code IN_MODIFY} does under load by as long as the writer is kept from running. A
   * status's check (in line) finds the change and the whole result wins at once; the name then
   * awaits its event, and the event that comes late explains it: no disagreement.
   */
  @Test
  void aChangeWhoseEventComesLateIsNoDisagreement() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    Map<String, ChangeKind> seen;
    // the mapping holds the open file as its descriptor does: the file is closed, and its event
    // queued, when both are gone (the arena unmaps it before the channel closes)
    try (FileChannel channel =
            FileChannel.open(
                workspace.resolve("a.txt"), StandardOpenOption.READ, StandardOpenOption.WRITE);
        Arena arena = Arena.ofConfined()) {
      MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, 4, arena);
      mapped.set(ValueLayout.JAVA_BYTE, 0, (byte) 'O');
      seen = changes(watched, workspace.root());
      // the next scan's sync: still no event for a.txt, whose writer is still at work
      assertEquals(seen, changes(watched, workspace.root()));
      WatchStatus waiting = watched.watchStatus();
      assertEquals(1, waiting.awaitingEvents(), waiting.toString());
      assertEquals(0, waiting.disagreements(), waiting.toString());
    }
    assertEquals(Map.of("a.txt", ChangeKind.MODIFIED), seen, "the whole result wins");
    // the descriptor closed: its IN_CLOSE_WRITE, read at the next sync, explains a.txt
    assertEquals(seen, changes(watched, workspace.root()));
    WatchStatus status = watched.watchStatus();
    assertEquals(0, status.awaitingEvents(), status.toString());
    assertEquals(0, status.disagreements(), status.toString());
    assertEquals("One\n", workspace.readText("a.txt"));
  }

  /**
   * The watch status once no name awaits its event: each status syncs the watch and judges what
   * waited long enough, so this asks for statuses until none waits (5 seconds after the check that
   * left a name unexplained), within a deadline well past that.
   */
  private WatchStatus judged() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      changes(watched, workspace.root());
      WatchStatus status = watched.watchStatus();
      if (status.awaitingEvents() == 0 || System.nanoTime() > deadline) {
        return status;
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aFileHardlinkedFromOutsideIsLookedAtEveryTime() throws Exception {
    Path elsewhere = workspace.base().resolve("elsewhere.txt");
    Files.writeString(elsewhere, "one\n");
    workspace.file("a.txt", "a\n").hardlink("linked.txt", elsewhere);
    track();
    // written through its name outside: no event in the workspace's directories
    Files.writeString(elsewhere, "two, longer\n");
    assertSeen(Map.of("linked.txt", ChangeKind.MODIFIED));
  }

  /**
   * A file linked from outside after it was indexed, written through that name and unlinked again
   * has no event in the workspace (inotify reports a write to the directory the writer named): the
   * watched scan misses it, and a status's check must count it as a disagreement and answer the
   * whole result, even though another name that changed after the watched scan (and is explained by
   * its own event) differs between the two as well.
   */
  @Test
  void aMissTheCheckFindsIsADisagreementEvenBesideAnExplainedChange() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    writeATxtThroughALinkFromOutside();
    atCheck.set(
        () -> {
          try {
            Files.writeString(workspace.resolve("d/b.txt"), "changed during the check\n");
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
    Map<String, ChangeKind> seen = changes(watched, workspace.root());
    assertEquals(
        Map.of("a.txt", ChangeKind.MODIFIED, "d/b.txt", ChangeKind.MODIFIED),
        seen,
        "the whole result wins");
    // at the next sync a.txt still has no event, b.txt has its own: a.txt awaits its event
    assertEquals(seen, changes(watched, workspace.root()));
    WatchStatus waiting = watched.watchStatus();
    assertEquals(1, waiting.awaitingEvents(), waiting.toString());
    assertEquals(0, waiting.disagreements(), waiting.toString());
    // and is a disagreement at the first sync after the wait for its event is over
    WatchStatus status = judged();
    assertEquals(1, status.disagreements(), status.toString());
    assertEquals(0, status.awaitingEvents(), status.toString());
    assertTrue(
        status.lastDisagreement().orElseThrow().contains("a.txt=MODIFIED"), status.toString());
    assertFalse(
        status.lastDisagreement().orElseThrow().contains("b.txt"),
        "a change explained by its own event is no disagreement: " + status);
    assertEquals(seen, changes(full, workspace.root()));
    assertEquals("two, written outside\n", workspace.readText("a.txt"));
  }

  /**
   * A hook's scan (a refresh, here every one due a check) does not wait for its check: the check
   * walks the whole tree on a thread of its own once the scan has written its baseline. The miss it
   * finds makes the next scan walk the whole tree, which records it; and it is a disagreement once
   * the wait for its event is over.
   */
  @Test
  void aHookScanIsCheckedAfterItOffItsPathAndTheNextScanRecordsTheMiss() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    writeATxtThroughALinkFromOutside();
    AtomicReference<String> checkedOn = new AtomicReference<>();
    AtomicInteger checkedAtNice = new AtomicInteger(-100);
    atCheck.set(
        () -> {
          checkedOn.set(Thread.currentThread().getName());
          checkedAtNice.set(ThreadNice.ofThisThread());
        });
    long checks = watched.watchStatus().checks();

    assertEquals(Map.of(), toMap(watched.refresh(workspaceId())), "the watched scan misses it");
    // the check is counted as its whole walk begins, the suspicion after it
    WatchStatus suspected =
        awaited(status -> status.awaitingEvents() == 1 && status.checks() == checks + 1);
    assertEquals(1, suspected.awaitingEvents(), suspected.toString());
    assertEquals(checks + 1, suspected.checks(), suspected.toString());
    assertEquals("turndiff-watch-check", checkedOn.get(), "the check ran on its own thread");
    assertEquals(
        Math.min(ThreadPriority.LOWEST, ThreadNice.ofThisThread() + ThreadPriority.STEP),
        checkedAtNice.get(),
        "behind the hooks");

    theNextScanRecordsTheMissOfATxt();
    assertEquals(Map.of(), changes(full, workspace.root()));
  }

  /**
   * The scan after a check that suspected a.txt walks the whole tree and records its change; with
   * no event for it, a.txt is one disagreement once judged, which names it. Returns the status
   * then.
   */
  private WatchStatus theNextScanRecordsTheMissOfATxt() throws Exception {
    assertEquals(
        Map.of("a.txt", ChangeKind.MODIFIED),
        toMap(watched.refresh(workspaceId())),
        "the scan after the check walks the whole tree");
    WatchStatus status = judged();
    assertEquals(1, status.disagreements(), status.toString());
    assertTrue(
        status.lastDisagreement().orElseThrow().contains("a.txt=MODIFIED"), status.toString());
    return status;
  }

  /**
   * A check whose watch stops answering before the check's sync after its whole walk (the reader
   * held, so that sync times out) cannot tell that a.txt was explained: a.txt is suspected, as a
   * name no event explains is, and the next scan walks the whole tree; it is judged only at a sync
   * that is answered. Taken as explained (before: nothing suspected), the next scan trusted the
   * watch that had missed a.txt.
   */
  @Test
  void aCheckWhoseWatchStopsAnsweringSuspectsWhatItCouldNotExplain() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    writeATxtThroughALinkFromOutside();
    holdTheReaderBeforeTheWholeWalk();

    assertEquals(Map.of(), toMap(watched.refresh(workspaceId())), "the watched scan misses it");
    WatchStatus suspected = awaited(status -> status.awaitingEvents() == 1);
    assertEquals(1, suspected.awaitingEvents(), "a.txt suspected: " + suspected);
    assertEquals(0, suspected.disagreements(), "not judged while the watch does not answer");
    resume.countDown();

    theNextScanRecordsTheMissOfATxt();
    assertEquals(Map.of(), changes(full, workspace.root()));
  }

  /**
   * The same for a status's check in line: the status answers with the whole walk's result, which
   * has a.txt, where the watch that stopped answering had missed it (before: the watched result).
   */
  @Test
  void aStatusWhoseWatchStopsAnsweringAnswersWithTheWholeWalk() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    writeATxtThroughALinkFromOutside();
    holdTheReaderBeforeTheWholeWalk();

    assertEquals(Map.of("a.txt", ChangeKind.MODIFIED), changes(watched, workspace.root()));
    resume.countDown();
    theNextScanRecordsTheMissOfATxt();
  }

  /**
   * At the check's start (before its whole walk), the watch's reader is held: one more event (a
   * touch, which changes no content) is read, and the reader stops before its next read, so every
   * sync after it times out until {@code resume} is counted down.
   */
  private void holdTheReaderBeforeTheWholeWalk() {
    resume = new CountDownLatch(1);
    atCheck.set(
        () -> {
          pauseReader.set(true);
          try {
            sh(workspace.root(), "touch d/b.txt");
            Thread.sleep(100);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /**
   * A watch whose reader failed (an error on its thread, here thrown by the hook it calls before
   * each read) is closed and answers no sync again: every later scan walks the whole tree and sees
   * what changed, each counted under "the watcher stopped" with why in {@code service status}.
   * Counted under "the watcher did not answer in time" (before), a watch gone for good passed for a
   * slow one; and without why, the failure was said nowhere.
   */
  @Test
  void aWatchWhoseReaderFailedMakesEveryLaterScanWholeAsTheWatcherStopped() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    CountDownLatch failed = new CountDownLatch(1);
    failReader.set(failed);
    // the reader reads this touch's event and fails before its next read
    sh(workspace.root(), "touch d/b.txt");
    assertTrue(failed.await(10, TimeUnit.SECONDS), "the reader failed");
    long watchedScans = watched.watchStatus().watchedScans();
    long fullScans = watched.watchStatus().fullScans();

    Files.writeString(workspace.resolve("a.txt"), "two\n");
    // three scans: a status, a refresh, a status
    assertSeen(Map.of("a.txt", ChangeKind.MODIFIED));
    WatchStatus status = watched.watchStatus();
    assertEquals(watchedScans, status.watchedScans(), status.toString());
    assertEquals(fullScans + 3, status.fullScans(), status.toString());
    // with why, where service status shows it: the reader's failure
    assertEquals(
        3L,
        status
            .fallbacks()
            .get(
                "the watcher stopped (its reader failed: IllegalStateException: the watch's read failed)"),
        status.toString());
    assertFalse(
        status.fallbacks().containsKey("the watcher did not answer in time"), status.toString());
  }

  /**
   * A check off the hooks' path that throws before it compares found nothing: it is counted as
   * failed with the workspace's root and the reason (what {@code service status} and {@code doctor}
   * show), and the next check due is made as usual. Without the count, a watch whose checks all
   * failed looked like one whose checks all agreed.
   */
  @Test
  void aCheckThatFailsIsCountedWithItsWorkspaceAndTheNextOneIsMade() throws Exception {
    workspace.file("a.txt", "one\n");
    track();
    long checks = watched.watchStatus().checks();
    atCheck.set(
        () -> {
          throw new IllegalStateException("the tree could not be read");
        });

    assertEquals(Map.of(), toMap(watched.refresh(workspaceId())));
    WatchStatus failed = awaited(status -> status.failedChecks() == 1);
    assertEquals(1, failed.failedChecks(), failed.toString());
    String reason = failed.lastFailedCheck().orElseThrow();
    assertTrue(reason.startsWith(workspace.root().toRealPath() + ": "), reason);
    assertTrue(reason.endsWith("the tree could not be read"), reason);
    assertEquals(0, failed.awaitingEvents(), failed.toString());

    Files.writeString(workspace.resolve("a.txt"), "two\n");
    assertEquals(Map.of("a.txt", ChangeKind.MODIFIED), toMap(watched.refresh(workspaceId())));
    WatchStatus next = awaited(status -> status.checks() == checks + 2);
    assertEquals(checks + 2, next.checks(), "the next check was made: " + next);
    assertEquals(1, next.failedChecks(), next.toString());
    assertEquals(0, next.disagreements(), next.toString());
  }

  /**
   * A hook's scan that writes a baseline while a check of the one before runs (the check's whole
   * walk takes a second at 250,000 files, hooks keep coming) forgets none of the events after the
   * check began: the change made meanwhile is explained by its own event, and the check's verdict
   * on the real miss stands, against whichever baseline is the workspace's by then.
   */
  @Test
  void aBaselineWrittenWhileACheckRunsKeepsTheEventsThatExplainWhatItFinds() throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    writeATxtThroughALinkFromOutside();
    CountDownLatch checking = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    atCheck.set(holding(checking, release));
    try {
      assertEquals(Map.of(), toMap(watched.refresh(workspaceId())), "the watched scan misses it");
      assertTrue(checking.await(30, TimeUnit.SECONDS), "the check began");
      // the check has made its watched scan and waits before its whole walk: a hook comes
      Files.writeString(workspace.resolve("d/b.txt"), "changed while the check ran\n");
      assertEquals(Map.of("d/b.txt", ChangeKind.MODIFIED), toMap(watched.refresh(workspaceId())));
    } finally {
      release.countDown();
    }
    WatchStatus suspected = awaited(status -> status.awaitingEvents() > 0);
    assertEquals(1, suspected.awaitingEvents(), "a.txt alone: " + suspected);
    WatchStatus status = theNextScanRecordsTheMissOfATxt();
    assertFalse(status.lastDisagreement().orElseThrow().contains("b.txt"), status.toString());
  }

  /**
   * A status's check in line, held before its whole walk while a hook's scan writes a baseline: the
   * change the hook records was made after the status's check began and is explained by its own
   * event, which the baseline written meanwhile keeps. Forgotten, the check would suspect it, and
   * count a disagreement five seconds later for a change the watch saw.
   */
  @Test
  void aBaselineWrittenWhileAStatusIsCheckedKeepsTheEventsThatExplainWhatItFinds()
      throws Exception {
    workspace.file("a.txt", "one\n").file("d/b.txt", "b\n");
    track();
    CountDownLatch checking = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    atCheck.set(holding(checking, release));
    AtomicReference<Map<String, ChangeKind>> seen = new AtomicReference<>();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread status =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    seen.set(changes(watched, workspace.root()));
                  } catch (Throwable e) {
                    failed.set(e);
                  }
                });
    try {
      assertTrue(checking.await(30, TimeUnit.SECONDS), "the status's check began");
      Files.writeString(workspace.resolve("d/b.txt"), "changed while the status ran\n");
      assertEquals(Map.of("d/b.txt", ChangeKind.MODIFIED), toMap(watched.refresh(workspaceId())));
    } finally {
      release.countDown();
      status.join();
    }
    assertEquals(null, failed.get(), "the status failed");
    WatchStatus after = watched.watchStatus();
    assertEquals(0, after.awaitingEvents(), "nothing suspected: " + after);
    assertEquals(0, after.disagreements(), after.toString());
    assertEquals(Map.of(), seen.get(), "no suspicion: the status answers its watched scan");
  }

  /** At a check: tells {@code checking}, then waits for {@code release} (30 seconds at most). */
  private static Runnable holding(CountDownLatch checking, CountDownLatch release) {
    return () -> {
      checking.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /**
   * Writes a.txt through a hardlink made from outside the workspace and unlinked again: inotify
   * reports the write to the directory of the name written through, so the watch misses it.
   */
  private void writeATxtThroughALinkFromOutside() throws IOException {
    Path elsewhere = workspace.base().resolve("elsewhere.txt");
    Files.createLink(elsewhere, workspace.resolve("a.txt"));
    Files.writeString(elsewhere, "two, written outside\n");
    Files.delete(elsewhere);
  }

  /** The watch status once {@code done} holds of it, asked every 100 ms for 30 seconds at most. */
  private WatchStatus awaited(Predicate<WatchStatus> done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      WatchStatus status = watched.watchStatus();
      if (done.test(status) || System.nanoTime() > deadline) {
        return status;
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aDirectorySwappedForASymlinkOutIsNeverWatchedOrFollowed() throws Exception {
    workspace.file("sub/a.txt", "a\n").file("sub/deep/b.txt", "b\n");
    track();
    Path outsideDir = workspace.outside().resolve("dir");
    sh(workspace.root(), "mv sub sub.old && ln -s " + outsideDir + " sub");
    assertSeen(
        Map.of(
            "sub", ChangeKind.ADDED,
            "sub/a.txt", ChangeKind.DELETED,
            "sub/deep/b.txt", ChangeKind.DELETED,
            "sub.old/a.txt", ChangeKind.ADDED,
            "sub.old/deep/b.txt", ChangeKind.ADDED));
    Set<Long> watchedInodes = InotifyWatches.inodesOfThisProcess();
    assertFalse(watchedInodes.isEmpty(), "the workspace's directories are watched");
    for (Path outside : List.of(workspace.outside(), outsideDir, workspace.base())) {
      long inode = (Long) Files.getAttribute(outside, "unix:ino");
      assertFalse(watchedInodes.contains(inode), outside + " is never watched");
    }
    Set<Long> inside = new HashSet<>();
    try (Stream<Path> walk = Files.walk(workspace.root())) {
      for (Path dir : (Iterable<Path>) walk.filter(Files::isDirectory)::iterator) {
        inside.add((Long) Files.getAttribute(dir, "unix:ino"));
      }
    }
    assertTrue(
        inside.containsAll(
            watchedInodes.stream().filter(inode -> !cookieInodes().contains(inode)).toList()),
        "every watched directory but the cookies' is inside the workspace");
  }

  private static Set<Long> cookieInodes() {
    Set<Long> inodes = new HashSet<>();
    try (Stream<Path> list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      for (Path dir :
          (Iterable<Path>)
              list.filter(path -> path.getFileName().toString().startsWith("turndiff-watch-"))
                  ::iterator) {
        inodes.add((Long) Files.getAttribute(dir, "unix:ino"));
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return inodes;
  }
}
