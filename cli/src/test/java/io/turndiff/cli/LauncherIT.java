package io.turndiff.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * The launcher's ahead-of-time caches: the first short command trains one in the background (on
 * {@code demo}, with its own store), the next ones start from it and train the service's own (its
 * hook path, {@link ServiceHookTraining}), which the service starts from, and a cache older than
 * the jar is dropped; sqlite-jdbc's native library copied once beside the jar and loaded from
 * there. The launcher runs from a copy of the checkout's layout holding only what it needs (the
 * script, the JDK finder, the packaged jar), so it never rebuilds anything here.
 */
class LauncherIT {

  /**
   * Generous: the training runs `turndiff demo` and the service at the launcher's low priority
   * ({@code nice -n 10}, under CI's own {@code nice -n 5} for this lane) on a machine CI keeps
   * busy. Four minutes were too few at load 15 (the training still running); under the launcher's
   * ten minutes after which a training's lock counts as left by a killed launcher.
   */
  private static final Duration TRAINING = Duration.ofMinutes(8);

  @TempDir Path temp;

  @Test
  void theFirstShortCommandTrainsACacheInTheBackgroundThatTheNextOnesStartFrom() throws Exception {
    Path here = layout();
    Path home = Files.createDirectories(temp.resolve("home"));
    Path cache = here.resolve("cli/target/turndiff.aot");

    Run first = launch(here, home, Map.of(), "--version");
    assertEquals(0, first.exit(), first.out());
    assertTrue(first.out().startsWith("turndiff "), first.out());

    Instant deadline = Instant.now().plus(TRAINING);
    while (!(Files.exists(cache) && !Files.exists(here.resolve("cli/target/turndiff.aot.training")))
        && Instant.now().isBefore(deadline)) {
      Thread.sleep(250);
    }
    assertTrue(Files.isRegularFile(cache), "no cache after " + TRAINING + ": " + listing(here));
    // the training's store, workspace and temporary files went with its lock; the user's default
    // store was never opened
    assertEquals(
        Set.of("turndiff.jar", "turndiff.jsa", "turndiff.aot", "turndiff.native"),
        listing(here),
        "in cli/target");
    assertFalse(Files.exists(home.resolve(".local/share/turndiff")), "the default store was made");

    Run used = launch(here, home, Map.of("JDK_JAVA_OPTIONS", "-Xlog:aot"), "--version");
    assertEquals(0, used.exit(), used.out());
    assertTrue(used.out().contains("Opened AOT cache " + cache), used.out());
    assertTrue(used.out().contains("turndiff "), used.out());

    // a command that finds the commands' cache trains the service's own in the background (the
    // service's options, its hook path), which the service then starts from
    Path serviceCache = here.resolve("cli/target/turndiff-service.aot");
    Path serviceTraining = here.resolve("cli/target/turndiff-service.aot.training");
    deadline = Instant.now().plus(TRAINING);
    while (!(Files.exists(serviceCache) && !Files.exists(serviceTraining))
        && Instant.now().isBefore(deadline)) {
      Thread.sleep(250);
    }
    assertEquals(
        Set.of(
            "turndiff.jar",
            "turndiff.jsa",
            "turndiff.aot",
            "turndiff-service.aot",
            "turndiff.native"),
        listing(here),
        "in cli/target, the service's cache trained");
    assertFalse(Files.exists(home.resolve(".local/share/turndiff")), "the default store was made");
    Run served = launch(here, home, Map.of("JDK_JAVA_OPTIONS", "-Xlog:aot"), "serve", "--help");
    assertEquals(0, served.exit(), served.out());
    assertTrue(served.out().contains("Opened AOT cache " + serviceCache), served.out());
    assertTrue(served.out().contains("Usage: turndiff serve"), served.out());
    // a service whose store options come before its command word starts as the service, with the
    // full JIT and the service's heap flags, not as a one-shot command (C1, the serial collector)
    String store = temp.resolve("store/turndiff.db").toString();
    for (List<String> command :
        List.of(
            List.of("--db", store, "serve", "--help"),
            List.of("--db", store, "service", "daemon", "--help"))) {
      Run storeFirst =
          launch(
              here,
              home,
              Map.of("JDK_JAVA_OPTIONS", "-XX:+PrintCommandLineFlags"),
              command.toArray(String[]::new));
      assertEquals(0, storeFirst.exit(), storeFirst.out());
      assertTrue(
          storeFirst.out().contains("-XX:G1PeriodicGCInterval=15000"),
          command + ": " + storeFirst.out());
      assertTrue(
          storeFirst.out().contains("-XX:TrimNativeHeapInterval=15000"),
          command + ": " + storeFirst.out());
      assertFalse(
          storeFirst.out().contains("-XX:TieredStopAtLevel=1"), command + ": " + storeFirst.out());
    }
  }

