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

  /**
   * Seconds per class, from the fresh clone's run in docs/build.md ("What CI costs", 2026-12-03
   * evening), every class then (the first runtime tests there also paid the runtimes' installs,
   * which {@code .ci/run} now makes before the ITs: they count a little long).
   */
  private static final Map<String, Integer> SECONDS =
      Map.ofEntries(
          Map.entry("SessionFileEvidenceIT", 165),
          Map.entry("RewindProcessIT", 144),
          Map.entry("ProcessEvidenceIT", 124),
          Map.entry("ServiceProcessIT", 112),
          Map.entry("PanelReviewBrowserIT", 94),
          Map.entry("OneServicePerStoreIT", 86),
          Map.entry("HooksInstallProcessIT", 83),
          Map.entry("ClaudeCodeKnownGapsIT", 74),
          Map.entry("CodexKnownGapsIT", 71),
          Map.entry("CommandClientIT", 70),
          Map.entry("HookScriptIT", 64),
          Map.entry("ClaudeCodeHooksIT", 60),
          Map.entry("GeminiHooksIT", 52),
          Map.entry("LauncherIT", 42),
          Map.entry("PromptNoteIT", 41),
          Map.entry("CodexHooksIT", 37),
          Map.entry("GcProcessIT", 35),
          Map.entry("CliProcessIT", 34),
          Map.entry("PostgresProcessIT", 27),
          Map.entry("HookClientIT", 24),
          Map.entry("StoreProblemsProcessIT", 24),
          Map.entry("ColdStartIT", 23),
          Map.entry("UninstallProcessIT", 23),
          Map.entry("DoctorSocketIT", 22),
          Map.entry("ServeProcessIT", 21),
          Map.entry("HumanViewsProcessIT", 19),
          Map.entry("PanelSecurityBrowserIT", 19),
          Map.entry("ServeGcProcessIT", 19),
          Map.entry("OpenProcessIT", 13),
          Map.entry("PanelImageBrowserIT", 10),
          Map.entry("OpenCodePluginIT", 9),
          Map.entry("ServeHostileClientsIT", 7),
          Map.entry("ServeStoreOpenIT", 3),
          Map.entry("PromptHookContextIT", 2),
          Map.entry("ServiceStartupCacheIT", 2),
          Map.entry("ProductJarIT", 1));

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
