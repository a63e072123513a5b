package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.diff.FilePatch;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dry run's merge preview is what the run writes: the preview's patch, applied by {@code git
 * apply} to a copy of the file as it was when previewed, gives the very bytes the run then writes.
 */
class MergePreviewTest extends HarnessTest {

  private static final String LINES =
      IntStream.rangeClosed(1, 12).mapToObj(Integer::toString).collect(Collectors.joining("\n"))
          + "\n";

  /** A turn that changed line 2, and the user's later edit of line 11: a file to merge. */
  private String turnThenALaterEdit() throws Exception {
    h.workspace.file("a.txt", LINES);
    String turn =
        h.turn(
            List.of("a.txt"),
            () ->
                Files.writeString(h.workspace.resolve("a.txt"), LINES.replace("\n2\n", "\ntwo\n")));
    Files.writeString(
        h.workspace.resolve("a.txt"),
        LINES.replace("\n2\n", "\ntwo\n").replace("\n11\n", "\neleven (user)\n"));
    return turn;
  }

  @Test
  void thePreviewAppliedToTheFileNowGivesTheBytesTheRunWrites() throws Exception {
    String turn = turnThenALaterEdit();
    byte[] previewed = Files.readAllBytes(h.workspace.resolve("a.txt"));
    RewindReport plan = h.dryRun(turn);
    assertEquals(List.of(WorkspacePath.of("a.txt")), plan.merged());
    MergePreview preview = plan.mergePreviews().get(WorkspacePath.of("a.txt"));
    assertEquals(1, preview.added());
    assertEquals(1, preview.removed());
    assertFalse(preview.cut());
    assertTrue(preview.patch().contains("\n-two\n+2\n"), preview.patch());
    assertFalse(preview.patch().contains("+11\n"), "the user's edit stays: " + preview.patch());

    RewindReport run = h.rewindTurn(turn);
    assertEquals(List.of(WorkspacePath.of("a.txt")), run.merged());
    assertEquals(Map.of(), run.mergePreviews(), "a receipt previews nothing");
    byte[] written = Files.readAllBytes(h.workspace.resolve("a.txt"));
    assertEquals(LINES.replace("\n11\n", "\neleven (user)\n"), new String(written, UTF8));
    assertEquals(new String(written, UTF8), new String(applied(previewed, preview), UTF8));
  }

  @Test
  void aPlanWithNothingToMergePreviewsNothing() throws Exception {
    h.workspace.file("a.txt", LINES);
    String turn =
        h.turn(List.of("a.txt"), () -> Files.writeString(h.workspace.resolve("a.txt"), "x\n"));
    RewindReport plan = h.dryRun(turn);
    assertEquals(List.of(WorkspacePath.of("a.txt")), plan.restored());
    assertEquals(Map.of(), plan.mergePreviews());
  }

  @Test
  void aHugePreviewIsCutAtALineWithTheCountOfWhatWasLeftOut() {
    String text =
        IntStream.range(0, 5_000).mapToObj(i -> "+line " + i + "\n").collect(Collectors.joining());
    MergePreview cut = MergePreview.bounded(new FilePatch(text, 5_000, 0, false));
    assertEquals(MergePreview.MAX_LINES, cut.patch().lines().count());
    assertEquals(5_000 - MergePreview.MAX_LINES, cut.omittedLines());
    assertTrue(cut.patch().endsWith("+line 1999\n"));
    assertEquals(5_000, cut.added(), "the counts are the whole patch's");

    String longLines = ("+" + "x".repeat(100_000) + "\n").repeat(5);
    MergePreview byChars = MergePreview.bounded(new FilePatch(longLines, 5, 0, false));
    assertEquals(2, byChars.patch().lines().count());
    assertEquals(3, byChars.omittedLines());

    MergePreview whole = MergePreview.bounded(new FilePatch("+a\n+b\n", 2, 0, false));
    assertEquals("+a\n+b\n", whole.patch());
    assertFalse(whole.cut());
  }

  private static final Charset UTF8 = StandardCharsets.UTF_8;

  /** Where git applies the previews: a temp dir of their own, apart from the harness's. */
  @TempDir Path scratch;

  /** {@code preview} applied by git to a copy of {@code file} in a directory of its own. */
  private byte[] applied(byte[] file, MergePreview preview) throws Exception {
    Path copy = Files.createDirectories(scratch.resolve("git-apply"));
    Files.write(copy.resolve("a.txt"), file);
    Path patch = scratch.resolve("preview.patch");
    Files.writeString(patch, preview.patch());
    Process git =
        new ProcessBuilder("git", "apply", "--verbose", patch.toString())
            .directory(copy.toFile())
            .redirectErrorStream(true)
            .start();
    String said = new String(git.getInputStream().readAllBytes(), UTF8);
    assertTrue(git.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, git.exitValue(), said);
    return Files.readAllBytes(copy.resolve("a.txt"));
  }
}
