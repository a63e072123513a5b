package io.turndiff.dist;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A user's machine without a JDK (and, unless asked, without Node): each command runs in a private
 * mount namespace ({@code unshare -m}) where a tmpfs hides {@code /usr/lib/jvm} (so {@code java}
 * and every JDK are gone) and {@code node}, {@code nodejs} and npm's own folder are covered by a
 * script that only says it is hidden; the environment is a user's: {@code PATH}, {@code HOME} and
 * {@code XDG_RUNTIME_DIR} of this sandbox, no {@code JAVA_HOME}. Folders can be made read-only in
 * it (a bind mount remounted {@code ro}: read-only for root too), as a release installed by a
 * package manager is. Needs root (CI runs as root; the test is skipped otherwise, saying why).
 *
 * <p>A process a command leaves running (the per-user service) keeps its namespace.
 */
final class Sandbox {

  private static final String SETUP =
      """
      set -e
      node=$1 stub=$2 readonly=$3
      shift 3
      mount -t tmpfs -o size=1m turndiff-test-no-jdk /usr/lib/jvm
      if [ "$node" = hide ]; then
        for f in /usr/bin/node /usr/bin/nodejs /usr/local/bin/node; do
          if [ -e "$f" ]; then mount --bind "$stub" "$f"; fi
        done
        if [ -d /usr/lib/node_modules ]; then
          mount -t tmpfs -o size=1m turndiff-test-no-node /usr/lib/node_modules
        fi
      fi
      if [ -n "$readonly" ]; then
        mount --bind "$readonly" "$readonly"
        mount -o remount,bind,ro "$readonly"
      fi
      exec "$@"
      """;

  private final Path home;
  private final Path runtimeDirectory;
  private final Path stub;
  private final Map<String, String> extra = new LinkedHashMap<>();
  private boolean node;
  private Path readOnly;

  private Sandbox(Path root) throws IOException {
    this.home = Files.createDirectories(root.resolve("home"));
    this.runtimeDirectory =
        Files.createDirectories(
            root.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    this.stub = root.resolve("hidden");
    Files.writeString(stub, "#!/bin/sh\necho \"$0: hidden by the test\" >&2\nexit 127\n");
    Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A user whose home and run directory are in {@code root}. */
  static Sandbox in(Path root) throws IOException {
    assumeTrue(TestWorkspace.isRoot(), "hiding the JDKs takes a mount namespace: root only");
    return new Sandbox(root);
  }

  Path home() {
    return home;
  }

  /** Node and npm stay visible (for npm's own commands). */
  Sandbox withNode() {
    node = true;
    return this;
  }

  /** {@code folder} is read-only in the namespace. */
  Sandbox readOnly(Path folder) {
    readOnly = folder;
    return this;
  }

  Sandbox env(String name, String value) {
    extra.put(name, value);
    return this;
  }

  CommandRun run(String... command) throws Exception {
    return run(new byte[0], command);
  }

  /** {@code program} (a turndiff launcher) with {@code args}. */
  CommandRun run(Path program, String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = program.toString();
    System.arraycopy(args, 0, command, 1, args.length);
    return run(command);
  }

  /** Runs {@code command} to completion (at most three minutes) with {@code stdin} as its input. */
  CommandRun run(byte[] stdin, String... command) throws Exception {
    List<String> line =
        new ArrayList<>(
            List.of(
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                SETUP,
                "sandbox",
                node ? "keep" : "hide",
                stub.toString(),
                readOnly == null ? "" : readOnly.toString()));
    line.addAll(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(line).directory(home.toFile());
    Map<String, String> environment = builder.environment();
    environment.clear();
    environment.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    environment.put("HOME", home.toString());
    environment.put("XDG_RUNTIME_DIR", runtimeDirectory.toString());
    environment.putAll(extra);
    return CommandRun.ofProcess(builder, stdin, Duration.ofMinutes(3));
  }
}
