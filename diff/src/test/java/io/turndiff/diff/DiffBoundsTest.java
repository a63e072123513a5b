package io.turndiff.diff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A diff's work is bounded by its budget (steps: line comparisons), not by the file's size: a small
 * change of a big file is as small as git's own diff, and pathological pairs of files finish within
 * the budget with a patch {@code git apply} still accepts.
 */
class DiffBoundsTest {

  /**
   * The default budget's steps without its time limit: what a test sees must not depend on the
   * machine.
   */
  private static final DiffBudget STEPS_ONLY =
      new DiffBudget(
          DiffBudget.DEFAULT.histogramSteps(),
          DiffBudget.DEFAULT.fallbackSteps(),
          Duration.ofHours(1));

  @TempDir Path temp;

  private final GitPatchWriter writer = new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL);

  /** The size of the file in the report: 7,958 lines, 257 inserted in a few places. */
  private static List<String> bigFile() {
    Random random = new Random(7958);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 7958; i++) {
      // code-like: many unique lines, some repeated ones (braces, blank lines)
      lines.add(
          switch (i % 9) {
            case 3 -> "  }";
            case 7 -> "";
            default -> "    call(" + i + ", " + random.nextInt(1000) + ");";
          });
    }
    return lines;
  }

  private static List<String> withInsertions(List<String> lines) {
    List<String> edited = new ArrayList<>(lines);
    Random random = new Random(257);
    int inserted = 0;
    for (int block = 0; block < 9; block++) {
      int at = random.nextInt(edited.size());
      int size = block == 8 ? 257 - inserted : 1 + random.nextInt(40);
      for (int i = 0; i < size; i++) {
        edited.add(at + i, "    added(" + block + ", " + i + ");");
      }
      inserted += size;
    }
    return edited;
  }

  private static byte[] text(List<String> lines) {
    return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private FilePatch patch(byte[] before, byte[] after) {
    return writer.write(
        WorkspacePath.of("file.txt"),
        new PatchSide.File(before, 0644),
        new PatchSide.File(after, 0644));
  }

  /**
   * What {@code git diff --no-index} says of the two texts: lines added, lines removed, patch
   * bytes.
   */
  private record GitDiff(int added, int removed, int bytes) {}

  private GitDiff gitDiff(byte[] before, byte[] after) throws Exception {
    Path dir = Files.createTempDirectory(temp, "git-diff");
    Files.write(dir.resolve("a"), before);
    Files.write(dir.resolve("b"), after);
    String numstat = run(dir, "git", "diff", "--no-index", "--numstat", "a", "b");
    String[] counts = numstat.trim().split("\\s+");
    String patch = run(dir, "git", "diff", "--no-index", "a", "b");
    return new GitDiff(
        Integer.parseInt(counts[0]),
        Integer.parseInt(counts[1]),
        patch.getBytes(StandardCharsets.UTF_8).length);
  }

  private static String run(Path dir, String... command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertTrue(process.exitValue() <= 1, () -> String.join(" ", command) + " failed:\n" + output);
    return output;
  }

  /**
   * The patch applies with git to {@code before} and gives {@code after}; {@code -R} gives {@code
   * before}.
   */
  private void assertApplies(FilePatch patch, byte[] before, byte[] after) throws Exception {
    Path dir = Files.createTempDirectory(temp, "apply");
    Files.write(dir.resolve("file.txt"), before);
    Path patchFile = dir.resolve("change.patch");
    Files.writeString(patchFile, patch.text());
    GitApplyRoundTripTest.git(dir, "apply", "--whitespace=nowarn", "change.patch");
    assertArrayEquals(after, Files.readAllBytes(dir.resolve("file.txt")));
    GitApplyRoundTripTest.git(dir, "apply", "-R", "--whitespace=nowarn", "change.patch");
    assertArrayEquals(before, Files.readAllBytes(dir.resolve("file.txt")));
  }

  @Test
  void aSmallChangeOfABigFileIsAsSmallAsGitsDiff() throws Exception {
    byte[] before = text(bigFile());
    byte[] after = text(withInsertions(bigFile()));
    GitDiff git = gitDiff(before, after);
    assertEquals(new GitDiff(257, 0, git.bytes()), git, "the generated change, as git sees it");

    FilePatch patch = patch(before, after);
    assertEquals(257, patch.added(), "lines added, as git counts them");
    assertEquals(0, patch.removed(), "lines removed, as git counts them");
    int bytes = patch.text().getBytes(StandardCharsets.UTF_8).length;
    assertTrue(
        bytes < git.bytes() * 3 / 2, "patch of " + bytes + " bytes; git's is " + git.bytes());
    assertApplies(patch, before, after);
  }

  @Test
  void theBudgetNotTheSizeDecidesWhenTheWholeMiddleBecomesOneHunk() {
    List<String> before = bigFile();
    List<String> after = withInsertions(before);
    LineDiff.Result bounded = LineDiff.diff(before, after, STEPS_ONLY);
    assertEquals(257, bounded.added());
    assertTrue(bounded.steps() < 1_000_000, "a few comparisons per line: " + bounded.steps());

    LineDiff.Result starved =
        LineDiff.diff(before, after, new DiffBudget(1_000, 0, Duration.ofHours(1)));
    assertEquals(1_000, starved.steps(), "the histogram pass ran out at its budget");
    assertEquals(
        1, starved.hunks().split("\n@@ ", -1).length, "one hunk: " + starved.hunks().length());
    assertTrue(
        starved.added() > 6_000 && starved.removed() > 6_000,
        "the whole middle: +" + starved.added() + " -" + starved.removed());
  }

  @Test
  void twoBigFilesWithNoLineInCommonFinishWithinTheBudget() throws Exception {
    List<String> before = new ArrayList<>();
    List<String> after = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      before.add("old " + i);
      after.add("new " + i);
    }
    LineDiff.Result result = LineDiff.diff(before, after, STEPS_ONLY);
    assertTrue(
        result.steps() <= 20_000,
        "no common line is found in one pass: " + result.steps() + " steps");
    GitDiff git = gitDiff(text(before), text(after));
    assertEquals(git.added(), result.added());
    assertEquals(git.removed(), result.removed());
  }

  @Test
  void manyRepeatedLinesFinishWithinTheBudgetAndStillApply() throws Exception {
    // 20,000 lines of three kinds: every common line repeats thousands of times, so the histogram
    // diff has no anchor and Myers would need hundreds of millions of comparisons
    Random random = new Random(3);
    List<String> before = new ArrayList<>();
    List<String> after = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      before.add("abc".substring(random.nextInt(3)).substring(0, 1));
      after.add("abc".substring(random.nextInt(3)).substring(0, 1));
    }
    DiffBudget budget = STEPS_ONLY;
    LineDiff.Result result = LineDiff.diff(before, after, budget);
    assertTrue(
        result.steps() <= budget.histogramSteps() + budget.fallbackSteps(),
        "bounded: " + result.steps() + " steps");
    assertTrue(
        result.steps() >= budget.fallbackSteps(),
        "the Myers fallback ran out of its budget: " + result.steps());
    byte[] old = text(before);
    byte[] updated = text(after);
    assertApplies(patch(old, updated), old, updated);
  }

  @Test
  void aStretchOfRepeatedLinesGetsAMinimalDiffWithinTheBudget() throws Exception {
    // the only common lines repeat more than the histogram diff's chain limit: Myers diffs the
    // stretch
    List<String> before = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      before.add(i % 2 == 0 ? "x" : "y");
    }
    List<String> after = new ArrayList<>(before);
    after.set(1_000, "changed");
    after.add(2_000, "inserted");
    after.remove(2_500);
    LineDiff.Result result = LineDiff.diff(before, after, STEPS_ONLY);
    GitDiff git = gitDiff(text(before), text(after));
    assertEquals(git.added(), result.added(), result.hunks());
    assertEquals(git.removed(), result.removed(), result.hunks());
  }

  @Test
  void aRewindMergesAroundLaterEditsOfABigFile() {
    // the turn changed two lines 7,800 lines apart; someone edited a line between them since
    List<String> lines = bigFile();
    List<String> turned = new ArrayList<>(lines);
    turned.set(100, "turn's first change");
    turned.set(7_900, "turn's second change");
    List<String> current = new ArrayList<>(turned);
    current.set(4_000, "a later edit");
    Optional<byte[]> merged = ReverseMerge.reverseApply(text(lines), text(turned), text(current));
    List<String> expected = new ArrayList<>(lines);
    expected.set(4_000, "a later edit");
    assertTrue(merged.isPresent(), "the turn's two hunks reverse cleanly around the later edit");
    assertArrayEquals(text(expected), merged.get());
  }
}
