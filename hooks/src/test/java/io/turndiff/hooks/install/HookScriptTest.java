package io.turndiff.hooks.install;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher the MCP server entry names is the one the hook script starts the service with: a
 * release's {@code bin/turndiff} beside the script, else a checkout's {@code turndiff} above it.
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
}
