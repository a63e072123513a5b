package io.turndiff.cli;

import io.turndiff.api.Json;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One run of the {@code turndiff} command line: exit code, stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

  /** Runs {@link Main#run} in this JVM, with its own output streams. */
  static CliRun inProcess(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  JsonNode json() {
    try {
      return Json.mapper().readTree(out);
    } catch (Exception e) {
      throw new AssertionError("not JSON (exit " + exitCode + ", stderr: " + err + "):\n" + out, e);
    }
  }

  CliRun expect(int code) {
    if (exitCode != code) {
      throw new AssertionError("expected exit " + code + " but was " + exitCode + "\nstdout: " + out
          + "\nstderr: " + err);
    }
    return this;
  }
}
