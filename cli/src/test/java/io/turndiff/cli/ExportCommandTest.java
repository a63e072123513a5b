package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.BigFiles;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff export} against a real git repository: the commit lands on its branch with the
 * right tree and parent (read back with git itself: log, show, ls-tree, fsck), the index, the work
 * tree and HEAD stay as they were (git status, the index's bytes), a patch series applies with
 * {@code git am} in a fresh clone, and a {@code .git} that leads out of the workspace is refused
 * with nothing written outside (the canary).
 */
class ExportCommandTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private StoreCommandRuns commands;

  @BeforeEach
  void repository() throws Exception {
    workspace =
        TestWorkspace.in(temp)
            .file("a.txt", "a1\n")
            .file("src/b.txt", "b1\n")
            .file("src/keep.txt", "keep\n");
    database = TestStore.fileIn(temp);
    commands = new StoreCommandRuns(database);
    git(workspace.root(), "init", "-q", "-b", "main");
    git(workspace.root(), "config", "user.name", "Ada Lovelace");
    git(workspace.root(), "config", "user.email", "ada@example.com");
    git(workspace.root(), "add", "-A");
    git(workspace.root(), "commit", "-q", "-m", "base");
    // the base's objects in a pack, as after a clone: the export reads them there
    git(workspace.root(), "gc", "-q");
    workspace.refreshOutsidePicture();
  }

  @AfterEach
  void canary() {
    commands.assertNothingLeaked(workspace);
  }

  private CommandRun turndiff(String... args) {
    return commands.run(args);
  }

  interface Edit {
    void run() throws Exception;
  }

  private String turn(List<String> paths, Edit edit) throws Exception {
    String turn = commands.beginTurn(workspace, "s1");
    List<String> snapshot = new ArrayList<>(List.of("snapshot", "--turn", turn));
    snapshot.addAll(paths);
    turndiff(snapshot.toArray(String[]::new)).expect(0);
    edit.run();
    turndiff("turn", "finish", "--turn", turn).expect(0);
    return turn;
  }

  /**
   * Two turns: a.txt edited twice, src/b.txt deleted, run.sh added executable, src/new.txt added.
   */
  private String[] twoTurns() throws Exception {
    String first =
        turn(
            List.of("a.txt", "src/b.txt", "run.sh"),
            () -> {
              Files.writeString(workspace.resolve("a.txt"), "a2\n");
              Files.delete(workspace.resolve("src/b.txt"));
              Files.writeString(workspace.resolve("run.sh"), "#!/bin/sh\necho hi\n");
              Files.setPosixFilePermissions(
                  workspace.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
            });
    String second =
        turn(
            List.of("a.txt", "src/new.txt"),
            () -> {
              Files.writeString(workspace.resolve("a.txt"), "a3\n");
              Files.writeString(workspace.resolve("src/new.txt"), "new\n");
            });
    return new String[] {first, second};
  }

  @Test
  void aStretchOfTurnsBecomesOneCommitOnItsBranchAndTheIndexAndWorkTreeStayAsTheyWere()
      throws Exception {
    String[] turns = twoTurns();
    Path root = workspace.root();
    String status = git(root, "status", "--porcelain");
    byte[] index = Files.readAllBytes(root.resolve(".git/index"));
    String head = git(root, "rev-parse", "HEAD").strip();
    String workTree = tree(root);

    JsonNode exported =
        turndiff("export", "--turn", turns[0], "--to", turns[1], "--commit").expect(0).json();

    String branch = "turndiff/" + turns[0] + "-" + turns[1];
    assertEquals(branch, exported.get("branch").asText());
    assertEquals(head, exported.get("parent").asText());
    String commit = exported.get("commit").asText();
    assertEquals(commit, git(root, "rev-parse", branch).strip());
    assertEquals(head, git(root, "rev-parse", branch + "^").strip());
    assertTrue(
        git(root, "log", "-1", "--format=%s", branch).startsWith("turndiff: turns " + turns[0]));
    assertEquals(
        "Ada Lovelace <ada@example.com>\n", git(root, "log", "-1", "--format=%an <%ae>", branch));
    assertEquals(
        "100644 blob a.txt\n100755 blob run.sh\n100644 blob src/keep.txt\n100644 blob src/new.txt\n",
        git(root, "ls-tree", "-r", "--format=%(objectmode) %(objecttype) %(path)", branch));
    assertEquals("a3\n", git(root, "show", branch + ":a.txt"));
    assertEquals("#!/bin/sh\necho hi\n", git(root, "show", branch + ":run.sh"));
    assertEquals("new\n", git(root, "show", branch + ":src/new.txt"));
    git(root, "fsck", "--strict", "--no-dangling");

    // the user's index, work tree and HEAD: untouched
    assertEquals(status, git(root, "status", "--porcelain"));
    assertArrayEquals(index, Files.readAllBytes(root.resolve(".git/index")));
    assertEquals(head, git(root, "rev-parse", "HEAD").strip());
    assertEquals("main\n", git(root, "branch", "--show-current"));
    assertEquals(workTree, tree(root));

    // again onto the same branch: a commit on its tip
    JsonNode again =
        turndiff("export", "--turn", turns[1], "--commit", "--branch", branch).expect(0).json();
    assertEquals(commit, again.get("parent").asText());
    assertEquals(again.get("commit").asText(), git(root, "rev-parse", branch).strip());
    git(root, "fsck", "--strict", "--no-dangling");
  }

  /**
   * A file over 2 MiB is stored in chunks (against its before-state): the commit still carries its
   * whole after-state, byte for byte, as git hashes it.
   */
  @Test
  void aBigFileStoredInChunksIsCommittedWhole() throws Exception {
    Path lockfile = workspace.resolve("package-lock.json");
    BigFiles.writeLockfile(lockfile, 5L << 20);
    git(workspace.root(), "add", "package-lock.json");
    git(workspace.root(), "commit", "-q", "-m", "a lockfile");
    String edited = turn(List.of("package-lock.json"), () -> BigFiles.editTheMiddle(lockfile));

    String branch =
        turndiff("export", "--turn", edited, "--commit").expect(0).json().get("branch").asText();

    assertEquals(
        git(workspace.root(), "hash-object", "package-lock.json"),
        git(workspace.root(), "rev-parse", branch + ":package-lock.json"));
    git(workspace.root(), "fsck", "--strict", "--no-dangling");
  }

  @Test
  void aPatchSeriesAppliesWithGitAmInAFreshClone() throws Exception {
    String[] turns = twoTurns();
    Path clone = temp.resolve("clone");
    // a local clone hardlinks the pack by default, and a hardlinked pack is never read (below)
    git(temp, "clone", "-q", "--no-hardlinks", workspace.root().toString(), clone.toString());
    git(clone, "config", "user.name", "Reviewer");
    git(clone, "config", "user.email", "reviewer@example.com");
    Path series = Files.createDirectories(temp.resolve("series"));

    JsonNode written =
        turndiff("export", "--turn", turns[0], "--to", turns[1], "--patch", series.toString())
            .expect(0)
            .json();

    assertEquals(2, written.get("patches").size());
    // each mail, applied in turn, gives the tree the commit of the turns so far has
    String firstTree =
        turndiff("export", "--turn", turns[0], "--commit").expect(0).json().get("tree").asText();
    String bothTree =
        turndiff("export", "--turn", turns[0], "--to", turns[1], "--commit")
            .expect(0)
            .json()
            .get("tree")
            .asText();
    git(clone, "am", "-q", written.get("patches").get(0).asText());
    assertEquals(firstTree + "\n", git(clone, "rev-parse", "HEAD^{tree}"));
    git(clone, "am", "-q", written.get("patches").get(1).asText());
    assertEquals(bothTree + "\n", git(clone, "rev-parse", "HEAD^{tree}"));
    assertEquals("a3\n", Files.readString(clone.resolve("a.txt")));
    assertFalse(Files.exists(clone.resolve("src/b.txt")));
    assertEquals("new\n", Files.readString(clone.resolve("src/new.txt")));
    assertTrue(Files.isExecutable(clone.resolve("run.sh")));
    assertEquals("2\n", git(clone, "rev-list", "--count", "HEAD~2..HEAD"));
    assertTrue(git(clone, "log", "-1", "--format=%s").contains(turns[1]));

    // one mbox file, anywhere the user names; an existing name is never overwritten
    Path mbox = temp.resolve("outside-the-workspace.mbox");
    turndiff("export", "--turn", turns[0], "--to", turns[1], "--patch", mbox.toString()).expect(0);
    assertEquals(2, Files.readString(mbox).split("\nSubject: \\[PATCH ").length - 1);
    byte[] before = Files.readAllBytes(mbox);
    CommandRun again = turndiff("export", "--turn", turns[0], "--patch", mbox.toString()).expect(1);
    assertTrue(again.err().contains("exists"), again.err());
    assertArrayEquals(before, Files.readAllBytes(mbox));
  }

  @Test
  void aGitThatLeadsOutOfTheWorkspaceIsRefusedNamingItAndNothingOutsideIsWritten()
      throws Exception {
    String[] turns = twoTurns();
    Path root = workspace.root();
    // a local clone outside shares the pack's inode: a hardlink is refused, as every read's is
    git(temp, "clone", "-q", root.toString(), temp.resolve("linked-clone").toString());
    workspace.refreshOutsidePicture();
    CommandRun hardlinked = turndiff("export", "--turn", turns[0], "--commit").expect(1);
    assertTrue(
        hardlinked.err().contains(".git/objects/pack/pack-")
            && hardlinked.err().contains("has 2 links"),
        hardlinked.err());
    assertEquals("main\n", git(root, "for-each-ref", "--format=%(refname:short)"));

    // the workspace's repository moved outside, its .git a symlink to it
    Path outsideRepo = workspace.outside().resolve("repo.git");
    Files.move(root.resolve(".git"), outsideRepo);
    Files.createSymbolicLink(root.resolve(".git"), outsideRepo);
    workspace.refreshOutsidePicture();

    CommandRun link = turndiff("export", "--turn", turns[0], "--commit").expect(1);
    assertTrue(
        link.err().contains(root.toRealPath().resolve(".git") + " is a symlink"), link.err());

    // a gitdir file, as a linked worktree or a submodule has
    Files.delete(root.resolve(".git"));
    Files.writeString(root.resolve(".git"), "gitdir: " + outsideRepo + "\n");
    CommandRun gitdir = turndiff("export", "--turn", turns[0], "--commit").expect(1);
    assertTrue(gitdir.err().contains("is a gitdir file"), gitdir.err());

    // an objects directory inside .git that is a symlink out: never followed
    Files.delete(root.resolve(".git"));
    Files.createDirectories(root.resolve(".git/refs/heads"));
    Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
    Files.createSymbolicLink(root.resolve(".git/objects"), outsideRepo.resolve("objects"));
    CommandRun objects = turndiff("export", "--turn", turns[0], "--commit").expect(1);
    assertTrue(objects.err().contains(".git/objects"), objects.err());
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aPathWhoseLastStateWasNotCapturedIsLeftOutListedAndTheExitIs3() throws Exception {
    String turn =
        turn(
            List.of("a.txt", "pipe"),
            () -> {
              Files.writeString(workspace.resolve("a.txt"), "a2\n");
              workspace.fifo("pipe");
            });
    Path root = workspace.root();

    CommandRun run = turndiff("export", "--turn", turn, "--commit");

    assertEquals(3, run.exitCode(), run.err());
    JsonNode exported = run.json();
    assertEquals("[\"a.txt\"]", exported.get("paths").toString());
    assertEquals(1, exported.get("left_out").size(), exported.toString());
    assertEquals("pipe", exported.get("left_out").get(0).get("path").asText());
    String reason = exported.get("left_out").get(0).get("reason").asText();
    assertTrue(reason.startsWith("its last state was not captured"), reason);
    String branch = "turndiff/" + turn;
    assertEquals(
        "a.txt\nsrc/b.txt\nsrc/keep.txt\n", git(root, "ls-tree", "-r", "--name-only", branch));
    assertTrue(
        git(root, "log", "-1", "--format=%B", branch).contains("Not exported:\n  pipe: " + reason),
        () -> "the commit's message names what it left out");
  }

  @Test
  void theCheckedOutBranchAndABadNameAreRefused() throws Exception {
    String[] turns = twoTurns();
    String head = git(workspace.root(), "rev-parse", "HEAD");
    CommandRun checkedOut =
        turndiff("export", "--turn", turns[0], "--commit", "--branch", "main").expect(2);
    assertTrue(checkedOut.err().contains("main is checked out"), checkedOut.err());
    CommandRun bad =
        turndiff("export", "--turn", turns[0], "--commit", "--branch", "a..b").expect(2);
    assertTrue(bad.err().contains("'a..b' is not a valid branch name"), bad.err());
    assertEquals(head, git(workspace.root(), "rev-parse", "HEAD"));
    assertEquals("main\n", git(workspace.root(), "for-each-ref", "--format=%(refname:short)"));
  }

  /** Every file under {@code root} but .git, with its bytes, as text. */
  private static String tree(Path root) throws IOException {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted().toList()) {
        if (path.startsWith(root.resolve(".git")) || !Files.isRegularFile(path)) {
          continue;
        }
        all.append(root.relativize(path))
            .append(Files.isExecutable(path) ? " x " : " - ")
            .append(Arrays.hashCode(Files.readAllBytes(path)))
            .append('\n');
      }
    }
    return all.toString();
  }

  /** Runs git in {@code directory} with a HOME of the test's own; its output, or a failure. */
  private String git(Path directory, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    builder.environment().put("HOME", temp.toString());
    builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), () -> String.join(" ", command) + ": " + out);
    return out;
  }
}
