package io.turndiff.diff;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.HistogramDiff;

/**
 * Unified-diff hunks between two texts, as git makes them: 3 lines of context (or as many as a
 * reader asks for, {@link DiffOptions}), hunks closer than twice that merged, {@code \ No newline
 * at end of file} after a last line without one.
 *
 * <p>JGit's histogram diff computes the edits (git's {@code diff --histogram}); the hunks are made
 * here because the output must apply with {@code git apply}, with git's numbering of empty ranges
 * and its no-newline marker. The work is bounded by a {@link DiffBudget} counted in line
 * comparisons, not by the file's size: a small change of a big file is a small hunk, and a file
 * that would take longer becomes one whole-middle hunk.
 */
final class LineDiff {

  static final int CONTEXT = 3;

  private LineDiff() {}

  /**
   * A change: {@code oldCount} lines at {@code oldStart} became {@code newCount} at {@code
   * newStart} (0-based).
   */
  record Edit(int oldStart, int oldCount, int newStart, int newCount) {}

  /**
   * One hunk: where it starts in each text, and its lines as {@code ' '}, {@code '-'} or {@code
   * '+'} lines.
   */
  record Hunk(
      int oldFrom, int newFrom, List<String> oldLines, List<String> newLines, List<Line> lines) {}

  record Line(char sign, String text) {}

  /** The unified-diff text, its counts of added and removed lines, and the steps the diff took. */
  record Result(String hunks, int added, int removed, long steps) {}

  /** The hunks of the change from {@code before} to {@code after}, with 3 lines of context. */
  static List<Hunk> hunks(List<String> before, List<String> after) {
    return hunks(before, after, new DiffSteps(DiffBudget.DEFAULT), DiffOptions.DEFAULT);
  }

  /**
   * The hunks with {@code options}' context. A context line is drawn as the after-text has it (as
   * git draws it): ignoring whitespace, it may differ from the before-text's line in whitespace.
   */
  private static List<Hunk> hunks(
      List<String> before, List<String> after, DiffSteps steps, DiffOptions options) {
    int context = options.context();
    List<Edit> edits = edits(before, after, steps, options);
    List<Hunk> hunks = new ArrayList<>();
    int offset = 0; // lines added minus lines removed by the edits before the current hunk
    int i = 0;
    while (i < edits.size()) {
      int j = i;
      int lastEnd = edits.get(i).oldStart() + edits.get(i).oldCount();
      while (j + 1 < edits.size() && edits.get(j + 1).oldStart() - lastEnd <= 2L * context) {
        j++;
        lastEnd = Math.max(lastEnd, edits.get(j).oldStart() + edits.get(j).oldCount());
      }
      int oldFrom = Math.max(0, edits.get(i).oldStart() - context);
      int newFrom = oldFrom + offset;
      int oldTo = (int) Math.min(before.size(), (long) lastEnd + context);
      List<Line> lines = new ArrayList<>();
      List<String> oldLines = new ArrayList<>();
      List<String> newLines = new ArrayList<>();
      int oldAt = oldFrom;
      for (int k = i; k <= j; k++) {
        Edit edit = edits.get(k);
        while (oldAt < edit.oldStart()) {
          context(before.get(oldAt), after.get(oldAt + offset), lines, oldLines, newLines);
          oldAt++;
        }
        for (int n = 0; n < edit.oldCount(); n++) {
          String line = before.get(edit.oldStart() + n);
          lines.add(new Line('-', line));
          oldLines.add(line);
        }
        for (int n = 0; n < edit.newCount(); n++) {
          String line = after.get(edit.newStart() + n);
          lines.add(new Line('+', line));
          newLines.add(line);
        }
        oldAt = Math.max(oldAt, edit.oldStart() + edit.oldCount());
        offset += edit.newCount() - edit.oldCount();
      }
      while (oldAt < oldTo) {
        context(before.get(oldAt), after.get(oldAt + offset), lines, oldLines, newLines);
        oldAt++;
      }
      hunks.add(new Hunk(oldFrom, newFrom, oldLines, newLines, lines));
      i = j + 1;
    }
    return hunks;
  }

  private static void context(
      String oldLine,
      String newLine,
      List<Line> lines,
      List<String> oldLines,
      List<String> newLines) {
    lines.add(new Line(' ', newLine));
    oldLines.add(oldLine);
    newLines.add(newLine);
  }

  /** The hunks as unified-diff text, with the counts of added and removed lines. */
  static Result diff(List<String> before, List<String> after) {
    return diff(before, after, DiffBudget.DEFAULT);
  }

