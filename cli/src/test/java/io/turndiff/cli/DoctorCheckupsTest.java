package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.api.wire.WireDoctorReport.Verdict;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.api.wire.WireProcessEvidence;
import io.turndiff.api.wire.WireServiceConnections;
import io.turndiff.api.wire.WireServiceGc;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.api.wire.WireServiceWatch;
import io.turndiff.api.wire.WireSessionFileEvidence;
import io.turndiff.ownfiles.Proc;
import io.turndiff.service.ServiceFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdicts of {@code turndiff doctor}'s checks over what the service and the settings report
 * (their wire values as the service and {@code hooks status} give them), and over this machine's
 * real {@code /proc} and disk. The process ITs (HookScriptIT, HooksInstallProcessIT) run the
 * command against a real service and real settings.
 */
class DoctorCheckupsTest {

  @TempDir Path temp;

  private static WireServiceStatus serviceWatching(WireServiceWatch watch) {
    return new WireServiceStatus(
        true,
        1,
        2,
        "instance",
        "v",
        "2026-12-02T04:00:00Z",
        60,
        "/s/turndiff.db",
        List.of(),
        new WireServiceGc(0, 0, null, null),
        Map.of(),
        List.of(),
        watch,
        List.of(),
        new WireServiceConnections(null, 0, 0, 0, 0, 0));
  }

  private static WireServiceWatch watch(int directories, Map<String, Long> fallbacks) {
    return new WireServiceWatch(true, 1, directories, 10, 1, fallbacks, 0, 0, 0, 0, null, 0, null);
  }

  @Test
  void aWatcherThatReachedTheLimitFailsAndSaysHowToRaiseIt() {
    Check check =
        WatchCheckup.of(
            Optional.of(
                serviceWatching(watch(12, Map.of("the watch limit was reached at src/deep", 3L)))));
    assertEquals(Verdict.FAIL, check.verdict(), check.toString());
    assertTrue(check.found().contains("3 scan(s) walked the whole tree"), check.found());
    assertTrue(check.todo().startsWith("raise it: sudo sysctl fs.inotify.max_user_watches="));
  }

  @Test
  void aWatcherNearTheLimitWarnsAndOneWellBelowIsFine() {
    long limit = Proc.inotifyWatchLimit().orElseThrow();
    Check near = WatchCheckup.of(Optional.of(serviceWatching(watch((int) limit, Map.of()))));
    assertEquals(Verdict.WARN, near.verdict(), near.toString());
    Check fine = WatchCheckup.of(Optional.of(serviceWatching(watch(0, Map.of()))));
    assertEquals(Verdict.OK, fine.verdict(), fine.toString());
    assertTrue(fine.found().contains("limit is " + limit), fine.found());
    assertEquals(Verdict.SKIP, WatchCheckup.of(Optional.empty()).verdict());
  }

  @Test
  void aWatcherWhoseChecksFailedWarnsWithTheLastReason() {
    WireServiceWatch failing =
        new WireServiceWatch(
            true, 1, 0, 10, 1, Map.of(), 0, 3, 0, 0, null, 2, "/w: the tree could not be read");
    Check check = WatchCheckup.of(Optional.of(serviceWatching(failing)));
    assertEquals(Verdict.WARN, check.verdict(), check.toString());
    assertTrue(
        check
            .found()
            .endsWith(
                "since the service started 2 check(s) of the watched scans against a whole walk"
                    + " failed, the last: /w: the tree could not be read"),
        check.found());
    assertTrue(check.todo().contains("service status names it"), check.todo());
    WireServiceWatch atTheLimit =
        new WireServiceWatch(
            true,
            1,
            0,
            10,
            1,
            Map.of("the watch limit was reached at src", 1L),
            0,
            3,
            0,
            0,
            null,
            2,
            "/w: the tree could not be read");
    Check atLimit = WatchCheckup.of(Optional.of(serviceWatching(atTheLimit)));
    assertEquals(Verdict.FAIL, atLimit.verdict(), atLimit.toString());
    assertTrue(atLimit.found().contains("2 check(s)"), "said at the limit too: " + atLimit.found());
  }

