package io.turndiff.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader's options drawn as git draws them: the hunks with whitespace ignored ({@code -w}) and
 * with more or less context ({@code -U}) are the real {@code git diff --histogram}'s hunks, line
 * for line; a change of whitespace alone leaves the entry's header and no hunk.
 */
class DiffOptionsTest {

  @TempDir Path temp;

  private static final String BEFORE =
      numbered(1, 12)
          + "def total(items):\n"
          + "    return sum(items)\n"
          + numbered(13, 30)
          + "if x:\n"
          + "  y = 1\n"
          + numbered(31, 40);

  private static final String AFTER =
      numbered(1, 12)
          + "def total(items):\n"
          + "    return sum(i.price for i in items)\n"
          + numbered(13, 30)
          + "if  x :\n"
          + "\ty = 1\n"
          + numbered(31, 40);

  private static String numbered(int from, int to) {
    return IntStream.rangeClosed(from, to)
        .mapToObj(n -> "line " + n + "\n")
        .collect(Collectors.joining());
  }

  private static FilePatch write(DiffOptions options, String before, String after) {
    return new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY, options)
        .write(
            WorkspacePath.of("f.py"),
            new PatchSide.File(before.getBytes(StandardCharsets.UTF_8), 0644),
            new PatchSide.File(after.getBytes(StandardCharsets.UTF_8), 0644));
  }

  /**
   * From the first hunk on: what git and the writer must agree on line for line (git's hunk headers
   * name the function around them, which the writer does not).
   */
  private static String hunks(String patch) {
    int at = patch.indexOf("\n@@ ");
    return at < 0 ? "" : patch.substring(at + 1).replaceAll("(?m)^(@@ [^@]+ @@).*$", "$1");
  }

  private String gitDiff(String before, String after, String... options) throws Exception {
    Path dir = Files.createTempDirectory(temp, "git");
    Files.writeString(dir.resolve("a"), before);
    Files.writeString(dir.resolve("b"), after);
    List<String> command = new ArrayList<>(List.of("git", "diff", "--no-index", "--histogram"));
    command.addAll(List.of(options));
    command.addAll(List.of("--", "a", "b"));
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    // git diff --no-index exits 1 when the files differ, 0 when they do not (as -w sees them)
    assertTrue(process.exitValue() <= 1, () -> String.join(" ", command) + ":\n" + output);
    return output;
  }

  @Test
  void ignoringWhitespaceDrawsGitsHunksOfTheChangesThatAreNotWhitespace() throws Exception {
    FilePatch patch = write(DiffOptions.DEFAULT.withIgnoreAllSpace(true), BEFORE, AFTER);
    assertEquals(hunks(gitDiff(BEFORE, AFTER, "-w")), hunks(patch.text()));
    assertEquals(1, patch.added());
    assertEquals(1, patch.removed());
    assertFalse(patch.text().contains("y = 1"), patch.text());
    FilePatch shown = write(DiffOptions.DEFAULT, BEFORE, AFTER);
    assertEquals(hunks(gitDiff(BEFORE, AFTER)), hunks(shown.text()));
    assertEquals(3, shown.added(), "without -w the whitespace lines are changes");
  }

  @Test
  void aChangeOfWhitespaceAloneIsTheHeaderWithNoHunk() {
    String before = "a = 1\nb = 2\n";
    String after = "a  =  1\n\tb = 2   \n";
    FilePatch patch = write(DiffOptions.DEFAULT.withIgnoreAllSpace(true), before, after);
    assertTrue(patch.text().startsWith("diff --git a/f.py b/f.py\nindex "), patch.text());
    assertFalse(patch.text().contains("@@"), patch.text());
    assertFalse(patch.text().contains("--- a/"), patch.text());
    assertEquals(0, patch.added() + patch.removed());
    assertFalse(patch.isEmpty(), "the file did change: its entry says so");
    assertTrue(write(DiffOptions.DEFAULT, before, after).text().contains("@@ -1,2 +1,2 @@"));
  }

  @Test
  void moreOrLessContextIsGitsContextUpToTheWholeFile() throws Exception {
    for (int lines : List.of(0, 1, 5, 10, 40)) {
      assertEquals(
          hunks(gitDiff(BEFORE, AFTER, "-U" + lines)),
          hunks(write(DiffOptions.DEFAULT.withContext(lines), BEFORE, AFTER).text()),
          "-U" + lines);
    }
    String whole =
        hunks(
            write(DiffOptions.DEFAULT.withContext(DiffOptions.MAX_CONTEXT), BEFORE, AFTER).text());
    assertTrue(whole.startsWith("@@ -1,44 +1,44 @@\n line 1\n"), whole);
    assertEquals(1, whole.split("\n@@ ").length, "one hunk: the whole file");
  }

  @Test
  void contextIsBounded() {
    assertThrows(IllegalArgumentException.class, () -> DiffOptions.DEFAULT.withContext(-1));
    assertThrows(
        IllegalArgumentException.class,
        () -> DiffOptions.DEFAULT.withContext(DiffOptions.MAX_CONTEXT + 1));
  }

  @Test
  void linesAreEqualIgnoringWhitespaceExactlyWhenJgitsWsIgnoreAllFindsThemEqual() {
    List<String> lines =
        List.of(
            "a b",
            "ab",
            "a\tb",
            " ab ",
            "a\rb",
            "a b\u00a0",
            "ab\u00a0",
            "",
            "  ",
            "x",
            "a  b c",
            "abc",
            "é b",
            "éb");
    DiffOptions ignoring = DiffOptions.DEFAULT.withIgnoreAllSpace(true);
    for (String a : lines) {
      for (String b : lines) {
        RawText ra = new RawText((a + "\n").getBytes(StandardCharsets.UTF_8));
        RawText rb = new RawText((b + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(
            RawTextComparator.WS_IGNORE_ALL.equals(ra, 0, rb, 0),
            ignoring.comparedForm(a).equals(ignoring.comparedForm(b)),
            "'" + a + "' and '" + b + "'");
      }
    }
  }
}