  static Result diff(List<String> before, List<String> after, DiffBudget budget) {
    return diff(before, after, budget, DiffOptions.DEFAULT);
  }

  /** The hunks as {@code options} draw them. */
  static Result diff(
      List<String> before, List<String> after, DiffBudget budget, DiffOptions options) {
    StringBuilder out = new StringBuilder();
    int added = 0;
    int removed = 0;
    DiffSteps steps = new DiffSteps(budget);
    for (Hunk hunk : hunks(before, after, steps, options)) {
      out.append("@@ -")
          .append(range(hunk.oldFrom(), hunk.oldLines().size()))
          .append(" +")
          .append(range(hunk.newFrom(), hunk.newLines().size()))
          .append(" @@\n");
      for (Line line : hunk.lines()) {
        append(out, line);
        added += line.sign() == '+' ? 1 : 0;
        removed += line.sign() == '-' ? 1 : 0;
      }
    }
    return new Result(out.toString(), added, removed, steps.taken());
  }

  /**
   * git's range: {@code start,count}, {@code start} alone for one line, the line before for an
   * empty range.
   */
  private static String range(int from, int count) {
    if (count == 1) {
      return Integer.toString(from + 1);
    }
    return (count == 0 ? from : from + 1) + "," + count;
  }

  private static void append(StringBuilder out, Line line) {
    String text = line.text();
    out.append(line.sign());
    if (!text.isEmpty() && text.charAt(text.length() - 1) == TextContent.NO_FINAL_NEWLINE) {
      out.append(text, 0, text.length() - 1).append("\n\\ No newline at end of file\n");
    } else {
      out.append(text).append('\n');
    }
  }

  /**
   * The edits from {@code before} to {@code after}: the common head and tail are skipped, the
   * middle goes to JGit's histogram diff (git's {@code --histogram}: lines unique to a stretch
   * anchor it, so a small change of a big file is a small edit), whose stretches without such
   * anchors get a budgeted Myers diff. Past the budget the whole middle is one edit.
   */
  static List<Edit> edits(List<String> before, List<String> after, DiffSteps steps) {
    return edits(before, after, steps, DiffOptions.DEFAULT);
  }

  /** The edits, with lines compared in {@code options}' {@link DiffOptions#comparedForm}. */
  private static List<Edit> edits(
      List<String> lines, List<String> otherLines, DiffSteps steps, DiffOptions options) {
    List<String> before = options.ignoreAllSpace() ? compared(lines, options) : lines;
    List<String> after = options.ignoreAllSpace() ? compared(otherLines, options) : otherLines;
    int head = 0;
    int maxHead = Math.min(before.size(), after.size());
    while (head < maxHead && before.get(head).equals(after.get(head))) {
      head++;
    }
    int tail = 0;
    while (tail < maxHead - head
        && before.get(before.size() - 1 - tail).equals(after.get(after.size() - 1 - tail))) {
      tail++;
    }
    List<String> oldMiddle = before.subList(head, before.size() - tail);
    List<String> newMiddle = after.subList(head, after.size() - tail);
    List<Edit> edits = new ArrayList<>();
    if (oldMiddle.isEmpty() && newMiddle.isEmpty()) {
      return edits;
    }
    Edit wholeMiddle = new Edit(head, oldMiddle.size(), head, newMiddle.size());
    if (oldMiddle.isEmpty() || newMiddle.isEmpty()) {
      edits.add(wholeMiddle);
      return edits;
    }
    NumberedLines[] numbered = NumberedLines.of(oldMiddle, newMiddle);
    HistogramDiff histogram = new HistogramDiff();
    histogram.setFallbackAlgorithm(new BoundedMyers(steps));
    EditList found;
    try {
      found = histogram.diff(new NumberedLines.Comparator(steps), numbered[0], numbered[1]);
    } catch (DiffSteps.Exhausted exhausted) {
      edits.add(wholeMiddle);
      return edits;
    }
    for (org.eclipse.jgit.diff.Edit edit : found) {
      edits.add(
          new Edit(
              head + edit.getBeginA(),
              edit.getLengthA(),
              head + edit.getBeginB(),
              edit.getLengthB()));
    }
    // by position in the old text; at one position, removed lines come before added ones, as git
    // writes them
    edits.sort(
        (a, b) ->
            a.oldStart() != b.oldStart()
                ? Integer.compare(a.oldStart(), b.oldStart())
                : Boolean.compare(a.oldCount() == 0, b.oldCount() == 0));
    return edits;
  }

  private static List<String> compared(List<String> lines, DiffOptions options) {
    return lines.stream().map(options::comparedForm).toList();
  }
}