  @Test
  void theDiskWhereTheStoreWillBeIsMeasuredAtItsNearestFolder() {
    Check check = DiskCheckup.at(temp.resolve("not/made/yet/turndiff.db"));
    assertTrue(check.found().endsWith(" at " + temp), check.found());
    assertTrue(check.verdict() == Verdict.OK || check.verdict() == Verdict.WARN, check.toString());
  }

  /**
   * The caches beside a jar, as the launcher leaves them: each one's state, and a training that
   * failed warns with the first line of its output and the file that holds the rest; this test's
   * own classes are not a jar, which is said, not guessed at.
   */
  @Test
  void aStartupCacheWhoseTrainingFailedWarnsWithItsOutputAndTheFileToRemove() throws Exception {
    Path jar = temp.resolve("turndiff.jar");
    Files.writeString(jar, "a jar");
    Check none = StartupCacheCheckup.beside(jar);
    assertEquals(Verdict.OK, none.verdict(), none.toString());
    assertEquals("the commands' none; the service's none", none.found());

    Files.writeString(temp.resolve("turndiff.aot"), "a cache");
    Files.createDirectory(temp.resolve("turndiff-service.aot.training"));
    Check training = StartupCacheCheckup.beside(jar);
    assertEquals(Verdict.OK, training.verdict(), training.toString());
    assertEquals("the commands' in place; the service's training", training.found());

    Path failed = temp.resolve("turndiff-service.aot.failed");
    Files.writeString(
        failed,
        "turndiff: training turndiff-service.aot on io.turndiff.cli.ServiceHookTraining failed"
            + " (exit 1); its output:\n\njava.lang.IllegalStateException: training: the service did not come"
            + " up\n\tat io.turndiff.cli.ServiceTraining.start(ServiceTraining.java:90)\n");
    Check warned = StartupCacheCheckup.beside(jar);
    assertEquals(Verdict.WARN, warned.verdict(), warned.toString());
    assertEquals(
        "the commands' in place; the service's failed to train:"
            + " java.lang.IllegalStateException: training: the service did not come up",
        warned.found());
    assertTrue(
        warned.todo().startsWith("the training's output is in " + failed + ";"), warned.todo());

    // a cache in place is what is used, whatever a training before it left
    Files.writeString(temp.resolve("turndiff-service.aot"), "a cache");
    Check inPlace = StartupCacheCheckup.beside(jar);
    assertEquals(Verdict.OK, inPlace.verdict(), inPlace.toString());
    assertEquals("the commands' in place; the service's in place", inPlace.found());

    // an output longer than what is read, not UTF-8: its first line all the same
    Files.delete(temp.resolve("turndiff-service.aot"));
    byte[] notText = new byte[100_000];
    Arrays.fill(notText, (byte) 0xff);
    Files.write(
        failed,
        ("heading\nError occurred during initialization of VM\n").getBytes(StandardCharsets.UTF_8));
    Files.write(failed, notText, StandardOpenOption.APPEND);
    Check longOutput = StartupCacheCheckup.beside(jar);
    assertEquals(Verdict.WARN, longOutput.verdict(), longOutput.toString());
    assertTrue(
        longOutput.found().endsWith("failed to train: Error occurred during initialization of VM"),
        longOutput.found());

    Check classes = StartupCacheCheckup.ofThisJar();
    assertEquals(Verdict.SKIP, classes.verdict(), classes.toString());
    assertTrue(classes.found().endsWith("not from a jar"), classes.found());
  }

