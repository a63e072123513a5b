package io.turndiff.diff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every patch the writer produces applies with the real {@code git apply} to the before-file and
 * gives the after-file byte for byte, and {@code git apply -R} gives the before-file back.
 */
class GitApplyRoundTripTest {

  @TempDir Path temp;

  private final GitPatchWriter writer = new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL);

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Applies the patch of before→after to a copy of before with git, checks after, reverses, checks
   * before.
   */
  private void roundTrip(String name, byte[] before, byte[] after) throws Exception {
    Path dir = Files.createTempDirectory(temp, "apply");
    WorkspacePath path = WorkspacePath.of(name);
    FilePatch patch =
        writer.write(
            path,
            before == null ? new PatchSide.Absent() : new PatchSide.File(before, 0644),
            after == null ? new PatchSide.Absent() : new PatchSide.File(after, 0644));
    if (before != null && after != null && Arrays.equals(before, after)) {
      assertTrue(patch.isEmpty(), "no change, no patch");
      return;
    }
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    if (before != null) {
      Files.write(file, before);
    }
    Path patchFile = temp.resolve("change.patch");
    Files.writeString(patchFile, patch.text());
    try {
      git(dir, "apply", "--whitespace=nowarn", patchFile.toString());
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage()
              + "\npatch:\n"
              + patch.text()
              + "\nbefore:\n"
              + new String(before == null ? new byte[0] : before, StandardCharsets.UTF_8)
                  .replace("\r", "<CR>"),
          e);
    }
    if (after == null) {
      assertFalse(Files.exists(file), "git apply deleted " + name);
    } else {
      assertArrayEquals(
          after, Files.readAllBytes(file), () -> "after-state of " + name + "\n" + patch.text());
    }
    git(dir, "apply", "-R", "--whitespace=nowarn", patchFile.toString());
    if (before == null) {
      assertFalse(Files.exists(file), "git apply -R deleted " + name);
    } else {
      assertArrayEquals(
          before, Files.readAllBytes(file), () -> "before-state of " + name + "\n" + patch.text());
    }
  }

  /** Runs git in {@code dir}, which must succeed; its output. */
  static String git(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("git", "-c", "core.quotePath=true"));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), () -> String.join(" ", command) + " failed:\n" + output);
    return output;
  }

  @Test
  void editInTheMiddle() throws Exception {
    roundTrip(
        "a.txt",
        utf8("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"),
        utf8("1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n"));
  }

  @Test
  void finalNewlineAddedAndRemoved() throws Exception {
    roundTrip("a.txt", utf8("a\nb"), utf8("a\nb\n"));
    roundTrip("b.txt", utf8("a\nb\n"), utf8("a\nb"));
    roundTrip("c.txt", utf8("a\nb"), utf8("a\nc"));
  }

  @Test
  void crlfIsPreserved() throws Exception {
    roundTrip("w.txt", utf8("one\r\ntwo\r\nthree\r\n"), utf8("one\r\n2\r\nthree\r\n"));
  }

  @Test
  void createdAndDeletedFiles() throws Exception {
    roundTrip("new.txt", null, utf8("fresh\n"));
    roundTrip("gone.txt", utf8("old\n"), null);
    roundTrip("empty.txt", null, new byte[0]);
    roundTrip("emptied.txt", utf8("x\n"), new byte[0]);
    roundTrip("filled.txt", new byte[0], utf8("x"));
  }

  @Test
  void binaryFilesRoundTrip() throws Exception {
    Random random = new Random(7);
    byte[] before = new byte[3000];
    random.nextBytes(before);
    byte[] after = before.clone();
    after[100] ^= 1;
    roundTrip("blob.bin", before, after);
    roundTrip("created.bin", null, before);
    roundTrip("text-to-binary.txt", utf8("text\n"), new byte[] {0, 1, 2});
  }

  @Test
  void quotedNamesRoundTrip() throws Exception {
    roundTrip("caf\u00e9 menu.txt", utf8("a\n"), utf8("b\n"));
    roundTrip("tab\tname.txt", utf8("a\n"), utf8("b\n"));
  }

  @Test
  void lineCountsMatchTheHunks() {
    FilePatch patch =
        writer.write(
            WorkspacePath.of("a.txt"),
            new PatchSide.File(utf8("a\nb\nc\n"), 0644),
            new PatchSide.File(utf8("a\nB\nc\nd\n"), 0644));
    assertEquals(2, patch.added());
    assertEquals(1, patch.removed());
  }

  @Test
  void randomEditsRoundTrip() throws Exception {
    Random random = new Random(42);
    for (int round = 0; round < 120; round++) {
      List<String> lines = new ArrayList<>();
      int count = random.nextInt(60);
      for (int i = 0; i < count; i++) {
        lines.add("line " + random.nextInt(20) + (random.nextInt(10) == 0 ? "\r" : ""));
      }
      List<String> edited = new ArrayList<>(lines);
      int edits = random.nextInt(6);
      for (int e = 0; e < edits; e++) {
        int op = random.nextInt(3);
        int at = edited.isEmpty() ? 0 : random.nextInt(edited.size());
        if (op == 0 || edited.isEmpty()) {
          edited.add(at, "inserted " + random.nextInt(1000));
        } else if (op == 1) {
          edited.remove(at);
        } else {
          edited.set(at, "changed " + random.nextInt(1000));
        }
      }
      String before =
          String.join("\n", lines) + (random.nextBoolean() && !lines.isEmpty() ? "\n" : "");
      String after =
          String.join("\n", edited) + (random.nextBoolean() && !edited.isEmpty() ? "\n" : "");
      roundTrip("r" + round + ".txt", utf8(before), utf8(after));
    }
  }

  @Test
  void hugeRewriteIsBoundedToOneHunk() {
    StringBuilder before = new StringBuilder();
    StringBuilder after = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      before.append("old ").append(i).append('\n');
      after.append("new ").append(i).append('\n');
    }
    FilePatch patch =
        writer.write(
            WorkspacePath.of("huge.txt"),
            new PatchSide.File(utf8(before.toString()), 0644),
            new PatchSide.File(utf8(after.toString()), 0644));
    assertEquals(20_000, patch.added());
    assertEquals(20_000, patch.removed());
    assertEquals(
        1, patch.text().split("\n@@ ", -1).length - 1 + (patch.text().contains("\n@@ ") ? 0 : 1));
  }

  /** The patch of one path's change, with the given sides. */
  private String patchOf(String name, PatchSide before, PatchSide after) {
    return writer.write(WorkspacePath.of(name), before, after).text();
  }

  /**
   * A file that becomes a directory holding a file, and back: as git sees it the directory holds no
   * file at its own path, so the patch deletes the file and adds the one under it (the reverse adds
   * the file and deletes the one under it), in path order as {@code git diff} writes them; {@code
   * git apply} and {@code git apply -R} go from one tree to the other.
   */
  @Test
  void aFileThatBecomesADirectoryIsDeletedAndWhatTheDirectoryHoldsAdded() throws Exception {
    Path dir = Files.createTempDirectory(temp, "type");
    Files.writeString(dir.resolve("node"), "f\n");
    String patch =
        patchOf("node", new PatchSide.File(utf8("f\n"), 0644), new PatchSide.Directory(0755))
            + patchOf(
                "node/child.txt", new PatchSide.Absent(), new PatchSide.File(utf8("c\n"), 0644));
    assertTrue(patch.startsWith("diff --git a/node b/node\ndeleted file mode 100644\n"), patch);
    Path patchFile = temp.resolve("type.patch");
    Files.writeString(patchFile, patch);
    git(dir, "apply", patchFile.toString());
    assertTrue(Files.isDirectory(dir.resolve("node")), patch);
    assertEquals("c\n", Files.readString(dir.resolve("node/child.txt")));
    git(dir, "apply", "-R", patchFile.toString());
    assertEquals("f\n", Files.readString(dir.resolve("node")), "the file again");

    String reverse =
        patchOf("node", new PatchSide.Directory(0755), new PatchSide.File(utf8("f\n"), 0644))
            + patchOf(
                "node/child.txt", new PatchSide.File(utf8("c\n"), 0644), new PatchSide.Absent());
    assertTrue(reverse.startsWith("diff --git a/node b/node\nnew file mode 100644\n"), reverse);
    Files.writeString(patchFile, reverse);
    git(dir, "apply", "-R", patchFile.toString());
    assertEquals("c\n", Files.readString(dir.resolve("node/child.txt")));
    git(dir, "apply", patchFile.toString());
    assertEquals("f\n", Files.readString(dir.resolve("node")));
  }

  @Test
  void aDirectoryWithNoFileOnEitherSideIsAComment() {
    assertEquals(
        "# turndiff: sub: directory created (mode 0750; git records no directories)\n",
        patchOf("sub", new PatchSide.Absent(), new PatchSide.Directory(0750)));
    assertEquals(
        "# turndiff: sub: directory removed (mode 0755; git records no directories)\n",
        patchOf("sub", new PatchSide.Directory(0755), new PatchSide.Absent()));
    assertEquals(
        "# turndiff: sub: directory mode 0755 -> 0700 (git records no directories)\n",
        patchOf("sub", new PatchSide.Directory(0755), new PatchSide.Directory(0700)));
    assertEquals("", patchOf("sub", new PatchSide.Directory(0755), new PatchSide.Directory(0755)));
    assertEquals(
        "diff --git a/l b/l\nnew file mode 120000\n",
        patchOf("l", new PatchSide.Directory(0755), new PatchSide.Link(utf8("d")))
            .substring(0, "diff --git a/l b/l\nnew file mode 120000\n".length()),
        "a directory replaced by a link is that link added");
  }
}
