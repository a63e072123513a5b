package io.turndiff.server;

import io.turndiff.capture.track.IgnoredFiles;
import io.turndiff.capture.track.IgnoredFilesSeen;
import io.turndiff.capture.track.TrackSummary;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM of its own for {@link ServiceHeapTest}: what {@link ServiceHeap} does to a heap changes the
 * whole JVM, so it is watched in one started for it. {@code options} prints the heap options after
 * {@link ServiceHeap#settle}; {@code diagnostics} whether it could ask for them; {@code track N}
 * settles, grows the heap with a transient the size of a large track's, lets it go, and prints the
 * committed heap before and after a track of {@code N} files.
 */
final class ServiceHeapProbe {

  private ServiceHeapProbe() {}

  public static void main(String[] args) {
    ServiceHeap.settle(System.out);
    if (args[0].equals("diagnostics")) {
      System.out.println("diagnostics " + HotSpotOptions.ofThisJvm().isPresent());
      return;
    }
    if (args[0].equals("options")) {
      HotSpotOptions jvm = HotSpotOptions.ofThisJvm().orElseThrow();
      for (String name : List.of("MinHeapFreeRatio", "MaxHeapFreeRatio", "G1PeriodicGCInterval")) {
        System.out.println(name + "=" + jvm.value(name));
      }
      return;
    }
    grow();
    long before = committed();
    ServiceHeap.afterTrack(
        new TrackSummary(
            "/w",
            Integer.parseInt(args[1]),
            0,
            0,
            false,
            List.of(),
            List.of(),
            0,
            new IgnoredFilesSeen(IgnoredFiles.NONE, 0, 0, List.of())));
    System.out.println("committed " + before + " " + committed());
  }

  /**
   * 300 MB held through several collections, as a track holds its scan, then let go (arrays a
   * little under 1 MB: not humongous in G1's 1 MB regions of a small heap).
   */
  private static void grow() {
    List<byte[]> held = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      held.add(new byte[(1 << 20) - 64]);
    }
    System.out.println("held " + held.size());
  }

  private static long committed() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
  }
}
