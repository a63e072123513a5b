package io.turndiff.diff;

import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.MyersDiff;
import org.eclipse.jgit.diff.Sequence;
import org.eclipse.jgit.diff.SequenceComparator;

/**
 * JGit's Myers diff, for the stretches the histogram diff gives up on (every line they share
 * repeats too often), with each comparison counted against the budget: a stretch whose diff runs
 * out of steps becomes one replace edit, and once the budget is gone every later stretch does too.
 */
final class BoundedMyers extends DiffAlgorithm {

  private final DiffSteps steps;

  BoundedMyers(DiffSteps steps) {
    this.steps = steps;
  }

  @Override
  public <S extends Sequence> EditList diffNonCommon(SequenceComparator<? super S> cmp, S a, S b) {
    if (!steps.fallbackExhausted()) {
      try {
        return steps.inFallback(
            () -> MyersDiff.INSTANCE.diffNonCommon(new Counted<S>(cmp, steps), a, b));
      } catch (DiffSteps.Exhausted exhausted) {
        // this stretch becomes one replace edit
      }
    }
    EditList replace = new EditList(1);
    replace.add(new Edit(0, a.size(), 0, b.size()));
    return replace;
  }

  /**
   * Counts every comparison. All hashes are equal on purpose: JGit compares hashes before it asks
   * the comparator, and a comparison it answered from the hashes alone would be work the budget
   * never saw.
   */
  private static final class Counted<S extends Sequence> extends SequenceComparator<S> {

    private final SequenceComparator<? super S> inner;
    private final DiffSteps steps;

    Counted(SequenceComparator<? super S> inner, DiffSteps steps) {
      this.inner = inner;
      this.steps = steps;
    }

    @Override
    public boolean equals(S a, int ai, S b, int bi) {
      steps.fallbackStep();
      return inner.equals(a, ai, b, bi);
    }

    @Override
    public int hash(S sequence, int i) {
      return 0;
    }
  }
}
