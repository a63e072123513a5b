package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import java.util.List;
import java.util.Map;
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
  void itsBenchCommandSaysWhereTheBenchmarksAre() throws Exception {
    CommandRun run = CliProcess.run(Map.of(), "bench", "http", "--calls", "5").expect(2);
    assertTrue(run.err().contains("benchmarks live in the bench jar: ./turndiff bench"), run.err());
    assertEquals("", run.out());
  }
}
