package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code install.sh}, an upgrade over it and {@code turndiff uninstall}, one user's life with
 * turndiff on a machine with no JDK and no Node ({@link Sandbox}), in one test (each install copies
 * the release's 140 MB). The "newer version" is this release relabelled in its {@code release}
 * file: install.sh puts it in a folder of its own, as it would a real one, and the service it finds
 * running from the older folder runs another program.
 */
class InstallScriptIT {

  private static final byte[] CLAUDE_SETTINGS =
      "{\n  \"model\": \"opus\"\n}\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path temp;

  private Path release;
  private Path prefix;
  private Path workspace;
  private Sandbox user;
  private final List<ServiceProcess> services = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    release = Release.unpack(temp.resolve("unpacked"));
    prefix = temp.resolve("user/home/.local");
    user = Sandbox.in(temp.resolve("user")).env("TURNDIFF_HOOK_START_WAIT", "60");
    workspace = ClaudeCodeTurn.project(temp.resolve("project"));
  }

  @AfterEach
  void tearDown() {
    services.forEach(ServiceProcess::kill);
  }

  private Path launcher() {
    return prefix.resolve("bin/turndiff");
  }

  private CommandRun turndiff(String... args) throws Exception {
    return user.run(launcher(), args);
  }

  private ServiceProcess hooksInstalledAndUsed() throws Exception {
    ServiceProcess service =
        ClaudeCodeTurn.installedAndUsed(
            user,
            launcher(),
            workspace,
            prefix.resolve("lib/turndiff/current/bin/turndiff-hook-client"));
    services.add(service);
    return service;
  }

  private ServiceProcess runningService() throws Exception {
    ServiceProcess service =
        ServiceProcess.of(turndiff("service", "status", "--json").expect(0).json());
    services.add(service);
    return service;
  }

  @Test
  void installUpgradeAndUninstallKeepTheStoreAndLeaveNoHookCallingAMissingScript()
      throws Exception {
    // install.sh into the user's own prefix, the default one: ~/.local, no root
    CommandRun install = user.run(release.resolve("install.sh").toString()).expect(0);
    Path lib = prefix.resolve("lib/turndiff");
    assertEquals(Path.of(Release.version()), Files.readSymbolicLink(lib.resolve("current")));
    assertEquals(lib.resolve("current/bin/turndiff"), Files.readSymbolicLink(launcher()));
    assertTrue(
        install.out().contains("echo 'export PATH=\"" + prefix.resolve("bin") + ":$PATH\"'"),
        install.out());
    assertEquals(
        "turndiff " + Release.productVersion() + "\n", turndiff("--version").expect(0).out());
    // the same version again: the same layout, nothing left over
    user.run(release.resolve("install.sh").toString(), "--prefix", prefix.toString()).expect(0);
    assertEquals(List.of(Release.version(), "current"), entries(lib));

    // hooks into settings the user has, a turn through them
    Path settings = ClaudeCodeTurn.settings(workspace);
    Files.createDirectories(settings.getParent());
    Files.write(settings, CLAUDE_SETTINGS);
    ServiceProcess old = hooksInstalledAndUsed();
    String hook = ClaudeCodeTurn.hookCommand(workspace);
    Path oldFolder = lib.resolve(Release.version());
    assertEquals(oldFolder.resolve("runtime/bin/java"), old.executable());

    // a newer version over it
    String next = Release.version() + ".next";
    CommandRun upgrade =
        user.run(newerRelease(next).resolve("install.sh").toString(), "--prefix", prefix.toString())
            .expect(0);
    assertEquals(Path.of(next), Files.readSymbolicLink(lib.resolve("current")));
    assertEquals(hook, ClaudeCodeTurn.hookCommand(workspace), "the hook command is unchanged");
    // install.sh found the service running and restarted it with `turndiff service start`
    assertTrue(upgrade.out().contains("\"replaced\":{\"pid\":" + old.pid()), upgrade.out());
    assertTrue(old.ended(), "the old service still runs");
    ServiceProcess current = runningService();
    assertNotEquals(old.pid(), current.pid());
    assertEquals(lib.resolve(next + "/runtime/bin/java"), current.executable());
    assertEquals(
        List.of(Release.version(), next, "current"), entries(lib), "the one replaced kept");
    // the hooks written by the old version work on the new one, on the same store
    ClaudeCodeTurn.edit(user, workspace, "app.py", "print('three')\n");
    JsonNode sessions =
        turndiff("turns", "--workspace", workspace.toString()).expect(0).json().get("sessions");
    assertEquals(2, sessions.size(), sessions.toString());
    // and `service start` now finds its own program running
    JsonNode again = turndiff("service", "start").expect(0).json();
    assertFalse(again.get("started").asBoolean(), again.toString());
    assertEquals(current.pid(), again.get("pid").asLong());

    // uninstall: the hooks out, the service stopped, the program gone, the store kept
    CommandRun uninstall = turndiff("uninstall").expect(0);
    assertArrayEquals(CLAUDE_SETTINGS, Files.readAllBytes(settings), uninstall.out());
    assertTrue(current.ended(), "the service still runs: " + uninstall.out());
    assertFalse(Files.exists(lib, LinkOption.NOFOLLOW_LINKS), uninstall.out());
    assertFalse(Files.exists(launcher(), LinkOption.NOFOLLOW_LINKS), uninstall.out());
    assertTrue(Files.exists(user.home().resolve(".local/share/turndiff/turndiff.db")));
  }

  private static List<String> entries(Path folder) throws Exception {
    try (Stream<Path> entries = Files.list(folder)) {
      return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
    }
  }

  /** This release, relabelled {@code version} in its {@code release} file. */
  private Path newerRelease(String version) throws Exception {
    Path copy = temp.resolve("newer/" + release.getFileName());
    Files.createDirectories(copy.getParent());
    CommandRun.ofProcess(new ProcessBuilder("cp", "-a", release.toString(), copy.toString()))
        .expect(0);
    Path file = copy.resolve("release");
    Files.writeString(
        file,
        Files.readString(file)
            .replace(
                "TURNDIFF_VERSION=\"" + Release.version() + "\"",
                "TURNDIFF_VERSION=\"" + version + "\""));
    return copy;
  }
}
