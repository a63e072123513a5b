package io.turndiff.diff;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.diff.Sequence;
import org.eclipse.jgit.diff.SequenceComparator;

/**
 * Lines as numbers for JGit's diff algorithms: equal lines of both texts get the same number, so
 * that a comparison costs one int compare whatever the lines' length, and every comparison is a
 * counted step.
 */
final class NumberedLines extends Sequence {

  private final int[] numbers;

  private NumberedLines(int[] numbers) {
    this.numbers = numbers;
  }

  /** Numbers both texts with one numbering: {@code [before, after]}. */
  static NumberedLines[] of(List<String> before, List<String> after) {
    Map<String, Integer> numbering = HashMap.newHashMap(before.size() + after.size());
    return new NumberedLines[] {number(before, numbering), number(after, numbering)};
  }

  private static NumberedLines number(List<String> lines, Map<String, Integer> numbering) {
    int[] numbers = new int[lines.size()];
    for (int i = 0; i < numbers.length; i++) {
      Integer known = numbering.putIfAbsent(lines.get(i), numbering.size());
      numbers[i] = known == null ? numbering.size() - 1 : known;
    }
    return new NumberedLines(numbers);
  }

  @Override
  public int size() {
    return numbers.length;
  }

  /** Compares lines by number, one {@link DiffSteps#histogramStep} each. */
  static final class Comparator extends SequenceComparator<NumberedLines> {

    private final DiffSteps steps;

    Comparator(DiffSteps steps) {
      this.steps = steps;
    }

    @Override
    public boolean equals(NumberedLines a, int ai, NumberedLines b, int bi) {
      steps.histogramStep();
      return a.numbers[ai] == b.numbers[bi];
    }

    @Override
    public int hash(NumberedLines lines, int i) {
      // spread the numbers: JGit's histogram index buckets by the hash's high bits
      return lines.numbers[i] * 0x9E3779B9;
    }
  }
}
