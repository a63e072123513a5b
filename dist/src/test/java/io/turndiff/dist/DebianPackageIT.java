package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package, installed on this machine with dpkg and removed again (root only: CI runs as
 * root on a machine of its own; the test refuses to touch a turndiff package it did not install).
 * Installed, turndiff runs from {@code /usr/lib/turndiff} without a JDK or Node, its hooks call
 * {@code /usr/lib/turndiff/bin/turndiff-hook-client} (the same path in every version), and {@code
 * turndiff uninstall} takes them out and says how the package itself goes.
 */
class DebianPackageIT {

  private static final Path HOME = Path.of("/usr/lib/turndiff");

  @TempDir Path temp;

  private ServiceProcess service;

  @AfterEach
  void tearDown() throws Exception {
    if (service != null) {
      service.kill();
    }
    if (installed()) {
      dpkg("--remove", "turndiff");
    }
  }

  private static boolean installed() throws Exception {
    CommandRun status =
        CommandRun.ofProcess(new ProcessBuilder("dpkg-query", "-W", "-f=${Status}", "turndiff"));
    return status.out().contains("install ok installed");
  }

  /** dpkg, waiting (at most ten minutes) while another dpkg or apt holds its lock. */
  private static CommandRun dpkg(String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = "dpkg";
    System.arraycopy(args, 0, command, 1, args.length);
    Instant deadline = Instant.now().plus(Duration.ofMinutes(10));
    while (true) {
      CommandRun run = CommandRun.ofProcess(new ProcessBuilder(command));
      if (run.exitCode() == 0 || !run.err().contains("lock") || Instant.now().isAfter(deadline)) {
        return run.expect(0);
      }
      Thread.sleep(2000);
    }
  }

  @Test
  void installedItRunsWithoutAJdkItsHooksComeOutAndTheRemovalLeavesNothing() throws Exception {
    assumeTrue(TestWorkspace.isRoot(), "installing a Debian package needs root");
    assertFalse(installed(), "a turndiff package is installed already: not touching it");
    dpkg("--install", Release.debianPackage().toString());
    assertEquals(HOME.resolve("bin/turndiff"), Path.of("/usr/bin/turndiff").toRealPath());

    Sandbox user = Sandbox.in(temp.resolve("user")).env("TURNDIFF_HOOK_START_WAIT", "60");
    assertEquals(
        "turndiff " + Release.productVersion() + "\n",
        user.run("turndiff", "--version").expect(0).out());
    Path workspace = ClaudeCodeTurn.project(temp.resolve("project"));
    service =
        ClaudeCodeTurn.installedAndUsed(
            user,
            Path.of("/usr/bin/turndiff"),
            workspace,
            HOME.resolve("bin/turndiff-hook-client"));
    assertEquals(HOME.resolve("runtime/bin/java"), service.executable());

    CommandRun uninstall = user.run("turndiff", "uninstall").expect(0);
    assertFalse(Files.exists(ClaudeCodeTurn.settings(workspace)), uninstall.out());
    assertTrue(service.ended(), "the service still runs");
    assertTrue(uninstall.out().contains("sudo apt remove turndiff"), uninstall.out());
    assertTrue(Files.isDirectory(HOME), "uninstall leaves dpkg's files to dpkg");

    dpkg("--remove", "turndiff");
    assertFalse(installed());
    assertFalse(Files.exists(HOME, LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(Path.of("/usr/bin/turndiff"), LinkOption.NOFOLLOW_LINKS));
  }
}