  @Test
  void aCacheOlderThanTheJarIsRemovedAndNotUsed() throws Exception {
    Path here = layout();
    Path home = Files.createDirectories(temp.resolve("home"));
    Path cache = here.resolve("cli/target/turndiff.aot");
    Files.write(cache, "a cache of another jar".getBytes(UTF_8));
    madeBeforeTheJar(here, cache);

    Run run = launch(here, home, Map.of("TURNDIFF_AOT_CACHE", "0"), "--version");

    assertEquals(0, run.exit(), run.out());
    assertTrue(run.out().startsWith("turndiff "), run.out());
    assertFalse(Files.exists(cache), "the stale cache is still there");
    assertFalse(
        Files.exists(here.resolve("cli/target/turndiff.aot.training")),
        "TURNDIFF_AOT_CACHE=0 still trains");
  }

  @Test
  void storeCommandsLoadSqlitesLibraryFromACopyBesideTheJarAndAStaleCopyGoes() throws Exception {
    Path here = layout();
    Path home = Files.createDirectories(temp.resolve("home"));
    Path copies = here.resolve("cli/target/turndiff.native");
    Path stale =
        Files.createDirectories(copies.resolve("sqlite-jdbc-0.0/org/sqlite/native/Linux/x86_64"))
            .resolve("libsqlitejdbc.so");
    Files.write(stale, "the library of an older jar".getBytes(UTF_8));
    madeBeforeTheJar(here, copies);
    Map<String, String> logged =
        Map.of("TURNDIFF_AOT_CACHE", "0", "JDK_JAVA_OPTIONS", "-Xlog:library=info");
    String store = temp.resolve("store/turndiff.db").toString();
    // a command that opens the store and succeeds on a new one (turns of a workspace with none
    // exits 1)
    String workspace = Files.createDirectories(temp.resolve("workspace")).toString();

    Run first =
        launch(here, home, logged, "--db", store, "turn", "begin", "--workspace", workspace);
    assertEquals(0, first.exit(), first.out());
    assertFalse(Files.exists(stale), "the copy of an older jar is still there");
    Path copy = theOnlyLibraryIn(copies);
    // the copy is named by sqlite-jdbc's version and the JVM's platform; its bytes are the jar's
    // library for this platform, whose folder in the jar sqlite-jdbc names
    String entry =
        LibraryLoaderUtil.getNativeLibResourcePath().substring(1) + "/" + copy.getFileName();
    try (ZipFile jar = new ZipFile(here.resolve("cli/target/turndiff.jar").toFile())) {
      assertArrayEquals(
          jar.getInputStream(jar.getEntry(entry)).readAllBytes(),
          Files.readAllBytes(copy),
          "the copy is not the jar's " + entry);
    }
    assertTrue(first.out().contains("Loaded library " + copy), first.out());

    Object made = Files.readAttributes(copy, BasicFileAttributes.class).fileKey();
    Run next = launch(here, home, logged, "--db", store, "turns", "--workspace", workspace);
    assertEquals(0, next.exit(), next.out());
    assertTrue(next.out().contains("Loaded library " + copy), next.out());
    assertEquals(
        made,
        Files.readAttributes(copy, BasicFileAttributes.class).fileKey(),
        "the copy was made again");
  }

  /** Dates {@code made} a minute before the jar, as something an older jar left behind. */
  private static void madeBeforeTheJar(Path here, Path made) throws IOException {
    Files.setLastModifiedTime(
        made,
        FileTime.from(
            Files.getLastModifiedTime(here.resolve("cli/target/turndiff.jar"))
                .toInstant()
                .minusSeconds(60)));
  }

  private static Path theOnlyLibraryIn(Path copies) throws IOException {
    try (Stream<Path> files = Files.walk(copies)) {
      List<Path> libraries =
          files.filter(file -> file.getFileName().toString().equals("libsqlitejdbc.so")).toList();
      assertEquals(1, libraries.size(), libraries.toString());
      return libraries.getFirst();
    }
  }

  /** The checkout's layout as the launcher sees it, with the packaged jar in place. */
  private Path layout() throws IOException {
    Path here = Files.createDirectories(temp.resolve("checkout"));
    Path checkout = Path.of("").toAbsolutePath().getParent();
    Files.copy(checkout.resolve("turndiff"), here.resolve("turndiff"));
    Files.createDirectories(here.resolve(".mvn"));
    Files.copy(checkout.resolve(".mvn/jdk25.sh"), here.resolve(".mvn/jdk25.sh"));
    Files.createDirectories(here.resolve("cli/target"));
    Files.copy(CliProcess.jar(), here.resolve("cli/target/turndiff.jar"));
    return here;
  }

  private static Set<String> listing(Path here) throws IOException {
    try (Stream<Path> files = Files.list(here.resolve("cli/target"))) {
      return files.map(file -> file.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  private record Run(int exit, String out) {}

  private static Run launch(Path here, Path home, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(
                Stream.concat(Stream.of(here.resolve("turndiff").toString()), Stream.of(args))
                    .toList())
            .directory(here.toFile())
            .redirectErrorStream(true);
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().remove("XDG_DATA_HOME");
    builder.environment().put("HOME", home.toString());
    builder.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
    builder.environment().putAll(environment);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    return new Run(process.waitFor(), out);
  }
}
