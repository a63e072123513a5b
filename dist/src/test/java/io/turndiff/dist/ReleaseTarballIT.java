package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release tarball, unpacked into a temporary folder and run as a user runs it on a machine with
 * no JDK and no Node ({@link Sandbox}), from a read-only folder (nothing is written beside the
 * jar): {@code --version}, {@code demo}, the hooks installed into a workspace, a turn through the
 * hook script, which starts the service on the release's runtime and its AOT cache, a rewind, the
 * service stopped.
 */
class ReleaseTarballIT {

  /** Unpacked once for the class: no test writes into it (it is read-only in the sandbox). */
  @TempDir static Path unpacked;

  private static Path release;

  @TempDir Path temp;

  private Sandbox user;
  private ServiceProcess service;

  @BeforeAll
  static void unpack() throws Exception {
    release = Release.unpack(unpacked);
  }

  @BeforeEach
  void setUp() throws Exception {
    user = Sandbox.in(temp.resolve("user")).readOnly(release).env("TURNDIFF_HOOK_START_WAIT", "60");
  }

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.kill();
    }
  }

  private CommandRun turndiff(String... args) throws Exception {
    return user.run(release.resolve("bin/turndiff"), args);
  }

  @Test
  void itRunsWithoutAJdkOrNodeFromAReadOnlyFolder() throws Exception {
    CommandRun hidden =
        user.run("sh", "-c", "ls -A /usr/lib/jvm; java -version; node --version; echo $JAVA_HOME");
    assertEquals("\n", hidden.out(), hidden.out() + hidden.err());
    assertTrue(hidden.err().contains("java: not found"), hidden.err());
    assertTrue(hidden.err().contains("node: hidden by the test"), hidden.err());

    CommandRun version = turndiff("--version").expect(0);
    assertEquals("turndiff " + Release.productVersion() + "\n", version.out());
    // the JVM's own warnings go to stderr: none, so the AOT cache was taken as it is
    assertEquals("", version.err());

    CommandRun demo = turndiff("demo").expect(0);
    assertTrue(
        demo.out()
            .contains(
                "canary: the outside secret appears 0 times in the store file, its WAL, the"
                    + " records and the patch"),
        demo.out());
    assertEquals("", demo.err());
  }

  @Test
  void hooksATurnThroughTheServiceAndItsRewind() throws Exception {
    Path workspace = ClaudeCodeTurn.project(temp.resolve("project"));

    // the first hook finds no service and starts it through the release's own launcher
    service =
        ClaudeCodeTurn.installedAndUsed(
            user,
            release.resolve("bin/turndiff"),
            workspace,
            release.resolve("bin/turndiff-hook-client"));

    assertEquals(release.resolve("runtime/bin/java"), service.executable());
    assertTrue(service.maps().contains(release.resolve("lib/turndiff.aot").toString()));
    // the service's allocator setting, which the release's launcher gives serve
    assertTrue(
        service.environment().contains("MALLOC_ARENA_MAX=2"), service.environment().toString());
    // and the heap it starts from and the collector's goal, which the release's launcher gives
    // serve (why: io.turndiff.service.InheritedStartUp)
    assertTrue(
        service.arguments().containsAll(List.of("-XX:InitialHeapSize=64m", "-XX:GCTimeRatio=4")),
        service.arguments().toString());
    JsonNode sessions =
        turndiff("turns", "--workspace", workspace.toString()).expect(0).json().get("sessions");
    assertEquals(1, sessions.size(), sessions.toString());
    JsonNode turn = sessions.get(0).get("turns").get(0);
    assertEquals("finished", turn.get("state").asText(), turn.toString());

    turndiff("rewind", "--turn", turn.get("turn").asText()).expect(0);
    assertEquals("print('one')\n", Files.readString(workspace.resolve("app.py")));

    turndiff("service", "stop").expect(0);
    assertTrue(service.ended(), "the service still runs");
    assertFalse(Files.exists(release.resolve("lib/turndiff.jsa")), "written beside the jar");
  }

  /**
   * What the release weighs unpacked, measured on 2026-12-01 (docs/install.md, "What takes the
   * space"): 135 MB, of which the AOT cache 69.5 (jOOQ's classes about half of it), the JVM 24.8,
   * the runtime's modules 18.5, the jar 17.7. The issue asked for well under 120, which a cache of
   * the classes the commands load cannot meet; this bound catches growth beyond today's release. On
   * 2026-12-02 it caught the MCP server's SDK (issue 24 item 4: the SDK with Jackson 3 and
   * Reactor): 142.8 MB, the jar 24.0 (+6.3), the AOT cache 71.0 (+1.5); the bound moved to 146 MB
   * with that measured, and docs/install.md says so. Later that day it caught the service's move to
   * Jetty 12 (issue 21 item 6: its server, I/O, HTTP and Unix-socket jars) with the rename
   * detection and the rest of that session: 147.4 MB, the jar 26.4 (+2.4), the AOT cache 73.3
   * (+2.3); the bound moved to 150 MB with that measured. On 2026-12-03 it caught the AOT cache
   * trained on the service too (issue 21 item 3: the daemon's Jetty and endpoint classes, 1,164 of
   * them read from the jar before) and the hook client: 160.6 MB, the AOT cache 85.3 (+12.0), the
   * static client 0.9; the bound moved to 162 MB with that measured, and docs/install.md names the
   * way back (a cache of the service's own, apart from the commands'). On 2026-12-04 it caught
   * picocli compiled from its source, whose classes the cache can now hold (the released jar's Java
   * 5 class files it could not, so every command loaded them from the jar: about a tenth of a
   * one-shot command, docs/performance.md): 162.1 MB, the AOT cache 86.8 (+1.5), the jar 26.8; the
   * bound moved to 164 MB with that measured. Later that day it caught the cache trained on the
   * rewind (its dry run and the rewind: 84 classes a one-shot rewind read from the jar before, a
   * tenth of its time): 164.15 MB, the AOT cache 88.8 (+2.0); the bound moved to 166 MB.
   */
  private static final long BUDGET = 166_000_000;

  @Test
  void itStaysWithinItsBudget() throws Exception {
    Map<String, Long> sizes = new TreeMap<>();
    long total;
    try (Stream<Path> files = Files.walk(release)) {
      total = 0;
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        long size = Files.size(file);
        total += size;
        sizes.merge(
            release
                .relativize(file)
                .subpath(0, Math.min(2, release.relativize(file).getNameCount()))
                .toString(),
            size,
            Long::sum);
      }
    }
    assertTrue(total < BUDGET, total + " bytes: " + sizes);
  }

  @Test
  void theReleasesJarIsTheProductJarForThisPlatformOnly() throws Exception {
    try (ZipFile jar = new ZipFile(release.resolve("lib/turndiff.jar").toFile())) {
      assertTrue(jar.stream().noneMatch(entry -> entry.getName().startsWith("org/openjdk/jmh/")));
      assertTrue(jar.stream().anyMatch(entry -> entry.getName().startsWith("io/turndiff/panel/")));
      assertTrue(
          jar.stream()
              .filter(entry -> entry.getName().endsWith(".so") || entry.getName().endsWith(".dll"))
              .allMatch(
                  entry ->
                      entry.getName().startsWith("org/sqlite/native/Linux/x86_64/")
                          || entry.getName().startsWith("linux/amd64/")));
    }
  }
}
