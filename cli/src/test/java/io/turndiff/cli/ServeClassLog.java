package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a service's start loaded, and from where: {@code serve --daemon} started with the JVM's
 * class log ({@code -Xlog:class+load=info:file=…}), stopped once it says it listens, its log read.
 */
final class ServeClassLog {

  private final List<String> lines;

  private ServeClassLog(List<String> lines) {
    this.lines = lines;
  }

  /**
   * The arguments after the jar that start {@code serve --daemon} on a store of its own, its run
   * files in {@code run} (a folder that exists).
   */
  static List<String> serveArguments(Path store, Path run) {
    return List.of(
        "serve",
        "--db",
        store.toString(),
        "--daemon",
        "--discovery",
        run.resolve("d.json").toString(),
        "--token-file",
        run.resolve("t.token").toString(),
        "--port",
        "0",
        "--socket",
        run.resolve("t.sock").toString());
  }

  /**
   * Starts {@code serve}, whose JVM writes its class log to {@code classLog}, until it listens;
   * stops it and reads the log.
   */
  static ServeClassLog of(ProcessBuilder serve, Path classLog) throws Exception {
    Process process = serve.redirectErrorStream(true).start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      // serve prints one JSON line once it listens and its files are published
      String line = out.readLine();
      while (line != null && !line.startsWith("{\"url\"")) {
        line = out.readLine();
      }
      assertTrue(line != null, "serve did not say it started");
    } finally {
      process.destroy();
      process.waitFor(60, TimeUnit.SECONDS);
    }
    return new ServeClassLog(Files.readAllLines(classLog, StandardCharsets.UTF_8));
  }

  /**
   * Where the class {@code name} came from, as the log says it ({@code NAME source: shared objects
   * file} for the cache), or that it was not loaded.
   */
  String source(String name) {
    String line =
        lines.stream()
            .filter(entry -> entry.contains(" " + name + " source:"))
            .findFirst()
            .orElse(name + " not loaded");
    return line.substring(line.indexOf(name));
  }
}
