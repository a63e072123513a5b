package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.wire.WireBeganTurn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The workload the launcher trains its ahead-of-time cache on ({@code -XX:AOTCacheOutput}): the
 * one-shot commands users and hooks run, each once, in one JVM — {@code demo} (capture, queries and
 * the store end to end), {@code --version}, {@code track}, {@code status}, {@code turn begin},
 * {@code snapshot}, {@code show}, {@code turns}, {@code turn finish}, {@code diff} and {@code
 * rewind} (its dry run, then the rewind) on a small tracked workspace — so that the classes each of
 * them loads are in the cache, not only those {@code demo} loads. Everything it writes (the store
 * named by its one argument, the workspace) goes to the temporary folder the launcher gives it.
 */
public final class AotTraining {

  private AotTraining() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: AotTraining STORE");
    }
    ServiceTraining.exitWhenDone(
        () -> {
          commands(args[0]);
          ServiceTraining.run(Path.of(args[0]), Path.of(System.getProperty("java.io.tmpdir")));
        });
  }

  /** The one-shot commands, each once, on {@code store}. */
  static void commands(String store) throws IOException {
    run("--db", store, "demo");
    run("--version");
    DemoWorkspace workspace = DemoWorkspace.create("AOT_TRAINING=nothing secret");
    for (int i = 0; i < 40; i++) {
      workspace.write("src/module" + i % 4 + "/File" + i + ".java", "class File" + i + " {}\n");
    }
    String root = workspace.root().toString();
    run("--db", store, "track", "--workspace", root);
    workspace.write("src/module1/File1.java", "class File1 { int changed; }\n");
    run("--db", store, "status", "--workspace", root);
    String turn =
        Json.read(
                run("--db", store, "turn", "begin", "--workspace", root, "--session", "training"),
                WireBeganTurn.class)
            .orElseThrow()
            .turn();
    run("--db", store, "snapshot", "--turn", turn, "src/module2/File2.java");
    workspace.write("src/module2/File2.java", "class File2 { int edited; }\n");
    run("--db", store, "show", "--turn", turn);
    run("--db", store, "turns", "--workspace", root);
    run("--db", store, "turn", "finish", "--turn", turn);
    run("--db", store, "diff", "--turn", turn);
    // The rewind is the one-shot command a user runs when a turn went wrong. Without it here, 84
    // classes of its planner, journal and report were read from the jar, verified and linked at
    // each run; with it, one (docs/performance.md, the last section, "Start-up of a one-shot
    // command").
    run("--db", store, "rewind", "--turn", turn, "--dry-run");
    run("--db", store, "rewind", "--turn", turn);
    run("--db", store, "status", "--workspace", root);
  }

  /** Runs one command line as the launcher would; returns what it printed, fails if it failed. */
  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream nowhere =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), nowhere);
    if (exit != ExitCode.OK.code()) {
      throw new IllegalStateException(
          "training: turndiff " + String.join(" ", args) + " exited " + exit);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
