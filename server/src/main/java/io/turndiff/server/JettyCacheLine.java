package io.turndiff.server;

import java.util.OptionalInt;

/**
 * Tells Jetty how many object references fit in one CPU cache line before any of its classes is
 * initialised, so that it does not look the number up itself.
 *
 * <p>Jetty's {@code MemoryUtils} pads its counters to a cache line; unless the system property
 * {@value #PROPERTY} names the number, its static initialiser asks {@code
 * ManagementFactory.getPlatformMBeanServer()} whether the JVM uses compressed object pointers. That
 * one call creates the platform MBean server and registers every platform MXBean in it, the flight
 * recorder's included, which parses the recorder's configuration files: about 1,000 classes and 0.2
 * s of a quiet service's start (0.7–1.0 s at a load average of 15), on the path between a hook's
 * "service not up" and its call delivered, for a number the JVM gives in 50 ms through the one
 * MXBean it comes from (measured in docs/service.md, "Cold start").
 *
 * <p>The number is Jetty's own: the cache line's bytes ({@value #CACHE_LINE_PROPERTY}, 64 unless
 * set) over 4 bytes a reference with compressed pointers, 8 without. A property set already (by the
 * user, {@code -D}) is kept; when the JVM does not say, nothing is set and Jetty asks as before.
 */
final class JettyCacheLine {

  static final String PROPERTY = "org.eclipse.jetty.util.referencesPerCacheLine";
  static final String CACHE_LINE_PROPERTY = "org.eclipse.jetty.util.cacheLineBytes";

  private JettyCacheLine() {}

  /** Sets {@value #PROPERTY} unless it is set or the JVM does not say how wide a reference is. */
  static void tellJetty() {
    if (System.getProperty(PROPERTY) == null) {
      referencesPerLine().ifPresent(count -> System.setProperty(PROPERTY, Integer.toString(count)));
    }
  }

  /** What Jetty would find: the cache line's bytes over the bytes of one reference. */
  static OptionalInt referencesPerLine() {
    int lineBytes;
    try {
      lineBytes = Integer.parseInt(System.getProperty(CACHE_LINE_PROPERTY, "64"));
    } catch (NumberFormatException e) {
      lineBytes = 64; // Jetty falls back to it too
    }
    OptionalInt referenceBytes = referenceBytes();
    return referenceBytes.isPresent()
        ? OptionalInt.of(lineBytes / referenceBytes.getAsInt())
        : OptionalInt.empty();
  }

  /**
   * 4 with compressed references, 8 without, as the JVM's {@code UseCompressedOops} says; 4 when
   * the runtime has no {@code jdk.management} module to ask (a release's runtime, linked without
   * it), which is what Jetty itself falls back to there after creating the MBean server in vain.
   */
  private static OptionalInt referenceBytes() {
    if (!HotSpotOptions.runtimeHasDiagnostics()) {
      return OptionalInt.of(4);
    }
    try {
      return HotSpotOptions.ofThisJvm()
          .map(jvm -> OptionalInt.of(Boolean.parseBoolean(jvm.value("UseCompressedOops")) ? 4 : 8))
          .orElse(OptionalInt.empty()); // not HotSpot: Jetty then asks itself, and copes
    } catch (IllegalArgumentException noSuchOption) {
      return OptionalInt.empty();
    }
  }
}
