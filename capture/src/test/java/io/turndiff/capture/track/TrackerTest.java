package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tracked workspaces over a real store and real files; every test checks the canary. */
class TrackerTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private Tracker tracker;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    tracker = capture.tracker();
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
    store.localFile().ifPresent(workspace.canary()::assertNotInStoreFiles);
  }

  private Map<String, ChangeKind> status() {
    return tracker.status(workspace.root()).changes().stream()
        .collect(Collectors.toMap(change -> change.path().display(), PathChange::kind));
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

  @Test
  void trackingIndexesEveryPathThatIsNotIgnored() throws Exception {
    workspace.file("src/a.txt", "a\n").file("README.md", "r\n").file(".git/HEAD", "ref\n");
    workspace.symlink("link", "src/a.txt");
    TrackSummary summary = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(3, summary.files(), "src/a.txt, README.md and the link; .git is always ignored");
    assertFalse(summary.partial());
    assertEquals(Map.of(), status(), "nothing changed since the index");
  }

  @Test
  void statusSeesEditsCreationsDeletionsModesAndLinksMadeByTheShell() throws Exception {
    workspace.file("a.txt", "one\ntwo\n").file("b.txt", "b\n").file("run.sh", "echo\n");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    sh(
        workspace.root(),
        "sed -i s/two/TWO/ a.txt && mv b.txt c.txt && chmod +x run.sh && ln -s a.txt alias && "
            + "rm -f nothing");
    assertEquals(
        Map.of(
            "a.txt",
            ChangeKind.MODIFIED,
            "b.txt",
            ChangeKind.DELETED,
            "c.txt",
            ChangeKind.ADDED,
            "run.sh",
            ChangeKind.MODIFIED,
            "alias",
            ChangeKind.ADDED),
        status());
  }

  @Test
  void anUnchangedTreeIsScannedWithoutReadingAnyFile() throws Exception {
    for (int i = 0; i < 50; i++) {
      workspace.file("d" + (i % 5) + "/f" + i + ".txt", "content " + i + "\n");
    }
    // files written long before the index are not racy: make them old
    try (var walk = Files.walk(workspace.root())) {
      for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
      }
    }
    TrackSummary built = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(50, built.contentRead(), "the first index reads every file once");
    workspace.file("d1/f1.txt", "changed\n");
    TrackSummary again = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(1, again.contentRead(), "only the file whose stat moved is read again");
  }

  @Test
  void aSameSizeRewriteInsideOneTimestampTickIsDetected() throws Exception {
    Path file = workspace.resolve("racy.txt");
    boolean sameTick = false;
    for (int attempt = 0; attempt < 50 && !sameTick; attempt++) {
      Files.writeString(file, "AAAA" + attempt % 10 + "\n");
      Map<String, Object> before =
          Files.readAttributes(file, "unix:lastModifiedTime,ctime,size,ino");
      tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
      Files.writeString(file, "BBBB" + attempt % 10 + "\n");
      Map<String, Object> after =
          Files.readAttributes(file, "unix:lastModifiedTime,ctime,size,ino");
      sameTick = before.equals(after);
      assertEquals(
          Map.of("racy.txt", ChangeKind.MODIFIED),
          status(),
          "the rewrite is seen "
              + (sameTick ? "(same stat: only the racy rule can see it)" : "(its stat moved)"));
    }
    System.out.println(
        "a rewrite with an identical stat (same timestamp tick) was produced: " + sameTick);
    // the stat of a rewrite inside one tick cannot be told apart; force it for certain, as a coarse
    // clock would
    Files.writeString(file, "CCCC0\n");
    FileTime mtime = Files.getLastModifiedTime(file);
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    Files.writeString(file, "DDDD0\n");
    Files.setLastModifiedTime(file, mtime);
    assertEquals(
        Map.of("racy.txt", ChangeKind.MODIFIED),
        status(),
        "a file modified within the racy window is " + "read again whatever its stat says");
  }

  /**
   * What the racy rule is for, made certain: the index holds content A with exactly the stat the
   * file has now (as after a same-size rewrite inside one timestamp tick), and the file holds B.
   * Within the racy window of the index's time the file is read again and the change is seen; long
   * after it, the stat is trusted and the change cannot be seen. (The index is edited through the
   * store to hold A.)
   */
  @Test
  void theRacyRuleReadsAFileWhoseStatCannotProveItUnchanged() throws Exception {
    workspace.file("racy.txt", "BBBB\n");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    String root = workspace.root().toRealPath().toString();
    long workspaceId = store.read(tx -> tx.workspaces().byRealRoot(root).orElseThrow().id());
    IndexEntry indexed =
        store.read(tx -> tx.indexes().entries(workspaceId)).get(WorkspacePath.of("racy.txt"));
    Sha256 contentA = store.write(tx -> tx.blobs().put("AAAA\n".getBytes(StandardCharsets.UTF_8)));
    IndexEntry holdingA =
        new IndexEntry(
            indexed.path(),
            indexed.stat(),
            Optional.empty(),
            Optional.of(contentA),
            Optional.of(contentA),
            Optional.empty());
    long mtime = indexed.stat().mtimeNanos();
    for (long indexedAt : new long[] {mtime + 1_000_000, mtime + 3_600_000_000_000L}) {
      store.write(
          tx -> {
            tx.indexes()
                .write(
                    workspaceId,
                    indexedAt,
                    false,
                    1000,
                    1 << 20,
                    List.of(holdingA),
                    List.of(),
                    Optional.of(List.of()));
            return null;
          });
      boolean racy = indexedAt - mtime < StatProof.RACY_WINDOW_NANOS;
      assertEquals(
          racy ? Map.of("racy.txt", ChangeKind.MODIFIED) : Map.of(),
          status(),
          racy
              ? "within the racy window the file is read again"
              : "long after, the stat is trusted");
    }
  }

  @Test
  void gitignoreRulesAreHonouredWithNegationsAndNestedFiles() throws Exception {
    workspace
        .file(".gitignore", "*.log\n!keep.log\nbuild/\n")
        .file("x.log", "x\n")
        .file("keep.log", "k\n")
        .file("build/out.o", "o\n")
        .file("sub/.gitignore", "*.tmp\n!*.log\n")
        .file("sub/a.tmp", "t\n")
        .file("sub/b.log", "b\n")
        .file("sub/c.txt", "c\n")
        .file(".turndiffignore", "secret-*\n")
        .file("secret-notes.txt", "s\n");
    // the rules alone: ignored files not indexed (IgnoredFilesTest has them indexed)
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS.withIgnoredFiles(IgnoredFiles.NONE));
    sh(
        workspace.root(),
        "echo y >> x.log; echo y >> build/out.o; echo y >> sub/a.tmp; echo y >> keep.log; "
            + "echo y >> sub/b.log; echo y >> secret-notes.txt; echo y >> sub/c.txt");
    assertEquals(
        Map.of(
            "keep.log",
            ChangeKind.MODIFIED,
            "sub/b.log",
            ChangeKind.MODIFIED,
            "sub/c.txt",
            ChangeKind.MODIFIED),
        status());
  }

  /**
   * Makes {@code dir} a git work tree whose first commit holds everything not ignored plus {@code
   * forced}.
   */
  private static void commit(Path dir, String... forced) throws Exception {
    sh(
        dir,
        "git init -q && git add . && git add -f "
            + String.join(" ", forced)
            + " && git -c user.name=t -c user.email=t@example.com commit -qm first");
  }

  @Test
  void aCommittedFileThatGitignoreMatchesIsTrackedAsGitTracksIt() throws Exception {
    assumeTrue(Portability.current().readsProc(), "the posix mode reads no git index");
    // Homebrew's bin/brew: committed, and matched by /bin in .gitignore
    workspace
        .file(".gitignore", "/bin\n")
        .file("bin/brew", "#!/bin/sh\necho brew\n")
        .file("bin/cache.log", "cache\n")
        .file("bin/tmp/scratch.txt", "s\n")
        .file("README.md", "r\n");
    commit(workspace.root(), "bin/brew");
    TrackSummary summary = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(3, summary.files(), ".gitignore, README.md and the committed bin/brew");
    sh(
        workspace.root(),
        "sed -i s/brew/BREW/ bin/brew && echo more >> bin/cache.log && echo s >> bin/tmp/scratch.txt");
    assertEquals(
        Map.of("bin/brew", ChangeKind.MODIFIED),
        status(),
        "the committed file is seen; untracked files in the ignored folder stay ignored");

    // git's index is read again when it changes: a file added to it is tracked from then on
    sh(workspace.root(), "echo new > bin/new && git add -f bin/new");
    assertEquals(Map.of("bin/brew", ChangeKind.MODIFIED, "bin/new", ChangeKind.ADDED), status());
    sh(workspace.root(), "git rm -q --cached bin/new");
    assertEquals(
        Map.of("bin/brew", ChangeKind.MODIFIED), status(), "and untracked again when it leaves it");
    // a file git stops tracking and deletes (git rm) is seen gone: turndiff's index still holds it
    sh(workspace.root(), "git rm -q -f bin/brew");
    assertEquals(Map.of("bin/brew", ChangeKind.DELETED), status());
  }

  @Test
  void aWorkTreeInsideTheWorkspaceOrWithItsGitDirectoryElsewhereInsideIsReadToo() throws Exception {
    assumeTrue(Portability.current().readsProc(), "the posix mode reads no git index");
    // a repository in a subdirectory, and one whose .git is a file naming its git directory (a
    // worktree, a submodule), relative and absolute, both inside the workspace
    workspace
        .file("vendor/lib/.gitignore", "build/\n")
        .file("vendor/lib/build/keep.txt", "keep\n")
        .file("vendor/lib/build/out.o", "o\n")
        .file("mod/.gitignore", "gen/\n")
        .file("mod/gen/table.c", "t\n")
        .file("abs/.gitignore", "gen/\n")
        .file("abs/gen/table.c", "t\n")
        .file(".gitignore", "/.modules/\n");
    commit(workspace.resolve("vendor/lib"), "build/keep.txt");
    commit(workspace.resolve("mod"), "gen/table.c");
    sh(
        workspace.root(),
        "mkdir .modules && mv mod/.git .modules/mod && echo 'gitdir: ../.modules/mod' > mod/.git"
            + " && git -C mod status --short >/dev/null");
    commit(workspace.resolve("abs"), "gen/table.c");
    sh(
        workspace.root(),
        "mv abs/.git .modules/abs && echo \"gitdir: $PWD/.modules/abs\" > abs/.git");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    sh(
        workspace.root(),
        "echo x >> vendor/lib/build/keep.txt && echo x >> vendor/lib/build/out.o"
            + " && echo x >> mod/gen/table.c && echo x >> abs/gen/table.c");
    assertEquals(
        Map.of(
            "vendor/lib/build/keep.txt",
            ChangeKind.MODIFIED,
            "mod/gen/table.c",
            ChangeKind.MODIFIED,
            "abs/gen/table.c",
            ChangeKind.MODIFIED),
        status());
  }

  @ParameterizedTest(name = "fallback boundary: {0}")
  @ValueSource(booleans = {false, true})
  void aGitIndexOutsideTheWorkspaceIsNeverRead(boolean fallback) throws Exception {
    if (fallback) {
      assumeTrue(
          Portability.current().allows(BoundaryOptions.Mechanism.SECURE_DIRECTORY_STREAM),
          "the posix mode holds roots with openat only");
      capture.close();
      capture = new CaptureService(store, BoundaryOptions.builder().forceFallback(true).build());
      tracker = capture.tracker();
    }
    // a repository outside whose index tracks bin/brew: were it read, bin/brew would be tracked
    Path outsideRepository = workspace.outside().resolve("repo");
    Files.createDirectories(outsideRepository.resolve("bin"));
    Files.writeString(outsideRepository.resolve(".gitignore"), "/bin\n");
    Files.writeString(outsideRepository.resolve("bin/brew"), "outside\n");
    commit(outsideRepository, "bin/brew");
    Path outsideGit = outsideRepository.resolve(".git");
    workspace.file(".gitignore", "/bin\n").file("bin/brew", "inside\n").refreshOutsidePicture();
    Map<String, String> ways = new LinkedHashMap<>();
    ways.put("a .git symlinked out", "ln -s '" + outsideGit + "' .git");
    ways.put(
        "a .git file naming a git directory outside", "echo 'gitdir: " + outsideGit + "' > .git");
    ways.put("a .git file climbing out with ..", "echo 'gitdir: ../outside/repo/.git' > .git");
    ways.put(
        "a .git file naming a symlink out",
        "ln -s '" + outsideGit + "' gitdir-link && " + "echo 'gitdir: gitdir-link' > .git");
    ways.put(
        "an index symlinked out",
        "mkdir .git && ln -s '" + outsideGit.resolve("index") + "' .git/index");
    for (Map.Entry<String, String> way : ways.entrySet()) {
      sh(workspace.root(), "rm -rf .git gitdir-link && " + way.getValue());
      tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
      sh(workspace.root(), "echo edited >> bin/brew");
      assertEquals(
          Map.of(),
          status().entrySet().stream()
              .filter(e -> e.getKey().startsWith("bin"))
              .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
          way.getKey() + ": git's index is not read, the ignore rules alone decide");
    }
    // the same index copied inside is read: the cases above differ only in where it is (the posix
    // mode reads none: what is above is all it shows)
    assumeTrue(Portability.current().readsProc(), "the posix mode reads no git index");
    sh(workspace.root(), "rm -rf .git gitdir-link && cp -r '" + outsideGit + "' .git");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    sh(workspace.root(), "echo edited >> bin/brew");
    assertEquals(ChangeKind.MODIFIED, status().get("bin/brew"), "an index inside is read");
    // a hardlink to the outside index is never read (it raises the outside link count: a new
    // picture)
    sh(
        workspace.root(),
        "rm -rf .git && mkdir .git && ln '" + outsideGit.resolve("index") + "' .git/index");
    workspace.refreshOutsidePicture();
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    sh(workspace.root(), "echo edited >> bin/brew");
    assertTrue(
        status().keySet().stream().noneMatch(path -> path.startsWith("bin")), "a hardlinked index");
  }

  @Test
  void aFifoOrAnUnreadableFileInAnIgnoredFolderIsNeverOpened() throws Exception {
    workspace.file(".gitignore", "ignored/\n").fifo("ignored/pipe").file("a.txt", "a\n");
    Canary ignoredContent = Canary.of("ignored content 5b0e61c2a8\n");
    workspace.file("ignored/key.pem", ignoredContent.text());
    Files.setPosixFilePermissions(workspace.resolve("ignored/key.pem"), Set.of());
    workspace.fifo("tracked-pipe");
    TrackSummary summary =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20),
            () -> tracker.track(workspace.root(), TrackingOptions.DEFAULTS));
    assertEquals(3, summary.files(), ".gitignore, a.txt and the tracked FIFO (metadata only)");
    assertEquals(Map.of(), assertTimeoutPreemptively(Duration.ofSeconds(20), this::status));
    ignoredContent.assertNotInStore(store);
  }

  @Test
  void aSymlinkedDirectoryToTheOutsideIsNeverWalked() throws Exception {
    workspace.file("a.txt", "a\n");
    workspace.symlink("vendor", workspace.outside().resolve("dir").toString());
    workspace.hardlink("hard.txt", workspace.secret()).refreshOutsidePicture();
    TrackSummary summary = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(3, summary.files(), "a.txt, the link itself, the hardlink (metadata only)");
    String root = workspace.root().toRealPath().toString();
    Map<String, Long> reasons =
        store
            .read(tx -> tx.indexes().entries(tx.workspaces().byRealRoot(root).orElseThrow().id()))
            .values()
            .stream()
            .collect(
                Collectors.toMap(
                    entry -> entry.path().display(),
                    entry -> entry.reason().map(Reason::ordinal).map(Long::valueOf).orElse(-1L)));
    assertEquals(Reason.HARDLINKED.ordinal(), reasons.get("hard.txt"));
    assertEquals(
        -1L,
        reasons.get("vendor"),
        "a link to a directory outside is indexed as the link, with its text (restorable), never walked");
  }

  @Test
  void aBindMountInsideIsNotEntered() throws Exception {
    assumeTrue(TestWorkspace.isRoot(), "a bind mount needs root");
    workspace.file("a.txt", "a\n").directory("mnt");
    Path mountPoint = workspace.resolve("mnt");
    Process mount =
        new ProcessBuilder(
                "mount",
                "--bind",
                workspace.outside().resolve("dir").toString(),
                mountPoint.toString())
            .redirectErrorStream(true)
            .start();
    assumeTrue(mount.waitFor() == 0, "mount --bind is not permitted here");
    try {
      TrackSummary summary = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
      assertEquals(2, summary.files(), "a.txt and the mount point (metadata only)");
    } finally {
      TestWorkspace.run("umount", mountPoint.toString());
    }
  }

  @Test
  void budgetsLeaveSubtreesOutAndSaySo() throws Exception {
    for (int i = 0; i < 10; i++) {
      workspace.file("a/f" + i + ".txt", "a\n").file("b/f" + i + ".txt", "b\n");
    }
    TrackSummary summary = tracker.track(workspace.root(), new TrackingOptions(12, 1 << 20));
    assertTrue(summary.partial());
    assertEquals(12, summary.files());
    assertEquals(List.of(WorkspacePath.of("b")), summary.leftOut());
    workspace.file("b/f9.txt", "changed in a left-out subtree\n");
    assertEquals(Map.of(), status(), "a left-out subtree is not seen");
    assertTrue(tracker.status(workspace.root()).partial());
  }

  @Test
  void aTurnRecordsShellChangesOnceEachWithTheRightBeforeState() throws Exception {
    workspace
        .file("announced.txt", "announced before\n")
        .file("shell.txt", "shell before\n")
        .file("both.txt", "both before\n");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    // an edit between turns: the next turn's before-state includes it
    Files.writeString(workspace.resolve("shell.txt"), "edited by the user between turns\n");
    String turn = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    capture.snapshot(turn, Optional.of("edit"), List.of("announced.txt", "both.txt"));
    sh(
        workspace.root(),
        "echo agent > announced.txt; sed -i s/user/agent/ shell.txt; echo agent > both.txt; "
            + "echo created > fresh.txt");
    capture.finishTurn(turn);
    List<StoredFileChange> changes = RecordedChanges.of(store, turn);
    Map<String, DetectedBy> detected =
        changes.stream()
            .collect(
                Collectors.toMap(change -> change.path().display(), StoredFileChange::detectedBy));
    assertEquals(
        Map.of(
            "announced.txt",
            DetectedBy.SNAPSHOT,
            "both.txt",
            DetectedBy.SNAPSHOT,
            "shell.txt",
            DetectedBy.SCAN,
            "fresh.txt",
            DetectedBy.SCAN),
        detected,
        "each path recorded once");
    assertEquals(Map.of(), status(), "the finished turn's after-state is the index now");
  }

  @Test
  void twoTurnsFinishingAtOnceRecordEachShellChangeInBothAsShared() throws Exception {
    int files = 40;
    for (int i = 0; i < files; i++) {
      workspace.file("f" + i + ".txt", "before " + i + "\n");
    }
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    List<String> turns =
        List.of(
            capture.beginTurn(workspace.root(), Optional.of("one"), Optional.empty()).turn(),
            capture.beginTurn(workspace.root(), Optional.of("two"), Optional.empty()).turn());
    sh(workspace.root(), "for i in $(seq 0 " + (files - 1) + "); do echo after $i > f$i.txt; done");
    CyclicBarrier start = new CyclicBarrier(turns.size());
    List<Thread> finishers =
        turns.stream()
            .map(
                turn ->
                    Thread.ofPlatform()
                        .start(
                            () -> {
                              try {
                                start.await();
                              } catch (Exception e) {
                                throw new IllegalStateException(e);
                              }
                              capture.finishTurn(turn);
                            }))
            .toList();
    for (Thread finisher : finishers) {
      finisher.join();
    }
    Map<String, Long> recorded =
        turns.stream()
            .flatMap(turn -> RecordedChanges.of(store, turn).stream())
            .collect(
                Collectors.groupingBy(change -> change.path().display(), Collectors.counting()));
    assertEquals(files, recorded.size(), "every shell change is recorded");
    // both turns were open while the shell ran: either could have made each change (issue 27)
    assertTrue(
        recorded.values().stream().allMatch(count -> count == 2),
        "each in both turns: " + recorded);
    for (int i = 0; i < turns.size(); i++) {
      String other = turns.get(1 - i);
      String session = i == 0 ? "two" : "one";
      assertTrue(
          RecordedChanges.alsoPossible(store, turns.get(i)).values().stream()
              .allMatch(also -> also.equals(List.of("turn " + other + " of session " + session))),
          "each record names the other turn");
    }
    assertEquals(Map.of(), status(), "the index holds the tree as it is now");
  }

  private TrackSummary track(IgnoredFiles kept) {
    return tracker.track(workspace.root(), TrackingOptions.DEFAULTS.withIgnoredFiles(kept));
  }

  private Map<String, IndexEntry> index() throws Exception {
    String root = workspace.root().toRealPath().toString();
    long id = store.read(tx -> tx.workspaces().byRealRoot(root)).orElseThrow().id();
    return store.read(tx -> tx.indexes().entries(id)).values().stream()
        .collect(Collectors.toMap(entry -> entry.path().display(), entry -> entry));
  }

  // ---- files git ignores (issue 24 item 2): indexed under a size cap as the workspace's
  // IgnoredFiles says; a directory git ignores as a whole is never entered

  @Test
  void ignoredFilesInWalkedDirectoriesAreIndexedAndIgnoredDirectoriesAreNotWalked()
      throws Exception {
    workspace
        .file(".gitignore", "*.log\n!keep.log\nbuild/\n")
        .file("x.log", "x\n")
        .file("keep.log", "k\n")
        .file("build/out.o", "o\n")
        .file("sub/.gitignore", "*.tmp\n")
        .file("sub/a.tmp", "t\n")
        .file(".turndiffignore", "secret-*\n")
        .file("secret-notes.txt", "s\n")
        .symlink("out.log", workspace.secret().toString());
    TrackSummary summary = track(IgnoredFiles.SMALL);
    assertEquals(
        List.of(
            ".gitignore",
            ".turndiffignore",
            "keep.log",
            "out.log",
            "sub/.gitignore",
            "sub/a.tmp",
            "x.log"),
        index().keySet().stream().sorted().toList(),
        "build/ (ignored as a whole) is not walked, .turndiffignore wins");
    assertEquals(3, summary.ignoredFiles().indexed(), "x.log, sub/a.tmp and the link out.log");
    assertEquals(7, summary.files(), "the budget counts them");
    assertTrue(index().get("out.log").linkTarget().isPresent(), "a link, never followed");
    sh(
        workspace.root(),
        "echo y >> x.log; echo y >> build/out.o; echo y >> sub/a.tmp; echo y >> secret-notes.txt");
    assertEquals(Map.of("x.log", ChangeKind.MODIFIED, "sub/a.tmp", ChangeKind.MODIFIED), status());
  }

  @Test
  void anIgnoredFileOverTheCapIsNotIndexedAndStatusSaysSo() throws Exception {
    byte[] big = new byte[6 << 20];
    workspace.file(".gitignore", "*.bin\n").file("big.bin", big).file("small.bin", "s\n");
    TrackSummary summary = track(IgnoredFiles.SMALL);
    assertEquals(Map.of(), status());
    assertEquals(List.of(".gitignore", "small.bin"), index().keySet().stream().sorted().toList());
    assertEquals(
        List.of(WorkspacePath.of("big.bin")), summary.ignoredFiles().overCap(), "track says so");
    WorkspaceStatus status = tracker.status(workspace.root());
    assertEquals(List.of(WorkspacePath.of("big.bin")), status.ignoredFiles().overCap());
    assertEquals(IgnoredFiles.SMALL, status.ignoredFiles().kept());
    assertEquals(TrackingOptions.IGNORED_MAX_BYTES, status.ignoredFiles().maxBytes());
    Files.delete(workspace.resolve("big.bin"));
    assertEquals(Map.of(), status(), "never indexed: its deletion is not a change");
  }

  @Test
  void noneLeavesIgnoredFilesOutAndTheSettingIsKeptByTheWorkspace() throws Exception {
    workspace.file(".gitignore", ".env\n").file(".env", "KEY=1\n").file("a.txt", "a\n");
    track(IgnoredFiles.NONE);
    assertFalse(index().containsKey(".env"));
    assertEquals(IgnoredFiles.NONE, tracker.status(workspace.root()).ignoredFiles().kept());
    track(IgnoredFiles.SMALL);
    assertTrue(index().get(".env").storedContent().isPresent(), index().toString());
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(
        IgnoredFiles.SMALL,
        tracker.status(workspace.root()).ignoredFiles().kept(),
        "tracking again without the option keeps what the workspace kept");
  }

  @Test
  void metadataKeepsTheStatAndHashOfAnIgnoredFileAndNeverItsBytes() throws Exception {
    Canary secret = Canary.of("OPENAI_API_KEY=sk-not-stored-7f3a91c2\n");
    workspace.file(".gitignore", ".env\n").file(".env", secret.text());
    track(IgnoredFiles.METADATA);
    IndexEntry env = index().get(".env");
    assertEquals(Optional.of(Reason.IGNORED_NOT_STORED), env.reason(), env.toString());
    assertTrue(env.sha256().isPresent(), "hashed, so that a change is seen");
    assertTrue(env.storedContent().isEmpty());
    secret.assertNotInStore(store);
    Files.writeString(workspace.resolve(".env"), secret.text().replace('7', '8'));
    assertEquals(Map.of(".env", ChangeKind.MODIFIED), status());
    track(IgnoredFiles.SMALL);
    assertTrue(
        index().get(".env").storedContent().isPresent(),
        "enabled for the store: its content is stored at the next track");
  }

  @Test
  void theDefaultIsSmallInALocalStoreAndMetadataInASharedOne() throws Exception {
    workspace.file(".gitignore", ".env\n").file(".env", "KEY=1\n");
    TrackSummary summary = tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    IgnoredFiles expected = TestStore.onPostgres() ? IgnoredFiles.METADATA : IgnoredFiles.SMALL;
    assertEquals(expected, summary.ignoredFiles().kept());
    assertEquals(expected == IgnoredFiles.SMALL, index().get(".env").storedContent().isPresent());
  }

  /** Per path recorded in {@code turn}, whether its record says git ignores the file. */
  private Map<String, Boolean> ignoredByGit(String turn) {
    return RecordedChanges.of(store, turn).stream()
        .collect(
            Collectors.toMap(change -> change.path().display(), StoredFileChange::ignoredByGit));
  }

  @Test
  void aChangeTheScanFindsAtAFileGitIgnoresIsMarkedSoInEveryRecordOfIt() throws Exception {
    workspace.file(".gitignore", ".env\n").file(".env", "KEY=1\n").file("a.txt", "a\n");
    track(IgnoredFiles.SMALL);
    String beside =
        capture.beginTurn(workspace.root(), Optional.of("beside"), Optional.empty()).turn();
    String turn = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    sh(workspace.root(), "echo KEY=2 > .env; echo b >> a.txt");
    capture.finishTurn(turn);
    assertEquals(Map.of(".env", true, "a.txt", false), ignoredByGit(turn), "the finishing turn");
    assertEquals(
        Map.of(".env", true, "a.txt", false),
        ignoredByGit(beside),
        "the records of the other turn open while the shell ran");
    capture.finishTurn(beside);

    // between turns the .env is deleted: the walk never hears a deleted file, and it is judged
    sh(workspace.root(), "rm .env");
    String next = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    StoredTurn outside = turnsOf("s").get(1);
    assertEquals(TurnKind.OUTSIDE, outside.kind());
    assertEquals(Map.of(".env", true), ignoredByGit(outside.externalId()), "a deletion");
    capture.finishTurn(next);
  }

  /**
   * A record a tool call's snapshot began (the agent's Write named the file) is marked as the
   * scan's are: a {@code .env} a {@code .gitignore} rule ignores, a file in a directory git ignores
   * as a whole (a scan never enters it), a file git tracks although a rule matches it (git's index
   * wins), and not a file {@code .turndiffignore} alone names (turndiff's rule, not git's).
   */
  @ParameterizedTest
  @ValueSource(strings = {"small", "none"})
  void aRecordAToolsSnapshotBeganAtAFileGitIgnoresIsMarkedToo(String kept) throws Exception {
    assumeTrue(Portability.current().readsProc(), "the posix mode reads no git index");
    workspace
        .file(".gitignore", ".env\nbuild/\nforced.log\n*.log\n")
        .file(".env", "KEY=1\n")
        .file("build/out/app.js", "x\n")
        .file("forced.log", "tracked\n")
        .file("sub/.turndiffignore", "notes.txt\n")
        .file("sub/notes.txt", "n\n")
        .file("sub/a.txt", "a\n");
    commit(workspace.root(), "forced.log");
    track(kept.equals("small") ? IgnoredFiles.SMALL : IgnoredFiles.NONE);
    String turn = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    List<String> named =
        List.of(".env", "build/out/app.js", "forced.log", "sub/notes.txt", "sub/a.txt");
    capture.snapshot(turn, Optional.of("write"), named);
    for (String path : named) {
      Files.writeString(workspace.resolve(path), "written by the tool\n");
    }
    capture.finishTurn(turn);
    assertEquals(
        Map.of(
            ".env", true,
            "build/out/app.js", true,
            "forced.log", false,
            "sub/notes.txt", false,
            "sub/a.txt", false),
        ignoredByGit(turn));
  }

  // ---- changes no turn made: a turn outside any turn (issue 22 item 6)

  /** A turn of {@code session} in which a shell writes {@code text} to {@code file} unannounced. */
  private String turnWriting(String session, String file, String text) throws Exception {
    String turn =
        capture.beginTurn(workspace.root(), Optional.of(session), Optional.empty()).turn();
    Files.writeString(workspace.resolve(file), text);
    capture.finishTurn(turn);
    return turn;
  }

  private List<StoredTurn> turnsOf(String session) {
    return store.read(
        tx ->
            tx.turns().ofSession(tx.sessions().byExternalId(session).orElseThrow().id()).stream()
                .toList());
  }

  private byte[] content(Snapshot snapshot) {
    return store.read(tx -> tx.blobs().require(snapshot.sha256().orElseThrow()));
  }

  @Test
  void editsBetweenTurnsAreATurnOutsideAnyTurnBeforeTheNextOne() throws Exception {
    workspace.file("edited.txt", "one\ntwo\n").file("gone.txt", "gone\n").file("kept.txt", "k\n");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    String first = turnWriting("s", "agent.txt", "agent\n");
    // the user, between turns: an edit, a new file and a deletion
    Files.writeString(workspace.resolve("edited.txt"), "one\nTWO by the user\n");
    Files.writeString(workspace.resolve("new.txt"), "the user's new file\n");
    Files.delete(workspace.resolve("gone.txt"));
    BeganTurn second = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty());
    Files.writeString(workspace.resolve("agent.txt"), "agent\nmore\n");
    capture.finishTurn(second.turn());

    List<StoredTurn> turns = turnsOf("s");
    assertEquals(
        List.of(TurnKind.AGENT, TurnKind.OUTSIDE, TurnKind.AGENT),
        turns.stream().map(StoredTurn::kind).toList(),
        "the outside turn is numbered just before the turn whose begin found it");
    assertEquals(List.of(1L, 2L, 3L), turns.stream().map(StoredTurn::seq).toList());
    assertEquals(3, second.seq(), "the beginning turn takes the number after it");
    StoredTurn outside = turns.get(1);
    assertEquals(TurnState.FINISHED, outside.state(), "recorded finished");
    assertEquals(first, turns.get(0).externalId());
    assertEquals(
        Map.of(
            "edited.txt", "modified scan []",
            "new.txt", "added scan []",
            "gone.txt", "deleted scan []"),
        RecordedChanges.summary(store, outside.externalId()),
        "exactly the user's changes");
    Map<String, StoredFileChange> byPath = new TreeMap<>();
    RecordedChanges.of(store, outside.externalId())
        .forEach(change -> byPath.put(change.path().display(), change));
    assertArrayEquals(
        utf8("one\ntwo\n"),
        content(byPath.get("edited.txt").before()),
        "the before-state is the index's baseline, byte for byte");
    assertArrayEquals(
        utf8("one\nTWO by the user\n"), content(byPath.get("edited.txt").after().orElseThrow()));
    assertArrayEquals(utf8("gone\n"), content(byPath.get("gone.txt").before()));
    assertArrayEquals(
        utf8("the user's new file\n"), content(byPath.get("new.txt").after().orElseThrow()));
    assertEquals(
        Map.of("agent.txt", "modified scan []"),
        RecordedChanges.summary(store, second.turn()),
        "the next agent turn holds only its own change");
  }

  @Test
  void noChangeBetweenTurnsMakesNoOutsideTurn() throws Exception {
    workspace.file("a.txt", "a\n");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    turnWriting("s", "a.txt", "one\n");
    turnWriting("s", "a.txt", "two\n");
    assertEquals(
        List.of(TurnKind.AGENT, TurnKind.AGENT),
        turnsOf("s").stream().map(StoredTurn::kind).toList());
  }

  @Test
  void aChangeAnOpenTurnCouldHaveMadeIsThatTurnsNotOutside() throws Exception {
    workspace.file("a.txt", "a\n");
    tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
    String open = capture.beginTurn(workspace.root(), Optional.of("one"), Optional.empty()).turn();
    Files.writeString(workspace.resolve("a.txt"), "changed while a turn was open\n");
    String other = turnWriting("two", "b.txt", "b\n");
    capture.finishTurn(open);
    assertEquals(List.of(TurnKind.AGENT), turnsOf("two").stream().map(StoredTurn::kind).toList());
    assertEquals(
        Map.of("b.txt", "added scan []"),
        RecordedChanges.summary(store, other),
        "made while both turns were open: either could have");
    assertEquals(
        Map.of("a.txt", "modified scan []", "b.txt", "added scan []"),
        RecordedChanges.summary(store, open),
        "the edit found at the other's begin is the open turn's");
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
