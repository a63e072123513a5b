package io.turndiff.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
   * busy. Four minutes were too few at load 15 (the training still running).
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
    // the training's store, workspace and temporary files went with its folder (the lock file
    // stays, unlocked); the user's default store was never opened
    assertEquals(
        Set.of(
            "turndiff.jar",
            "turndiff.jsa",
            "turndiff.aot",
            "turndiff.aot.training.lock",
            "turndiff.native"),
        listing(here),
        "in cli/target");
    assertFalse(Files.exists(home.resolve(".local/share/turndiff")), "the default store was made");

    // the first serve that finds the commands' cache but not the service's trains that one in the
    // background (the service's options, its hook path) and runs meanwhile; the training is no
    // child of the service's JVM, which the launcher became (a child that ended would stay a
    // zombie under it)
    Path serviceCache = here.resolve("cli/target/turndiff-service.aot");
    Path serviceTraining = here.resolve("cli/target/turndiff-service.aot.training");
    Process service = serve(here, home, temp.resolve("store/turndiff.db"));
    try {
      awaitTheJvm(service);
      assertTrue(Files.isDirectory(serviceTraining), "serve started no training: " + listing(here));
      // the service's allocator setting (io.turndiff.service.ServiceAllocator), read at its start
      List<String> environment =
          List.of(Files.readString(Path.of("/proc/" + service.pid() + "/environ")).split("\0"));
      assertTrue(environment.contains("MALLOC_ARENA_MAX=2"), environment.toString());
      assertEquals(List.of(), children(service), "the launcher left children under the service");

      Run used = launch(here, home, Map.of("JDK_JAVA_OPTIONS", "-Xlog:aot"), "--version");
      assertEquals(0, used.exit(), used.out());
      assertTrue(used.out().contains("Opened AOT cache " + cache), used.out());
      assertTrue(used.out().contains("turndiff "), used.out());

      deadline = Instant.now().plus(TRAINING);
      while (!(Files.exists(serviceCache) && !Files.exists(serviceTraining))
          && Instant.now().isBefore(deadline)) {
        Thread.sleep(250);
      }
      assertTrue(service.isAlive(), "the service ended: " + Files.readString(serviceLog()));
      assertEquals(List.of(), children(service), "a training ended as a child of the service");
    } finally {
      service.destroy();
      service.waitFor();
    }
    assertEquals(
        Set.of(
            "turndiff.jar",
            "turndiff.jsa",
            "turndiff.aot",
            "turndiff.aot.training.lock",
            "turndiff-service.aot",
            "turndiff-service.aot.training.lock",
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
      // 64 MB, where the JVM would start a heap of a 64th of this machine's memory
      assertTrue(
          storeFirst.out().contains("-XX:InitialHeapSize=67108864 "),
          command + ": " + storeFirst.out());
      assertTrue(
          storeFirst.out().contains("-XX:GCTimeRatio=4 "), command + ": " + storeFirst.out());
      assertFalse(
          storeFirst.out().contains("-XX:TieredStopAtLevel=1"), command + ": " + storeFirst.out());
    }
    // a heap size the user gives every JVM stands: beside it the JVM would refuse the service's
    // initial heap ("Incompatible minimum and initial heap sizes specified") and not start
    Run sized =
        launch(
            here,
            home,
            Map.of("JDK_JAVA_OPTIONS", "-Xms128m -XX:+PrintCommandLineFlags"),
            "--db",
            store,
            "serve",
            "--help");
    assertEquals(0, sized.exit(), sized.out());
    assertTrue(sized.out().contains("-XX:InitialHeapSize=134217728 "), sized.out());
    assertTrue(sized.out().contains("-XX:GCTimeRatio=4 "), sized.out());
  }

  /**
   * A training that fails (here the JVM refuses {@code -XX:AOTCacheOutput}) leaves its output
   * beside the jar, is not started again by the next commands, and {@code doctor} names it; the
   * file goes with the jar it was made for.
   */
  @Test
  void aFailedTrainingIsRecordedNotRetriedAndShownByDoctor() throws Exception {
    Path here = layout();
    Path home = Files.createDirectories(temp.resolve("home"));
    Map<String, String> refusing = Map.of("JAVA_HOME", jdkRefusingToTrain().toString());
    Path failed = here.resolve("cli/target/turndiff.aot.failed");
    Path training = here.resolve("cli/target/turndiff.aot.training");

    Run first = launch(here, home, refusing, "--version");
    assertEquals(0, first.exit(), first.out());
    Instant deadline = Instant.now().plus(TRAINING);
    while (!(Files.exists(failed) && !Files.exists(training)) && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    String output = Files.readString(failed);
    assertTrue(
        output.startsWith(
            "turndiff: training turndiff.aot on io.turndiff.cli.AotTraining failed (exit 1); its"
                + " output:\n"),
        output);
    assertTrue(output.contains(REFUSAL), output);
    assertEquals(
        Set.of("turndiff.jar", "turndiff.jsa", "turndiff.aot.failed", "turndiff.aot.training.lock"),
        listing(here));

    // a retry would have made its folder before the command ran, and counted itself before the
    // folder went
    Run next = launch(here, home, refusing, "--version");
    assertEquals(0, next.exit(), next.out());
    while (Files.exists(training) && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    assertEquals(
        List.of(REFUSAL), Files.readAllLines(trainings()), "a failed training was started again");

    Path workspace = Files.createDirectories(temp.resolve("workspace"));
    Run doctor =
        launch(
            here,
            home,
            refusing,
            "--db",
            temp.resolve("store/turndiff.db").toString(),
            "doctor",
            "--workspace",
            workspace.toString(),
            "--json");
    JsonNode check = null;
    String report =
        doctor.out().lines().filter(line -> line.startsWith("{")).findFirst().orElse(doctor.out());
    for (JsonNode each : Json.mapper().readTree(report).get("checks")) {
      if (each.get("name").asText().equals(StartupCacheCheckup.NAME)) {
        check = each;
      }
    }
    assertTrue(check != null, doctor.out());
    assertEquals("warn", check.get("verdict").asText(), check.toString());
    assertEquals(
        "the commands' failed to train: " + REFUSAL + "; the service's none",
        check.get("found").asText());
    assertTrue(check.get("todo").asText().contains(failed.toString()), check.toString());

    madeBeforeTheJar(here, failed);
    Run nextJar = launch(here, home, Map.of("TURNDIFF_AOT_CACHE", "0"), "--version");
    assertEquals(0, nextJar.exit(), nextJar.out());
    assertFalse(Files.exists(failed), "the failure of an older jar's training is still there");
  }

  /**
   * A training's lock is an flock on {@code turndiff.aot.training.lock}, which the training's
   * processes hold while they run: held by a running process, no second training begins (however
   * long the first takes: a loaded machine's took more than ten minutes, and the lock was given up
   * by age then); once that process ended, killed or not, the next command trains, after removing
   * what a killed training left in its folder. The trainings here are refused at once, so the one
   * taken leaves a failure behind.
   */
  @Test
  void aTrainingsLockHeldByARunningProcessIsKeptAndReleasedWhenItEnds() throws Exception {
    Path here = layout();
    Path home = Files.createDirectories(temp.resolve("home"));
    Map<String, String> refusing = Map.of("JAVA_HOME", jdkRefusingToTrain().toString());
    Path lock = here.resolve("cli/target/turndiff.aot.training.lock");
    Path left = Files.createDirectories(here.resolve("cli/target/turndiff.aot.training/left"));
    Path failed = here.resolve("cli/target/turndiff.aot.failed");
    // flock -o: the lock is flock's own, not its child's, and goes when flock is stopped
    Process holder = new ProcessBuilder("flock", "-o", lock.toString(), "sleep", "600").start();
    try {
      Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
      while (new ProcessBuilder("flock", "-n", lock.toString(), "true").start().waitFor() == 0) {
        assertTrue(Instant.now().isBefore(deadline), "flock never took the lock");
        Thread.sleep(50);
      }
      Run kept = launch(here, home, refusing, "--version");
      assertEquals(0, kept.exit(), kept.out());
      assertFalse(Files.exists(trainings()), "a second training began beside a running one");
      assertTrue(Files.isDirectory(left), "the running training's folder was touched");
    } finally {
      holder.descendants().forEach(ProcessHandle::destroy);
      holder.destroy();
      holder.waitFor();
    }

    Run taken = launch(here, home, refusing, "--version");
    assertEquals(0, taken.exit(), taken.out());
    Instant deadline = Instant.now().plus(TRAINING);
    while (!(Files.exists(failed) && !Files.exists(left.getParent()))
        && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    assertEquals(List.of(REFUSAL), Files.readAllLines(trainings()), "the lock was not taken");
    assertTrue(Files.exists(failed), listing(here).toString());
    assertFalse(Files.exists(left), "what the killed training left is still there");
  }

  private static final String REFUSAL = "this JDK refuses to write an AOT cache";

  /** Where the JDK below counts the trainings it refused. */
  private Path trainings() {
    return temp.resolve("trainings-refused");
  }

  /**
   * A JDK 25 whose {@code java} runs the real one but refuses a cache's training, as a JVM would
   * that cannot write it, and counts each refusal: the launcher's {@code JAVA_HOME} for the
   * commands and the training alike.
   */
  private Path jdkRefusingToTrain() throws IOException {
    Path real = Path.of(System.getProperty("java.home"));
    Path jdk = Files.createDirectories(temp.resolve("jdk/bin"));
    Files.copy(real.resolve("release"), jdk.resolveSibling("release"));
    Files.createSymbolicLink(jdk.resolve("javac"), real.resolve("bin/javac"));
    Path java = jdk.resolve("java");
    Files.writeString(
        java,
        "#!/bin/sh\n"
            + "for arg; do\n"
            + "  case $arg in -XX:AOTCacheOutput=*) echo '"
            + REFUSAL
            + "' | tee -a '"
            + trainings()
            + "' >&2; exit 1 ;; esac\n"
            + "done\n"
            + "exec '"
            + real.resolve("bin/java")
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return jdk.getParent();
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

  private static ProcessBuilder builder(Path here, Path home, Map<String, String> environment) {
    ProcessBuilder builder =
        new ProcessBuilder().directory(here.toFile()).redirectErrorStream(true);
    builder.environment().remove("TURNDIFF_DB");
    // the service's allocator setting is the launcher's, not this machine's
    builder.environment().remove("MALLOC_ARENA_MAX");
    // nor the options every JVM reads: a heap size there leaves the service's initial heap out
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    builder.environment().remove("_JAVA_OPTIONS");
    builder.environment().remove("XDG_DATA_HOME");
    builder.environment().put("HOME", home.toString());
    builder.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
    builder.environment().putAll(environment);
    return builder;
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

  private Path serviceLog() {
    return temp.resolve("serve.log");
  }

  /** {@code turndiff --db STORE serve} through the launcher, left running. */
  private Process serve(Path here, Path home, Path store) throws IOException {
    Path run = Files.createDirectories(temp.resolve("run"));
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
    ProcessBuilder builder =
        builder(here, home, Map.of("XDG_RUNTIME_DIR", run.toString()))
            .command(here.resolve("turndiff").toString(), "--db", store.toString(), "serve")
            .redirectOutput(serviceLog().toFile());
    return builder.start();
  }

  /**
   * Waits until the launcher became the JVM ({@code exec}): its training, if it started one, was
   * started before.
   */
  private static void awaitTheJvm(Process process) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin/java").toRealPath();
    Instant deadline = Instant.now().plusSeconds(60);
    while (process.isAlive() && Instant.now().isBefore(deadline)) {
      try {
        if (Files.readSymbolicLink(Path.of("/proc/" + process.pid() + "/exe")).equals(java)) {
          return;
        }
      } catch (IOException notYet) {
        // between the fork and the exec
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the launcher did not become the JVM: " + process);
  }

  /** The processes whose parent is {@code process}, ended ones (zombies) included. */
  private static List<String> children(Process process) throws IOException {
    List<String> children = new ArrayList<>();
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      for (Path entry : entries.filter(e -> e.getFileName().toString().matches("\\d+")).toList()) {
        String stat;
        try {
          stat = Files.readString(entry.resolve("stat"));
        } catch (IOException gone) {
          continue;
        }
        // pid (comm) state ppid ...: the name may hold spaces, so the fields after its last ')'
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        if (Long.parseLong(fields[1]) == process.pid()) {
          children.add(stat.substring(0, stat.lastIndexOf(')') + 1) + " " + fields[0]);
        }
      }
    }
    return children;
  }

  private static Run launch(Path here, Path home, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    Process process =
        builder(here, home, environment)
            .command(
                Stream.concat(Stream.of(here.resolve("turndiff").toString()), Stream.of(args))
                    .toList())
            .start();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    return new Run(process.waitFor(), out);
  }
}
