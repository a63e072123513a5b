package io.turndiff.cli;

import java.util.Comparator;
import java.util.Map;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * The process tests' classes, longest first (Failsafe, {@code cli/pom.xml}): two run at a time, and
 * a long class started last is a lane that ends alone while the other core idles. The times are
 * class times measured in a run of the whole set (docs/build.md, "What CI costs"); a class not
 * listed counts as {@link #UNMEASURED} seconds, and classes of equal time keep their names' order.
 * An estimate off by a few seconds only moves where a class starts; nothing depends on the order.
 */
public final class LongestFirst implements ClassOrderer {

  /** What a class not yet measured counts as: about the middle of the measured ones. */
  static final int UNMEASURED = 30;

  /** Seconds per class, from the run in docs/build.md. */
  private static final Map<String, Integer> SECONDS =
      Map.ofEntries(
          Map.entry("RewindProcessIT", 160),
          Map.entry("SessionFileEvidenceIT", 103),
          Map.entry("PanelReviewBrowserIT", 94),
          Map.entry("ServiceProcessIT", 82),
          Map.entry("HooksInstallProcessIT", 77),
          Map.entry("CommandClientIT", 75),
          Map.entry("ClaudeCodeKnownGapsIT", 61),
          Map.entry("CodexKnownGapsIT", 57),
          Map.entry("PanelSecurityBrowserIT", 48),
          Map.entry("PostgresProcessIT", 46));

  @Override
  public void orderClasses(ClassOrdererContext context) {
    context
        .getClassDescriptors()
        .sort(
            Comparator.comparingInt(LongestFirst::seconds)
                .reversed()
                .thenComparing(descriptor -> descriptor.getTestClass().getSimpleName()));
  }

  private static int seconds(ClassDescriptor descriptor) {
    return SECONDS.getOrDefault(descriptor.getTestClass().getSimpleName(), UNMEASURED);
  }
}