  /**
   * A run directory so deep that the socket's name would pass the kernel's 107 bytes: the service
   * serves TCP only, and doctor says so whether it runs or not; a short one with no service is
   * skipped.
   */
  @Test
  void aSocketPathTooLongForItsNameIsSaidAndNoServiceMeansNothingToCheck() throws Exception {
    Path deep = temp.resolve("x".repeat(60)).resolve("y".repeat(40));
    Check tooLong =
        SocketCheckup.of(
            ServiceSeen.look(
                ServiceFiles.of(
                    temp.resolve("turndiff.db"), Map.of("XDG_RUNTIME_DIR", deep.toString()))));
    assertEquals(Verdict.WARN, tooLong.verdict(), tooLong.toString());
    assertTrue(
        tooLong.found().contains("longer than the 107 a socket's name may hold"), tooLong.found());
    assertTrue(tooLong.found().contains("serves its TCP port only"), tooLong.found());
    assertTrue(tooLong.todo().startsWith("set XDG_RUNTIME_DIR"), tooLong.todo());

    Check idle =
        SocketCheckup.of(
            ServiceSeen.look(
                ServiceFiles.of(
                    temp.resolve("turndiff.db"),
                    Map.of("XDG_RUNTIME_DIR", temp.resolve("run").toString()))));
    assertEquals(Verdict.SKIP, idle.verdict(), idle.toString());
  }

  /**
   * A runtime whose own session files show it worked here with no hook arriving: a failure when its
   * hooks are installed (they should have fired), a warning saying to install them when they are
   * not; none when no session file says so.
   */
  @Test
  void aSessionFileWrittenWithNoHookFailsWhenInstalledAndWarnsWhenNot() {
    String warning =
        "hooks may not be firing for codex since 2026-12-02T04:00:00Z: its session file"
            + " /h/.codex/sessions/2026/12/02/rollout-x.jsonl was written at 2026-12-02T04:00:00Z"
            + " and no hook arrived (none from this workspace was kept)";
    WireHooksStatus.Service running =
        new WireHooksStatus.Service(true, 1L, 2, null, List.of(sighting("codex", null)));
    for (boolean installed : List.of(true, false)) {
      WireHooksStatus status =
          status(List.of(installed("codex", true, true)), running)
              .withSessionFiles(
                  List.of(
                      new WireSessionFileEvidence(
                          "codex",
                          "/h/.codex/sessions/2026/12/02/rollout-x.jsonl",
                          "2026-12-02T04:00:00Z",
                          "2026-12-02T04:00:00Z",
                          null,
                          installed,
                          warning)));
      Check check =
          HooksCheckup.of(status).stream()
              .filter(c -> c.name().equals("hooks codex sessions"))
              .findFirst()
              .orElseThrow();
      assertEquals(installed ? Verdict.FAIL : Verdict.WARN, check.verdict(), check.toString());
      assertTrue(check.found().startsWith(warning), check.found());
      assertTrue(
          installed
              ? check.todo().contains("turndiff hooks status")
              : check.todo().equals("turndiff hooks install --runtime codex"),
          check.todo());
    }
    assertTrue(
        HooksCheckup.of(status(List.of(installed("codex", true, true)), running)).stream()
            .noneMatch(c -> c.name().endsWith(" sessions")));
  }

  @Test
  void aRuntimeProcessAtWorkWithNoHookFailsWhenInstalledAndWarnsWhenNot() {
    String warning =
        "hooks may not be firing for gemini: its process 4242 has run in /w/sub since"
            + " 2026-12-02T04:00:00Z and no hook arrived since, while its session file"
            + " /h/.gemini/tmp/w/chats/session-x.jsonl was written at 2026-12-02T04:02:00Z"
            + " (none from this workspace was kept)";
    WireHooksStatus.Service running = new WireHooksStatus.Service(true, 1L, 2, null, List.of());
    for (boolean installed : List.of(true, false)) {
      WireHooksStatus status =
          status(List.of(installed("gemini", true, null)), running)
              .withProcesses(
                  List.of(
                      new WireProcessEvidence(
                          "gemini",
                          4242,
                          "/w/sub",
                          "2026-12-02T04:00:00Z",
                          null,
                          "/h/.gemini/tmp/w/chats/session-x.jsonl",
                          "2026-12-02T04:02:00Z",
                          installed,
                          warning)));
      Check check =
          HooksCheckup.of(status).stream()
              .filter(c -> c.name().equals("hooks gemini process 4242"))
              .findFirst()
              .orElseThrow();
      assertEquals(installed ? Verdict.FAIL : Verdict.WARN, check.verdict(), check.toString());
      assertTrue(check.found().startsWith(warning), check.found());
      assertTrue(check.todo().contains("restart"), check.todo());
    }
    assertTrue(
        HooksCheckup.of(status(List.of(installed("gemini", true, null)), running)).stream()
            .noneMatch(c -> c.name().contains(" process ")));
  }

