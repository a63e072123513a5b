package io.turndiff.diff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rename detection over a turn's changes against the real {@code git diff -M} of the same two trees
 * in a real repository: the same pairs are renames, with git's similarity within JGit's one point
 * of name likeness; and the rename's patch is one {@code git apply} takes on the before-tree,
 * giving the after-tree byte for byte, and {@code git apply -R} takes back.
 */
class RenameDetectionTest {

  private static final Instant AT = Instant.parse("2026-12-02T12:00:00Z");

  @TempDir Path temp;

  /**
   * Lines {@code from}..{@code to}, each long enough that a changed line weighs as git weighs it.
   */
  private static String lines(int from, int to) {
    return IntStream.rangeClosed(from, to)
        .mapToObj(n -> "line number " + n + " of the file, as an agent wrote it\n")
        .collect(Collectors.joining());
  }

  /** The two trees of a turn: what each path held before and after (null: absent). */
  private final Map<String, byte[]> before = new LinkedHashMap<>();

  private final Map<String, byte[]> after = new LinkedHashMap<>();

  private void moved(String from, String to, String oldText, String newText) {
    before.put(from, oldText.getBytes(StandardCharsets.UTF_8));
    after.put(to, newText.getBytes(StandardCharsets.UTF_8));
  }

  private static Snapshot file(String path, byte[] content) {
    return new Snapshot.RegularFile(
        WorkspacePath.of(path),
        BoundaryKind.OPENAT,
        new FileMetadata(FileType.REGULAR, content.length, 1, 0644, 1, 1),
        Sha256.of(content),
        AT);
  }

  private static Snapshot absent(String path) {
    return new Snapshot.Absent(WorkspacePath.of(path), BoundaryKind.OPENAT, AT);
  }

  /** Our detection over the two trees, the store holding every content whole. */
  private List<Rename> detected() {
    return detected(Integer.MAX_VALUE);
  }

  /** As {@link #detected()}, with contents over {@code loadable} bytes left in chunks, unloaded. */
  private List<Rename> detected(int loadable) {
    Map<Sha256, byte[]> stored = new HashMap<>();
    List<RenameDetection.Change> changes = new ArrayList<>();
    List<String> paths = new ArrayList<>(before.keySet());
    after.keySet().stream().filter(path -> !before.containsKey(path)).forEach(paths::add);
    for (String path : paths) {
      Snapshot old = side(path, before.get(path), stored, loadable);
      Snapshot updated = side(path, after.get(path), stored, loadable);
      changes.add(new RenameDetection.Change(WorkspacePath.of(path), old, updated));
    }
    return RenameDetection.among(
        changes,
        sides -> {
          Map<Sha256, byte[]> asked = new HashMap<>();
          sides.forEach(
              side ->
                  side.storedContent()
                      .filter(stored::containsKey)
                      .ifPresent(sha -> asked.put(sha, stored.get(sha))));
          return asked;
        });
  }

  private static Snapshot side(
      String path, byte[] content, Map<Sha256, byte[]> stored, int loadable) {
    if (content == null) {
      return absent(path);
    }
    if (content.length <= loadable) {
      stored.put(Sha256.of(content), content);
    }
    return file(path, content);
  }

  /** git's own renames of the same two trees: {@code R<score> old new} per line. */
  private List<String> gitsRenames() throws Exception {
    Path repo = beforeTree("git-renames");
    writeTree(repo, after, before);
    GitApplyRoundTripTest.git(repo, "add", "-A");
    String status = GitApplyRoundTripTest.git(repo, "diff", "--cached", "-M", "--name-status");
    return status.lines().filter(line -> line.startsWith("R")).toList();
  }

  private Path beforeTree(String name) throws Exception {
    Path repo = Files.createDirectory(temp.resolve(name));
    GitApplyRoundTripTest.git(repo, "init", "-q");
    for (Map.Entry<String, byte[]> entry : before.entrySet()) {
      Path file = repo.resolve(entry.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, entry.getValue());
    }
    GitApplyRoundTripTest.git(repo, "add", "-A");
    GitApplyRoundTripTest.git(
        repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "before");
    return repo;
  }

