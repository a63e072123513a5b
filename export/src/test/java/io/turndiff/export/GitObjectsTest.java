package io.turndiff.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.TreeFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The objects of a real repository, read through the boundary, are byte for byte what {@code git
 * cat-file} prints: loose ones, and packed ones stored whole or as deltas on a base at an offset
 * ({@code OFS_DELTA}, what {@code git gc} writes) or named by id ({@code REF_DELTA}, what a pack
 * without offsets holds). An object written is one git reads back and {@code fsck} accepts.
 */
class GitObjectsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;

  @AfterEach
  void canary() {
    workspace.assertOutsideUnchanged();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void everyObjectOfAPackedRepositoryReadsAsGitPrintsIt(boolean deltaBaseOffset) throws Exception {
    workspace = TestWorkspace.in(temp);
    Path root = workspace.root();
    git(root, "init", "-q", "-b", "main");
    StringBuilder text = new StringBuilder();
    for (int line = 0; line < 400; line++) {
      text.append("line ").append(line).append(" of a file that changes a little each commit\n");
    }
    for (int version = 0; version < 12; version++) {
      text.append("version ").append(version).append('\n');
      workspace.file("src/long.txt", text.toString());
      workspace.file("src/v" + version + ".txt", "v" + version + "\n");
      git(root, "add", "-A");
      git(root, "commit", "-q", "-m", "version " + version);
    }
    git(
        root,
        "-c",
        "repack.useDeltaBaseOffset=" + deltaBaseOffset,
        "repack",
        "-q",
        "-a",
        "-d",
        "-f");
    // one more commit left loose beside the pack
    workspace.file("loose.txt", "loose\n");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "loose");
    String verified =
        git(root, "verify-pack", "-v", packIndex(root))
            .lines()
            .filter(this::isDelta)
            .findAny()
            .orElse("");
    assertFalse(verified.isEmpty(), "the pack holds deltas");

    List<String> ids =
        git(root, "rev-list", "--objects", "--all")
            .lines()
            .map(line -> line.substring(0, 40))
            .toList();
    assertTrue(ids.size() > 30, ids::toString);
    try (WorkspaceBoundary boundary = WorkspaceBoundary.open(root)) {
      GitObjects objects = new GitObjects(boundary);
      for (String id : ids) {
        GitObjects.GitObject object = objects.read(ObjectId.fromString(id));
        String type = git(root, "cat-file", "-t", id).strip();
        assertEquals(type, Constants.typeString(object.type()), id);
        assertArrayEquals(gitBytes(root, "cat-file", type, id), object.data(), id);
      }
    }
  }

  @Test
  void objectsWrittenAreOnesGitReadsAndFsckAccepts() throws Exception {
    workspace = TestWorkspace.in(temp);
    Path root = workspace.root();
    git(root, "init", "-q", "-b", "main");
    byte[] blob = "written by turndiff\n".getBytes(StandardCharsets.UTF_8);
    try (WorkspaceBoundary boundary = WorkspaceBoundary.open(root)) {
      GitObjects objects = new GitObjects(boundary);
      ObjectId blobId = objects.insert(Constants.OBJ_BLOB, blob);
      assertEquals(blobId, objects.insert(Constants.OBJ_BLOB, blob), "one object, one id");
      TreeFormatter tree = new TreeFormatter();
      tree.append("a.txt", FileMode.REGULAR_FILE, blobId);
      ObjectId treeId = objects.insert(Constants.OBJ_TREE, tree.toByteArray());
      objects.sync();
      assertArrayEquals(blob, gitBytes(root, "cat-file", "blob", blobId.name()));
      assertEquals(
          "100644 blob " + blobId.name() + "\ta.txt\n", git(root, "ls-tree", treeId.name()));
      assertArrayEquals(blob, objects.read(blobId).data(), "read back loose");
    }
    git(root, "fsck", "--strict");
  }

  private boolean isDelta(String verifyPackLine) {
    // "<id> <type> <size> <size-in-pack> <offset> <depth> <base-id>" for a delta
    return verifyPackLine.split(" +").length == 7;
  }

  private static String packIndex(Path root) throws IOException {
    try (var names = Files.list(root.resolve(".git/objects/pack"))) {
      return names
          .map(Path::toString)
          .filter(name -> name.endsWith(".idx"))
          .findFirst()
          .orElseThrow();
    }
  }

  private String git(Path directory, String... args) throws Exception {
    return new String(gitBytes(directory, args), StandardCharsets.UTF_8);
  }

  /** Runs git in {@code directory} with a HOME of the test's own; its stdout, or a failure. */
  private byte[] gitBytes(Path directory, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    builder.environment().put("HOME", temp.toString());
    builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    builder.environment().put("GIT_AUTHOR_NAME", "Test");
    builder.environment().put("GIT_AUTHOR_EMAIL", "test@example.com");
    builder.environment().put("GIT_COMMITTER_NAME", "Test");
    builder.environment().put("GIT_COMMITTER_EMAIL", "test@example.com");
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), () -> String.join(" ", command));
    return out;
  }
}