  private static WireHooksStatus.Installation installed(
      String runtime, boolean current, Boolean trusted) {
    return new WireHooksStatus.Installation(
        runtime,
        "workspace",
        "/w/settings",
        true,
        current,
        true,
        List.of("/bin/turndiff-hook " + runtime),
        true,
        trusted,
        List.of(),
        null);
  }

  private static WireHooksStatus status(
      List<WireHooksStatus.Installation> installations, WireHooksStatus.Service service) {
    return new WireHooksStatus(
        installations,
        "/s/turndiff.db",
        new WireHooksStatus.Workspace("/w", true),
        service,
        new WireHooksStatus.Here("/w", List.of()),
        List.of());
  }

  private static WireHookSighting sighting(String runtime, String warning) {
    return sighting(runtime, warning, null);
  }

  /** A sighting whose last prompt's turn the service finished for {@code reason}, when not null. */
  private static WireHookSighting sighting(String runtime, String warning, String reason) {
    return new WireHookSighting(
        runtime,
        "/w",
        "2026-12-02T04:01:00Z",
        "Stop",
        "s",
        "2.1.332",
        new WireHookSighting.Prompt(
            "2026-12-02T04:00:00Z",
            true,
            2,
            reason == null,
            "t",
            reason == null ? null : "service",
            reason),
        warning);
  }

  @Test
  void hooksAreConfiguredThenObserved() {
    WireHooksStatus.Service running =
        new WireHooksStatus.Service(
            true,
            1L,
            2,
            null,
            List.of(
                sighting("claude-code", null),
                sighting("gemini", "hooks may not be firing for gemini since 04:00"),
                sighting("opencode", null, "runtime gone")));
    List<Check> checks =
        HooksCheckup.of(
            status(
                List.of(
                    installed("claude-code", true, null),
                    installed("gemini", true, null),
                    installed("codex", true, false),
                    installed("opencode", true, null)),
                running));
    Map<String, Check> byName = checks.stream().collect(Collectors.toMap(Check::name, c -> c));
    assertEquals(Verdict.OK, byName.get("hooks claude-code firing").verdict());
    assertTrue(
        byName
            .get("hooks claude-code firing")
            .found()
            .startsWith("claude-code 2.1.332: last call Stop at "),
        byName.get("hooks claude-code firing").found());
    assertEquals(Verdict.FAIL, byName.get("hooks gemini firing").verdict());
    assertTrue(byName.get("hooks gemini firing").found().startsWith("hooks may not be firing"));
    Check gone = byName.get("hooks opencode firing");
    assertEquals(Verdict.WARN, gone.verdict(), "a turn the service finished is no whole prompt");
    assertTrue(
        gone.found()
            .endsWith(
                "finished by turndiff (the runtime exited without its Stop hook): hooks may not"
                    + " be firing at the end of a turn"),
        gone.found());
    assertEquals(Verdict.FAIL, byName.get("hooks codex").verdict(), "Codex skips untrusted hooks");
    assertEquals("turndiff hooks install --runtime codex", byName.get("hooks codex").todo());
    Check silent = byName.get("hooks codex firing");
    assertEquals(Verdict.WARN, silent.verdict());
    assertTrue(silent.todo().startsWith("run one prompt in codex"), silent.todo());
  }

  @Test
  void noHooksAnywhereIsSaidWithTheCommandThatInstallsThem() {
    List<Check> checks =
        HooksCheckup.of(
            status(List.of(), new WireHooksStatus.Service(false, null, null, null, List.of())));
    assertEquals(1, checks.size());
    assertEquals(Verdict.WARN, checks.getFirst().verdict());
    assertTrue(checks.getFirst().todo().startsWith("turndiff hooks install --runtime"));
  }
}