  /** Makes {@code repo}'s work tree {@code tree}: removes what {@code old} held and it does not. */
  private static void writeTree(Path repo, Map<String, byte[]> tree, Map<String, byte[]> old)
      throws IOException {
    for (String path : old.keySet()) {
      if (!tree.containsKey(path)) {
        Files.delete(repo.resolve(path));
      }
    }
    for (Map.Entry<String, byte[]> entry : tree.entrySet()) {
      Path file = repo.resolve(entry.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, entry.getValue());
    }
  }

  /** Ours as git's name-status lines, to compare pairs; the score compared apart. */
  private static List<String> pairs(List<String> gitLines) {
    return gitLines.stream().map(line -> line.replaceFirst("^R\\d+", "R")).toList();
  }

  private static List<String> pairsOf(List<Rename> renames) {
    return renames.stream()
        .map(rename -> "R\t" + rename.from().display() + "\t" + rename.to().display())
        .toList();
  }

  private static int gitsScore(String line) {
    return Integer.parseInt(line.substring(1, line.indexOf('\t')));
  }

  @Test
  void aPureRenameIsOneHundredPercentAndItsPatchMovesTheFile() throws Exception {
    moved("src/old.py", "lib/new.py", lines(1, 30), lines(1, 30));
    List<Rename> renames = detected();
    assertEquals(pairs(gitsRenames()), pairsOf(renames));
    assertEquals(
        List.of(new Rename(WorkspacePath.of("src/old.py"), WorkspacePath.of("lib/new.py"), 100)),
        renames);
    String patch = appliesBothWays(renames.getFirst());
    assertEquals(
        "diff --git a/src/old.py b/lib/new.py\n"
            + "similarity index 100%\n"
            + "rename from src/old.py\n"
            + "rename to lib/new.py\n",
        patch);
  }

  @Test
  void eightyPercentSimilarIsARenameWithGitsScoreAndItsHunks() throws Exception {
    String old = lines(1, 50);
    String changed = old.replace(lines(11, 20), lines(111, 120));
    moved("a.txt", "b.txt", old, changed);
    List<Rename> renames = detected();
    List<String> git = gitsRenames();
    assertEquals(pairs(git), pairsOf(renames));
    int score = renames.getFirst().similarity();
    assertTrue(score >= 75 && score <= 85, "about 80%: " + score);
    assertTrue(Math.abs(gitsScore(git.getFirst()) - score) <= 1, git + " vs " + score);
    String patch = appliesBothWays(renames.getFirst());
    assertTrue(
        patch.startsWith(
            "diff --git a/a.txt b/b.txt\nsimilarity index "
                + score
                + "%\nrename from a.txt\nrename to b.txt\nindex "),
        patch);
    assertTrue(patch.contains("--- a/a.txt\n+++ b/b.txt\n@@ "), patch);
  }

  @Test
  void fortyPercentSimilarIsADeleteAndAnAdd() throws Exception {
    String old = lines(1, 50);
    String changed = lines(1, 20) + lines(121, 150);
    moved("a.txt", "b.txt", old, changed);
    assertEquals(List.of(), gitsRenames(), "git pairs none either");
    assertEquals(List.of(), detected());
  }

  @Test
  void aBinaryFileIsARenameOnlyWhenItsContentIsTheSame() throws Exception {
    byte[] binary = new byte[4096];
    for (int i = 0; i < binary.length; i++) {
      binary[i] = (byte) (i * 7);
    }
    before.put("img/logo.png", binary);
    after.put("assets/logo.png", binary.clone());
    List<Rename> exact = detected();
    assertEquals(
        List.of(
            new Rename(WorkspacePath.of("img/logo.png"), WorkspacePath.of("assets/logo.png"), 100)),
        exact);
    assertEquals(pairs(gitsRenames()), pairsOf(exact));
    appliesBothWays(exact.getFirst());

    byte[] edited = binary.clone();
    edited[100] ^= 1;
    after.put("assets/logo.png", edited);
    assertEquals(List.of(), detected(), "a changed binary is a delete and an add");
  }

  @Test
  void aFileTooLargeToLoadIsARenameOnlyWhenItsContentIsTheSame() {
    String old = lines(1, 50);
    moved("big.log", "big.1.log", old, old);
    assertEquals(1, detected(100).size(), "the same hash: renamed unloaded");
    moved("big.log", "big.1.log", old, old.replace("line number 7 ", "line number 7b"));
    assertEquals(List.of(), detected(100), "never scored unloaded");
    assertEquals(1, detected().size(), "scored when loaded");
  }

