package io.turndiff.service;

import java.nio.file.Path;
import java.util.Map;

/**
 * What {@link LazyHttpClientTest} runs in a JVM of its own: a probe of a run directory with no
 * discovery file, then {@link ServiceProbe#prepareClient()}, printing after each the number of the
 * JDK HTTP client's selector threads alive (one per client built) and, after the probe, what it
 * found.
 */
public final class LazyHttpClientProbe {

  private LazyHttpClientProbe() {}

  public static void main(String[] args) throws Exception {
    ServiceFiles files =
        ServiceFiles.of(Path.of(args[0], "store.db"), Map.of("XDG_RUNTIME_DIR", args[0]));
    files.prepare();
    ServiceProbe.Found found = ServiceProbe.probe(files);
    System.out.println(found.getClass().getSimpleName() + " " + selectorThreads());
    ServiceProbe.prepareClient();
    System.out.println("prepared " + selectorThreads());
  }

  private static long selectorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().matches("HttpClient-\\d+-SelectorManager"))
        .count();
  }
}
