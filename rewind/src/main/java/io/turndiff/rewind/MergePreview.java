package io.turndiff.rewind;

import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.model.WorkspacePath;

/**
 * What a merge would do to a file, shown before it is done: the git-style patch from the file as it
 * is now to the merged result a rewind's run writes there. A dry run makes it from the very {@link
 * RewindDecision.Write} the run would make (the same decision over the same stored states and the
 * same current bytes, read through the boundary), so what it shows is what the run writes if the
 * file does not change in between.
 *
 * <p>A preview is bounded: past {@link #MAX_LINES} lines or {@link #MAX_CHARS} characters its patch
 * is cut at a line's end, and {@code omittedLines} counts the lines left out, so that a plan of a
 * huge file stays a plan a panel can show and a terminal can print. The added and removed counts
 * are the whole patch's.
 *
 * @param patch the patch text, whole lines only, cut when {@code omittedLines} is not 0
 * @param omittedLines how many lines of the patch were cut off its end (0: it is whole)
 */
public record MergePreview(String patch, int added, int removed, int omittedLines) {

  /** About what a reviewer reads before wanting the file itself; a panel renders it at once. */
  static final int MAX_LINES = 2_000;

  /** A bound on the text for files of few, very long lines (minified, generated). */
  static final int MAX_CHARS = 256 * 1024;

  private static final GitPatchWriter WRITER =
      new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);

  public MergePreview {
    if (omittedLines < 0) {
      throw new IllegalArgumentException("omitted lines cannot be negative: " + omittedLines);
    }
  }

  /** Whether the patch was cut (it shows the first lines only). */
  public boolean cut() {
    return omittedLines > 0;
  }

  /**
   * The patch from {@code now} (the file's bytes and mode as the dry run read them) to what {@code
   * merge} writes, bounded.
   */
  static MergePreview of(WorkspacePath path, byte[] now, int nowMode, RewindDecision.Write merge) {
    FilePatch whole =
        WRITER.write(
            path,
            new PatchSide.File(now, nowMode),
            new PatchSide.File(merge.content().orElseThrow(), merge.mode()));
    return bounded(whole);
  }

  /** {@code whole}, its text cut at the first line's end past either bound. */
  static MergePreview bounded(FilePatch whole) {
    String text = whole.text();
    int end = 0;
    int lines = 0;
    while (end < text.length() && lines < MAX_LINES) {
      int next = text.indexOf('\n', end);
      int lineEnd = next < 0 ? text.length() : next + 1;
      if (lineEnd > MAX_CHARS && lines > 0) {
        break;
      }
      end = lineEnd;
      lines++;
    }
    int omitted = end == text.length() ? 0 : (int) text.substring(end).lines().count();
    return new MergePreview(text.substring(0, end), whole.added(), whole.removed(), omitted);
  }
}
