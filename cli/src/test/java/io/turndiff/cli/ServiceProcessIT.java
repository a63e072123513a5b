package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.service.Discovery;
import io.turndiff.service.ProcessStart;
import io.turndiff.service.ServiceFiles;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff service start|stop|status} as real processes: one daemon however often it is
 * started, a discovery file 0600 in a 0700 run directory, a graceful stop that withdraws the file,
 * a stale file (dead pid) replaced, and a foreign listener on the recorded port that is challenged
 * and never sent a token.
 */
class ServiceProcessIT {

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private Path runDirectory;
  private final List<Long> daemons = new ArrayList<>();

  @BeforeEach
  void setUp() {
    database = temp.resolve("data/turndiff.db");
    runDirectory = temp.resolve("xdg-run/turndiff");
    env =
        Map.of(
            "TURNDIFF_DB", database.toString(),
            "XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString(),
            "HOME", temp.toString(),
            "SOME_API_KEY", "sk-not-for-the-daemon",
            // as none (whatever this machine's environment says): the service's own setting then
            "MALLOC_ARENA_MAX", "");
  }

  @AfterEach
  void tearDown() throws Exception {
    ServiceCleanUp.stopServices(env);
    for (long pid : daemons) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private Path discovery() {
    return runDirectory.resolve(ServiceFiles.key(database.toString()) + ".json");
  }

  private JsonNode start() throws Exception {
    CommandRun run = CliProcess.run(env, "service", "start");
    assertEquals(0, run.exitCode(), run.err());
    return started(run);
  }

  private JsonNode started(CommandRun run) throws Exception {
    JsonNode line = Json.mapper().readTree(run.out());
    daemons.add(line.get("pid").asLong());
    return line;
  }

  @Test
  void startedTwiceAtOnceItIsOneServiceThatStopsGracefully() throws Exception {
    CompletableFuture<CommandRun> first = CompletableFuture.supplyAsync(() -> startQuietly());
    CompletableFuture<CommandRun> second = CompletableFuture.supplyAsync(() -> startQuietly());
    JsonNode a = started(first.get(3, TimeUnit.MINUTES));
    JsonNode b = started(second.get(3, TimeUnit.MINUTES));
    assertEquals(a.get("pid").asLong(), b.get("pid").asLong(), a + " / " + b);
    assertNotEquals(
        a.get("started").asBoolean(), b.get("started").asBoolean(), "one started it: " + a + b);
    long pid = a.get("pid").asLong();
    assertEquals(database.toString(), a.get("store").asText());
    assertEquals(discovery().toString(), a.get("discovery").asText());
    JsonNode again = start();
    assertEquals(pid, again.get("pid").asLong());
    assertFalse(again.get("started").asBoolean());

    // the files: a 0700 run directory, the discovery file 0600 in the documented layout
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(runDirectory, LinkOption.NOFOLLOW_LINKS)));
    assertEquals(
        "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(discovery())));
    List<String> lines = Files.readAllLines(discovery());
    assertEquals("{", lines.getFirst());
    assertEquals("  \"format\": 1,", lines.get(1));
    assertTrue(lines.get(2).matches("  \"instance\": \"[0-9a-f]{32}\","), lines.get(2));
    assertEquals("  \"pid\": " + pid + ",", lines.get(3));
    assertTrue(lines.get(4).matches("  \"proc_start_ticks\": [0-9]+,"), lines.get(4));
    assertTrue(lines.get(5).matches("  \"port\": [0-9]+,"), lines.get(5));
    Path header = runDirectory.resolve(ServiceFiles.key(database.toString()) + ".header");
    String token =
        Files.readString(runDirectory.resolve(ServiceFiles.key(database.toString()) + ".token"))
            .strip();
    assertEquals("Authorization: Bearer " + token + "\r\n", Files.readString(header));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(header)));

    // the daemon runs in its own session, without the caller's other variables
    String environ =
        new String(
            Files.readAllBytes(Path.of("/proc/" + pid + "/environ")), StandardCharsets.UTF_8);
    assertFalse(environ.contains("SOME_API_KEY"), environ);
    assertTrue(environ.contains("TURNDIFF_DB="), environ);
    // and the service's allocator setting (ServiceAllocator), which its caller gave no value
    assertTrue(List.of(environ.split("\0")).contains("MALLOC_ARENA_MAX=2"), environ);
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    assertEquals(Long.toString(pid), fields[3], "session id = pid: " + stat);
    // this JVM and this jar, from the start-up cache and sqlite's library the command started
    // with, and the full JIT: not the short command's C1 and serial collector
    List<String> daemonArguments =
        List.of(Files.readString(Path.of("/proc/" + pid + "/cmdline")).split("\0"));
    assertTrue(
        StartupCache.serviceStartOptions(CliProcess.jar()).stream()
            .anyMatch(daemonArguments::contains),
        daemonArguments.toString());
    assertTrue(
        daemonArguments.stream().anyMatch(word -> word.startsWith("-Dturndiff.sqlite.library=")),
        daemonArguments.toString());
    assertFalse(daemonArguments.contains("-XX:+UseSerialGC"), daemonArguments.toString());
    // the service's own native-memory trim and heap sizing, which no running JVM takes, and the
    // heap options it set itself when it started (ServiceHeap): no launcher gave them
    assertTrue(
        daemonArguments.containsAll(
            List.of(
                "-XX:TrimNativeHeapInterval=15000",
                "-XX:InitialHeapSize=64m",
                "-XX:GCTimeRatio=4")),
        daemonArguments.toString());
    Process jcmd =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid),
                "VM.flags")
            .redirectErrorStream(true)
            .start();
    String flags = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS), flags);
    for (String option :
        List.of(
            "-XX:MinHeapFreeRatio=10",
            "-XX:MaxHeapFreeRatio=30",
            "-XX:G1PeriodicGCInterval=15000")) {
      assertTrue(flags.contains(option), option + " in " + flags);
    }
    assertFalse(daemonArguments.contains("-XX:TieredStopAtLevel=1"), daemonArguments.toString());

    // a turn in flight, begun by another process on the same store: this JVM, through the same
    // command (StoreCommands), without a JVM started for it
    Path workspace = temp.resolve("ws");
    Files.createDirectories(workspace);
    StoreCommands.run(
            database,
            "turn",
            "begin",
            "--workspace",
            workspace.toString(),
            "--session",
            "s-1",
            "--turn",
            "t-1")
        .expect(0);
    CommandRun status = CliProcess.run(env, "service", "status");
    assertEquals(0, status.exitCode(), status.err());
    assertTrue(status.out().contains("in flight:   1 open turn\n"), status.out());
    assertTrue(status.out().contains("  s-1 turn t-1 in " + workspace + ", begun "), status.out());
    assertTrue(status.out().startsWith("turndiff service: running (pid " + pid), status.out());
    assertTrue(status.out().contains("store:       " + database), status.out());
    // the service collects garbage on its own, daily by default: none yet, the next due
    assertTrue(status.out().contains("gc:          none yet\n"), status.out());
    assertTrue(
        status
            .out()
            .contains(
                " (every 24 h 0 min); size against the kept max-size looked" + " at every 1 min\n"),
        status.out());
    CommandRun json = CliProcess.run(env, "service", "status", "--json");
    JsonNode answer = Json.mapper().readTree(json.out());
    assertTrue(answer.get("service").get("uptime_s").asLong() >= 0, json.out());
    assertEquals(pid, answer.get("service").get("pid").asLong());
    JsonNode gc = answer.get("service").get("gc");
    assertEquals(86400, gc.get("every_s").asLong(), json.out());
    assertEquals(60, gc.get("size_check_s").asLong(), json.out());
    assertTrue(gc.get("last").isNull(), json.out());

    CommandRun stop = CliProcess.run(env, "service", "stop");
    assertEquals(0, stop.exitCode(), stop.err());
    assertFalse(ProcessStart.running(pid), "the daemon ended");
    assertFalse(Files.exists(discovery()), "the discovery file is withdrawn");
    assertFalse(Files.exists(header), "the header file is removed");
    String log = Files.readString(Path.of(database + ".service.log"));
    assertFalse(log.contains("Exception"), log);
    CommandRun stopped = CliProcess.run(env, "service", "status");
    assertEquals(1, stopped.exitCode(), stopped.out());
    assertTrue(stopped.out().startsWith("turndiff service: not running"), stopped.out());
    CommandRun stopAgain = CliProcess.run(env, "service", "stop");
    assertEquals(0, stopAgain.exitCode(), stopAgain.err());
  }

  private CommandRun startQuietly() {
    try {
      CommandRun run = CliProcess.run(env, "service", "start");
      assertEquals(0, run.exitCode(), run.err());
      return run;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A caller that chose its own allocator setting keeps it: the service's two arenas
   * (ServiceAllocator) are a default, given only where the command that starts the service had no
   * value.
   */
  @Test
  void aCallersOwnArenaSettingIsTheServices() throws Exception {
    long pid = startWith("MALLOC_ARENA_MAX", "4");
    List<String> environ = words(pid, "environ");
    assertTrue(environ.contains("MALLOC_ARENA_MAX=4"), environ.toString());
    assertFalse(environ.contains("MALLOC_ARENA_MAX=2"), environ.toString());
  }

  /**
   * A heap size in the caller's JAVA_TOOL_OPTIONS does not reach the daemon, whose environment
   * keeps a few variables only: the daemon is given the service's own initial heap, whatever sizes
   * the command that started it.
   */
  @Test
  void theDaemonsHeapIsSizedForItsOwnEnvironmentNotItsCallers() throws Exception {
    long pid = startWith("JAVA_TOOL_OPTIONS", "-Xmx256m");
    assertTrue(
        words(pid, "cmdline").contains("-XX:InitialHeapSize=64m"),
        words(pid, "cmdline").toString());
    assertFalse(
        words(pid, "environ").stream().anyMatch(word -> word.startsWith("JAVA_TOOL_OPTIONS=")),
        words(pid, "environ").toString());
  }

  /**
   * {@code service start} with {@code variable} set to {@code value} (exit 0); the daemon's pid.
   */
  private long startWith(String variable, String value) throws Exception {
    Map<String, String> environment = new HashMap<>(env);
    environment.put(variable, value);
    CommandRun start = CliProcess.run(environment, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    return started(start).get("pid").asLong();
  }

  /** The NUL-separated words of the process's {@code /proc/<pid>/<file>}. */
  private static List<String> words(long pid, String file) throws Exception {
    return List.of(Files.readString(Path.of("/proc/" + pid + "/" + file)).split("\0"));
  }

  @Test
  void startReplacesAServiceThatRunsAnotherInstallationOfTurndiff() throws Exception {
    // another installation: the same build from another folder, as after an upgrade into a new one
    Path other =
        Files.createDirectories(temp.resolve("other-installation")).resolve("turndiff.jar");
    Files.copy(CliProcess.jar(), other);
    JsonNode old =
        started(CliProcess.runPrefixed(other, new String[0], env, "service", "start").expect(0));
    long oldPid = old.get("pid").asLong();
    assertTrue(
        Files.readAllLines(discovery()).contains("  \"program\": \"" + other.toRealPath() + "\","),
        Files.readString(discovery()));

    CommandRun restart = CliProcess.run(env, "service", "start").expect(0);
    JsonNode line = started(restart);
    assertTrue(line.get("started").asBoolean(), restart.out());
    assertEquals(oldPid, line.get("replaced").get("pid").asLong(), restart.out());
    assertEquals(other.toRealPath().toString(), line.get("replaced").get("program").asText());
    assertTrue(restart.err().contains("restarting it on turndiff " + Main.VERSION), restart.err());
    assertNotEquals(oldPid, line.get("pid").asLong());
    assertFalse(ProcessStart.running(oldPid), "the old service still runs");
    assertTrue(
        Files.readAllLines(discovery())
            .contains("  \"program\": \"" + CliProcess.jar().toRealPath() + "\","),
        Files.readString(discovery()));

    JsonNode again = started(CliProcess.run(env, "service", "start").expect(0));
    assertFalse(again.get("started").asBoolean(), again.toString());
    assertEquals(line.get("pid").asLong(), again.get("pid").asLong());
    assertTrue(again.get("replaced").isNull(), again.toString());
  }

  @Test
  void aDiscoveryFileWithMembersANewerTurndiffAddedIsStillRead() throws Exception {
    long pid = start().get("pid").asLong();
    String text = Files.readString(discovery());
    Files.writeString(
        discovery(), text.replace("  \"format\": 1,\n", "  \"format\": 1,\n  \"future\": [1],\n"));
    // the service's own watch reads its file every 5 s: it must still find itself there
    TimeUnit.SECONDS.sleep(6);

    CommandRun status = CliProcess.run(env, "service", "status").expect(0);
    assertTrue(status.out().startsWith("turndiff service: running (pid " + pid), status.out());
    assertTrue(ProcessStart.running(pid), "the service stopped");
  }

  @Test
  void aDiscoveryFileWhoseDaemonWasKilledIsReplaced() throws Exception {
    long pid = start().get("pid").asLong();
    ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    // its parent (the start command) is gone: it may stay a zombie, which counts as ended
    for (int i = 0; i < 600 && ProcessStart.running(pid); i++) {
      TimeUnit.MILLISECONDS.sleep(50);
    }
    assertFalse(ProcessStart.running(pid));
    assertTrue(Files.exists(discovery()), "a killed daemon leaves its file behind");
    CommandRun status = CliProcess.run(env, "service", "status");
    assertEquals(1, status.exitCode(), status.out());
    assertTrue(status.out().contains("not running"), status.out());

    CommandRun run = CliProcess.run(env, "service", "start");
    assertEquals(0, run.exitCode(), run.err());
    JsonNode line = started(run);
    assertTrue(line.get("started").asBoolean(), run.out());
    assertNotEquals(pid, line.get("pid").asLong());
    assertTrue(run.err().contains("stale"), run.err());
    assertTrue(
        Files.readString(discovery()).contains("\"pid\": " + line.get("pid").asLong() + ","));
  }

  @Test
  void aForeignListenerOnTheRecordedPortIsChallengedAndNeverSentTheToken() throws Exception {
    // a live process of ours (not turndiff) with its real start time, and a listener on the port
    Process impostor = new ProcessBuilder("sleep", "300").start();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      Thread.ofPlatform().daemon().start(() -> answerWrongly(listener, received));
      Files.createDirectories(runDirectory.getParent());
      Files.createDirectory(
          runDirectory,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      String key = ServiceFiles.key(database.toString());
      String oldToken = "an-old-token-0123456789abcdef";
      Files.writeString(runDirectory.resolve(key + ".token"), oldToken + "\n");
      new Discovery(
              "00112233445566778899aabbccddeeff",
              impostor.pid(),
              ProcessStart.ticks(impostor.pid()),
              listener.getLocalPort(),
              database.toString(),
              runDirectory.resolve(key + ".token"),
              runDirectory.resolve(key + ".header"),
              Path.of(database + ".service.log"),
              Main.VERSION,
              null,
              Instant.now().toString())
          .write(discovery());

      CommandRun status = CliProcess.run(env, "service", "status");
      assertEquals(1, status.exitCode(), status.out());
      assertTrue(status.out().contains("did not prove"), status.out());

      CommandRun run = CliProcess.run(env, "service", "start");
      assertEquals(0, run.exitCode(), run.err());
      JsonNode line = started(run);
      assertTrue(line.get("started").asBoolean(), run.out());
      assertNotEquals(impostor.pid(), line.get("pid").asLong());
      assertTrue(impostor.isAlive(), "the impostor is never signalled");
      String newToken =
          Files.readString(runDirectory.resolve(key + ".token"), StandardCharsets.UTF_8).strip();
      String seen;
      synchronized (received) {
        seen = received.toString(StandardCharsets.UTF_8);
      }
      assertTrue(seen.contains("GET /v1/health?challenge="), "it was challenged: " + seen);
      assertFalse(seen.toLowerCase(Locale.ROOT).contains("authorization"), seen);
      assertFalse(seen.contains(oldToken) || seen.contains(newToken), seen);
    } finally {
      impostor.destroyForcibly();
    }
  }

  // ---- the modes the README promises: the store's folder 0700, the log 0600
  // ---------------------------------------------------------------------------

  @Test
  void aStoresFolderStartMakesIsOwnerOnlyAndSoIsTheLog() throws Exception {
    start();
    assertEquals("rwx------", mode(database.getParent()));
    assertEquals("rw-------", mode(Path.of(database + ".service.log")));
  }

  /**
   * A folder that is there already: turndiff's own data folder, open to others (as service start
   * made it before), is closed to 0700 and its log to 0600; a folder of the user's (named by
   * TURNDIFF_DB) is left as it is with a warning, or refused when others may write in it.
   */
  @Test
  void anExistingFolderIsClosedWhenTurndiffsWarnedOfWhenTheUsersRefusedWhenOthersMayWrite()
      throws Exception {
    Path own = folder("xdg-data/turndiff", "rwxr-xr-x");
    Path ownLog = Files.writeString(own.resolve("turndiff.db.service.log"), "an old line\n");
    Files.setPosixFilePermissions(ownLog, PosixFilePermissions.fromString("rw-r--r--"));
    Map<String, String> defaults = new HashMap<>(env);
    defaults.remove("TURNDIFF_DB");
    defaults.put("XDG_DATA_HOME", temp.resolve("xdg-data").toString());
    CommandRun closed = startAndStop(defaults);
    assertEquals("rwx------", mode(own));
    assertEquals("rw-------", mode(ownLog));
    assertTrue(closed.err().contains("closed turndiff's folder " + own), closed.err());
    assertTrue(Files.readString(ownLog).startsWith("an old line\n"), "the log is kept");

    Path mine = folder("mine", "rwxr-xr-x");
    CommandRun warned = startAndStop(storeIn(mine));
    assertEquals("rwxr-xr-x", mode(mine), "the user's folder is theirs");
    assertEquals("rw-------", mode(mine.resolve("store.db.service.log")));
    assertTrue(warned.err().contains("warning: the store's folder " + mine), warned.err());

    Path shared = folder("shared", "rwxrwxr-x");
    CommandRun refused = CliProcess.run(storeIn(shared), "service", "start");
    assertEquals(1, refused.exitCode(), refused.out() + refused.err());
    assertTrue(
        refused.err().contains("the store's folder " + shared + " is mode rwxrwxr-x"),
        refused.err());
    assertEquals("", refused.out());
    try (var left = Files.list(shared)) {
      assertEquals(List.of(), left.toList(), "no log, no store, no lock");
    }
  }

  // ---- a run directory that is not the user's alone is never used
  // ---------------------------------------------------------------------------

  @Test
  void aRunDirectoryOpenToOthersOrAnotherUsersIsRefusedByStatusSayingWhatToDo() throws Exception {
    start();
    Files.setPosixFilePermissions(runDirectory, PosixFilePermissions.fromString("rwxrwxrwx"));
    CommandRun status = CliProcess.run(env, "service", "status");
    assertEquals(1, status.exitCode(), status.out());
    assertTrue(
        status
            .out()
            .startsWith(
                "turndiff service: not usable: the run directory "
                    + runDirectory
                    + " is mode rwxrwxrwx, not rwx------; not using it: "),
        status.out());
    assertTrue(status.out().contains("chmod 700"), status.out());
    JsonNode json =
        Json.mapper().readTree(CliProcess.run(env, "service", "status", "--json").out());
    assertFalse(json.get("running").asBoolean(), json.toString());
    assertTrue(json.get("problem").asText().contains("mode rwxrwxrwx"), json.toString());
    CommandRun hooks = CliProcess.run(env, "hooks", "status", "--workspace", temp.toString());
    assertEquals(0, hooks.exitCode(), hooks.err());
    assertTrue(
        hooks.out().contains("service:      not usable: the run directory " + runDirectory),
        hooks.out());

    Files.setPosixFilePermissions(runDirectory, PosixFilePermissions.fromString("rwx------"));
    if (TestWorkspace.isRoot()) {
      // another user's directory, made 0700: refused all the same
      var lookup = runDirectory.getFileSystem().getUserPrincipalLookupService();
      Files.setOwner(runDirectory, lookup.lookupPrincipalByName("nobody"));
      try {
        CommandRun other = CliProcess.run(env, "service", "status");
        assertEquals(1, other.exitCode(), other.out());
        assertTrue(other.out().contains(" is owned by nobody; not using it"), other.out());
      } finally {
        Files.setOwner(runDirectory, lookup.lookupPrincipalByName("root"));
      }
    }
    assertEquals(0, CliProcess.run(env, "service", "status").exitCode(), "usable again");
  }

  private Path folder(String relative, String mode) throws Exception {
    Path folder = Files.createDirectories(temp.resolve(relative));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString(mode));
    return folder;
  }

  /** The environment with the store {@code store.db} in {@code folder}. */
  private Map<String, String> storeIn(Path folder) {
    Map<String, String> inFolder = new HashMap<>(env);
    inFolder.put("TURNDIFF_DB", folder.resolve("store.db").toString());
    return inFolder;
  }

  /** {@code service start} in {@code environment} (exit 0), then its stop; the start's run. */
  private CommandRun startAndStop(Map<String, String> environment) throws Exception {
    CommandRun start = CliProcess.run(environment, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    daemons.add(Json.mapper().readTree(start.out()).get("pid").asLong());
    assertEquals(0, CliProcess.run(environment, "service", "stop").exitCode());
    return start;
  }

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }

  /** Answers every request with a well-formed health answer whose proof is wrong. */
  private static void answerWrongly(ServerSocket listener, ByteArrayOutputStream received) {
    while (!listener.isClosed()) {
      try (Socket socket = listener.accept()) {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        int read = in.read(buffer);
        if (read > 0) {
          synchronized (received) {
            received.write(buffer, 0, read);
          }
        }
        String body =
            "{\"ok\":true,\"instance\":\"00112233445566778899aabbccddeeff\",\"pid\":1,"
                + "\"proof\":\""
                + "0".repeat(64)
                + "\"}";
        OutputStream out = socket.getOutputStream();
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length()
                    + "\r\nConnection: close\r\n\r\n"
                    + body)
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
      } catch (Exception closed) {
        return;
      }
    }
  }
}
