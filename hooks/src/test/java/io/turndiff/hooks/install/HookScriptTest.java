package io.turndiff.hooks.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher the MCP server entry names is the one the hook script starts the service with: a
 * release's {@code bin/turndiff} beside the script, else a checkout's {@code turndiff} above it;
 * the hook command is the hook client beside the script once it is built.
 */
class HookScriptTest {

  @TempDir Path temp;

  private static void executable(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void aReleasesLauncherIsInBinAndACheckoutsAboveIt() throws Exception {
    Path release = temp.resolve("release");
    executable(release.resolve("bin/turndiff-hook"));
    executable(release.resolve("bin/turndiff"));
    Path checkout = temp.resolve("checkout");
    executable(checkout.resolve("bin/turndiff-hook"));
    executable(checkout.resolve("turndiff"));

    HookScript fromRelease = HookScript.find(Map.of("TURNDIFF_HOME", release.toString()));
    assertEquals(release.resolve("bin/turndiff"), fromRelease.launcher());
    assertEquals(
        release.resolve("bin/turndiff").toString(),
        McpServer.of(fromRelease, null).entry().path("command").asText());
    HookScript fromCheckout = HookScript.find(Map.of("TURNDIFF_HOME", checkout.toString()));
    assertEquals(checkout.resolve("turndiff"), fromCheckout.launcher());
  }

  @Test
  void theHookCommandIsTheClientOnceBuiltElseTheScript() throws Exception {
    Path home = temp.resolve("it's home");
    executable(home.resolve("bin/turndiff-hook"));
    HookScript script = HookScript.find(Map.of("TURNDIFF_HOME", home.toString()));
    assertEquals(
        "'" + home.toString().replace("'", "'\\''") + "/bin/turndiff-hook' codex --git-root",
        script.command(HookRuntime.CODEX, true, false));

    Path client = home.resolve("bin/turndiff-hook-client");
    Files.writeString(client, "not yet executable");
    assertEquals(
        "'" + home.toString().replace("'", "'\\''") + "/bin/turndiff-hook' gemini",
        script.command(HookRuntime.GEMINI, false, false),
        "a client that is not an executable file is not used");
    executable(client);
    String command = script.command(HookRuntime.CLAUDE_CODE, false, true);
    assertEquals(
        "'"
            + home.toString().replace("'", "'\\''")
            + "/bin/turndiff-hook-client' claude-code --auto-track",
        command);
    assertTrue(HookRuntime.CLAUDE_CODE.isTurndiffCommand(command));
  }
}
