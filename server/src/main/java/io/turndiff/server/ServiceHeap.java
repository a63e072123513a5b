package io.turndiff.server;

import io.turndiff.capture.track.TrackSummary;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The service's heap, held near what the service keeps rather than at the peak of the largest thing
 * it did (docs/performance.md, "The service's heap after a track").
 *
 * <p>What a service keeps is small: after the turns of a 100,000-file workspace a full collection
 * left 25 MB of its heap in use. What it held was what its largest piece of work needed: a
 * workspace's first index (a track, by its endpoint or for a hook's {@code track=auto}) reads every
 * file and builds its entries, and G1 grows the heap to that peak (720 MB at 250,000 files) and
 * keeps it while the service is busy: 1.1 GB resident after the turns that followed.
 *
 * <p>Two things hold it down. The heap options: a collection that leaves more than 30 % of the heap
 * free gives the rest back, and after every 15 s without a collection G1 runs a concurrent cycle
 * (JEP 346) that does so, as long as the service is idle. The launchers give them to {@code serve};
 * a service started otherwise ({@code java -jar} from {@code service start}, or {@code open}) sets
 * them itself when it starts ({@link #settle}: they are manageable). And after a track of at least
 * {@value #GIVE_BACK_FROM_FILES} files, {@link #afterTrack} runs a full collection, which shrinks
 * the heap to what is live plus that 30 %: at 250,000 files, 0.55 s, once per workspace, before the
 * track's answer. Like every full collection it stops the service's other requests while it runs,
 * which a concurrent one would not, but a concurrent cycle gives back only at its end, seconds
 * later, with the turns that follow a track already under way. A smaller track's peak is left to
 * the young collections and the next concurrent cycle.
 *
 * <p>The heap a service starts from is the third thing, with the collector's time goal, and only a
 * JVM's command line gives them (64 MB and a fifth of the time, {@code
 * io.turndiff.service.InheritedStartUp}, unless the user gives every JVM a heap size): from the
 * JVM's default, a 64th of the machine's memory, G1 grew a service's small heap by 152–160 MB at
 * once in a run of turns.
 *
 * <p>What it does not do: it sets no maximum (a tree at the default budgets, a million files, must
 * still fit), and it does not shrink a heap that a long run of turns grew without a track until the
 * service is idle. The periodic cycle is G1's: under the serial collector (a JVM's default on a
 * machine with one processor or under 1,792 MB) only the ratios and the full collection apply.
 */
public final class ServiceHeap {

  /**
   * The size of a track from which its peak is given back. At 10,000 files a track's transient
   * (about 3 KB a file: the scan's entries, the contents read, the rows written) is some 30 MB,
   * which the heap holds after a growth the next concurrent cycle's remark gives back; a full
   * collection of the service's small live heap costs a few tens of milliseconds, once per
   * workspace.
   */
  static final int GIVE_BACK_FROM_FILES = 10_000;

  /**
   * The manageable options a service sets, in this order: the JVM refuses a maximum free ratio
   * below the minimum's default of 40.
   */
  private static final Map<String, String> OPTIONS = options();

  private ServiceHeap() {}

  private static Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("MinHeapFreeRatio", "10");
    options.put("MaxHeapFreeRatio", "30");
    options.put("G1PeriodicGCInterval", "15000");
    return options;
  }

  /**
   * Sets the service's heap options that nothing set at the JVM's start; a JVM that refuses one (a
   * ratio set against it at the start) is named on {@code log} and runs as it is, as does one
   * without HotSpot's diagnostic bean (a release's runtime, whose launcher gives them).
   */
  public static void settle(PrintStream log) {
    HotSpotOptions.ofThisJvm()
        .ifPresent(
            jvm ->
                OPTIONS.forEach(
                    (name, value) -> {
                      try {
                        if (jvm.isDefault(name)) {
                          jvm.set(name, value);
                        }
                      } catch (IllegalArgumentException e) {
                        log.println(
                            "turndiff serve: the heap option "
                                + name
                                + "="
                                + value
                                + " was not set: "
                                + e.getMessage());
                      }
                    }));
  }

  /** After a track of {@code summary}'s size, gives its peak back ({@link ServiceHeap}). */
  static void afterTrack(TrackSummary summary) {
    if (summary.files() >= GIVE_BACK_FROM_FILES) {
      // a full collection, which ends by uncommitting what is free beyond MaxHeapFreeRatio's 30 %
      System.gc();
    }
  }
}
