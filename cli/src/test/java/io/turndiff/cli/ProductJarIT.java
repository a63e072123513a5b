package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The product jar, {@code cli/target/turndiff.jar}: the command line without the benchmarks or JMH.
 */
class ProductJarIT {

  @Test
  void theProductJarCarriesNoBenchmarkAndNoJmh() throws Exception {
    try (JarFile jar = new JarFile(CliProcess.jar().toFile())) {
      List<String> benchmarks =
          jar.stream()
              .map(ZipEntry::getName)
              .filter(
                  name ->
                      name.startsWith("org/openjdk/jmh/")
                          || name.startsWith("io/turndiff/bench/")
                          || name.equals("META-INF/BenchmarkList")
                          || name.equals("META-INF/CompilerHints"))
              .toList();
      assertEquals(List.of(), benchmarks);
      assertEquals(
          "io.turndiff.cli.Main", jar.getManifest().getMainAttributes().getValue("Main-Class"));
    }
  }

  @Test
  void theProductJarHasNoTestHookAndReadsNoTestVariable() throws Exception {
    try (JarFile jar = new JarFile(CliProcess.jar().toFile())) {
      List<String> knobs = new ArrayList<>();
      for (JarEntry entry : Collections.list(jar.entries())) {
        if (!entry.getName().startsWith("io/turndiff/") || !entry.getName().endsWith(".class")) {
          continue;
        }
        try (InputStream in = jar.getInputStream(entry)) {
          String constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
          if (constants.contains(EnvTestHook.PREFIX)
              || entry.getName().startsWith("io/turndiff/cli/EnvTestHook")) {
            knobs.add(entry.getName());
          }
        }
      }
      assertEquals(List.of(), knobs, "no test-only knob in the product");
    }
  }

  /**
   * The JVM puts no class file older than Java 6 (major version 50) in an ahead-of-time cache: a
   * one-shot command loads, verifies and links such classes from the jar at every start. picocli's
   * released jar is Java 5 class files (its 171 classes a command loads were the only ones of the
   * jar not in the cache), so the build compiles picocli from its source jar instead.
   */
  @Test
  void everyClassOfTheProductJarCanGoIntoTheStartupCache() throws Exception {
    try (JarFile jar = new JarFile(CliProcess.jar().toFile())) {
      List<String> tooOld = new ArrayList<>();
      for (JarEntry entry : Collections.list(jar.entries())) {
        if (!entry.getName().endsWith(".class") || entry.getName().startsWith("META-INF/")) {
          continue;
        }
        try (InputStream in = jar.getInputStream(entry)) {
          byte[] header = in.readNBytes(8);
          int major = ((header[6] & 0xff) << 8) | (header[7] & 0xff);
          if (major < 50) {
            tooOld.add(entry.getName() + " (class file version " + major + ")");
          }
        }
      }
      assertEquals(
          0,
          tooOld.size(),
          tooOld.size()
              + " class files the JVM cannot put in its start-up cache, first: "
              + tooOld.subList(0, Math.min(5, tooOld.size())));
    }
  }

  @Test
  void itsBenchCommandSaysWhereTheBenchmarksAre() throws Exception {
    CommandRun run = CliProcess.run(Map.of(), "bench", "http", "--calls", "5").expect(2);
    assertTrue(run.err().contains("benchmarks live in the bench jar: ./turndiff bench"), run.err());
    assertEquals("", run.out());
  }
}
