package io.turndiff.diff;

import org.eclipse.jgit.util.RawCharUtil;

/**
 * How a patch is drawn for a reader: whether a change of whitespace alone is a change ({@code git
 * diff -w}), and how many lines of context surround each hunk ({@code git diff -U}). The stored
 * diffs are always drawn with {@link #DEFAULT}; other options are asked for by a reader and drawn
 * from the stored states on the spot.
 *
 * @param ignoreAllSpace lines equal once every whitespace character is taken out are equal
 * @param context lines of context around each hunk, 0 to {@link #MAX_CONTEXT}
 */
public record DiffOptions(boolean ignoreAllSpace, int context) {

  /**
   * The most context a reader may ask for: far more lines than a file under any size limit the
   * capture allows holds, so "the whole file" is this; a bound, so that a number in a query can
   * never ask for more work than drawing the whole file.
   */
  public static final int MAX_CONTEXT = 1_000_000;

  /** git's default, and what the store's diffs are drawn with. */
  public static final DiffOptions DEFAULT = new DiffOptions(false, LineDiff.CONTEXT);

  public DiffOptions {
    if (context < 0 || context > MAX_CONTEXT) {
      throw new IllegalArgumentException(
          "context must be 0 to " + MAX_CONTEXT + " lines, not " + context);
    }
  }

  /** These options with {@code lines} of context. */
  public DiffOptions withContext(int lines) {
    return new DiffOptions(ignoreAllSpace, lines);
  }

  /** These options with whitespace ignored, or not. */
  public DiffOptions withIgnoreAllSpace(boolean ignore) {
    return new DiffOptions(ignore, context);
  }

  public boolean isDefault() {
    return equals(DEFAULT);
  }

  /**
   * What a line is compared by: the line itself, or, ignoring whitespace, the line with every
   * whitespace character taken out — the characters JGit's {@code RawTextComparator.WS_IGNORE_ALL}
   * skips ({@link RawCharUtil#isWhitespace}: ASCII space, tab, CR, LF), so two lines are equal here
   * exactly when that comparator finds them equal. The missing final newline's marker goes too: a
   * newline is whitespace.
   */
  String comparedForm(String line) {
    if (!ignoreAllSpace) {
      return line;
    }
    StringBuilder kept = new StringBuilder(line.length());
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c != TextContent.NO_FINAL_NEWLINE && !(c < 0x80 && RawCharUtil.isWhitespace((byte) c))) {
        kept.append(c);
      }
    }
    return kept.toString();
  }
}