  private static Snapshot link(String path, String target) {
    return new Snapshot.Symlink(
        WorkspacePath.of(path),
        BoundaryKind.OPENAT,
        new FileMetadata(FileType.SYMLINK, target.length(), 1, 0777, 1, 1),
        LinkTarget.of(target),
        AT);
  }

  private static List<Rename> among(RenameDetection.Change... changes) {
    return RenameDetection.among(List.of(changes), sides -> Map.of());
  }

  /**
   * {@code rm -r q; mv p q}, {@code p} a symlink: as a rename, {@code git apply -R} refuses the
   * patch ({@code affected file 'q/s' is beyond a symbolic link}, git's own patch alike), so the
   * link is a delete and an add, which apply both ways; the same move without the directory, or of
   * a regular file onto it, stays a rename.
   */
  @Test
  void aSymlinkMovedOntoADirectoryTheTurnRemovedIsADeleteAndAnAdd() {
    byte[] empty = new byte[0];
    RenameDetection.Change linkGone =
        new RenameDetection.Change(WorkspacePath.of("p"), link("p", "target"), absent("p"));
    RenameDetection.Change linkCame =
        new RenameDetection.Change(WorkspacePath.of("q"), absent("q"), link("q", "target"));
    RenameDetection.Change underIt =
        new RenameDetection.Change(WorkspacePath.of("q/s"), file("q/s", empty), absent("q/s"));
    assertEquals(List.of(), among(linkGone, linkCame, underIt));
    assertEquals(1, among(linkGone, linkCame).size(), "without the directory, a rename");

    byte[] text = "x\n".getBytes(StandardCharsets.UTF_8);
    RenameDetection.Change fileGone =
        new RenameDetection.Change(WorkspacePath.of("p"), file("p", text), absent("p"));
    RenameDetection.Change fileCame =
        new RenameDetection.Change(WorkspacePath.of("q"), absent("q"), file("q", text));
    assertEquals(
        1,
        RenameDetection.among(
                List.of(fileGone, fileCame, underIt), sides -> Map.of(Sha256.of(text), text))
            .size(),
        "a regular file onto the directory: a rename, as git writes it");
  }

  @Test
  void twoCandidatesForOneDeletionGoToTheMoreSimilarAsGitChooses() throws Exception {
    String old = lines(1, 50);
    before.put("notes.md", old.getBytes(StandardCharsets.UTF_8));
    after.put(
        "docs/draft.md",
        old.replace(lines(1, 15), lines(201, 215)).getBytes(StandardCharsets.UTF_8));
    after.put(
        "docs/notes.md",
        old.replace(lines(41, 45), lines(301, 305)).getBytes(StandardCharsets.UTF_8));
    List<Rename> renames = detected();
    List<String> git = gitsRenames();
    assertEquals(pairs(git), pairsOf(renames));
    assertEquals(WorkspacePath.of("docs/notes.md"), renames.getFirst().to());
  }

  /**
   * Writes the rename's patch, applies it to the before-tree with the real {@code git apply} (the
   * after-tree's bytes must land, the old name gone) and back with {@code -R}; returns its text.
   */
  private String appliesBothWays(Rename rename) throws Exception {
    String from = rename.from().display();
    String to = rename.to().display();
    String patch =
        new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL)
            .writeRename(
                rename,
                new PatchSide.File(before.get(from), 0644),
                new PatchSide.File(after.get(to), 0644))
            .text();
    Path repo = beforeTree("apply-" + System.nanoTime());
    Path patchFile = temp.resolve("rename-" + System.nanoTime() + ".patch");
    Files.writeString(patchFile, patch);
    GitApplyRoundTripTest.git(repo, "apply", "--whitespace=nowarn", patchFile.toString());
    assertFalse(Files.exists(repo.resolve(from)), patch);
    assertArrayEquals(after.get(to), Files.readAllBytes(repo.resolve(to)), patch);
    GitApplyRoundTripTest.git(repo, "apply", "-R", "--whitespace=nowarn", patchFile.toString());
    assertFalse(Files.exists(repo.resolve(to)), patch);
    assertArrayEquals(before.get(from), Files.readAllBytes(repo.resolve(from)), patch);
    return patch;
  }
}
