package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The npm packages: {@code npm install -g turndiff} and {@code npx turndiff} from a registry on
 * loopback that serves the built {@code .tgz} files ({@link LoopbackRegistry}: npm picks the
 * platform package among the optional dependencies, as it will from the public registry), and
 * {@code npm install -g} of the two files themselves. npm runs with Node; the installed turndiff
 * runs with neither a JDK nor Node ({@link Sandbox}), and {@code turndiff uninstall} ends with
 * {@code npm uninstall -g}.
 */
class NpmPackagesIT {

  @TempDir Path temp;

  private Sandbox npm;
  private Sandbox user;
  private Path prefix;
  private final List<ServiceProcess> services = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    // one user: npm's commands see Node, turndiff's do not
    npm = Sandbox.in(temp.resolve("user")).withNode().env("TURNDIFF_HOOK_START_WAIT", "60");
    user = Sandbox.in(temp.resolve("user")).env("TURNDIFF_HOOK_START_WAIT", "60");
    prefix = temp.resolve("user/home/.npm-global");
  }

  @AfterEach
  void tearDown() {
    services.forEach(ServiceProcess::kill);
  }

  private String npmOptions() {
    return "--cache=" + temp.resolve("npm-cache") + " --no-audit --no-fund --loglevel=warn";
  }

  private CommandRun turndiff(Sandbox as, String... args) throws Exception {
    return as.run(prefix.resolve("bin/turndiff"), args);
  }

  @Test
  void npmInstallGlobalAndNpxFromTheRegistry() throws Exception {
    Path platform = prefix.resolve("lib/node_modules/turndiff/node_modules/@turndiff/linux-x64");
    Path workspace = Files.createDirectories(temp.resolve("project"));
    Files.writeString(workspace.resolve("app.py"), "print('one')\n");
    try (LoopbackRegistry registry = LoopbackRegistry.serving(Release.npmPackages())) {
      String registryOption = " --registry=" + registry.url() + " " + npmOptions();
      npm.run(
              "sh",
              "-c",
              "npm install --global --prefix='" + prefix + "'" + registryOption + " turndiff")
          .expect(0);
      assertTrue(Files.isDirectory(platform), "the platform package under turndiff");

      assertEquals(
          "turndiff " + Release.productVersion() + "\n",
          turndiff(user, "--version").expect(0).out());
      CommandRun npx =
          npm.run(
                  "sh",
                  "-c",
                  "npm exec --yes" + registryOption + " --package=turndiff -- turndiff --version")
              .expect(0);
      assertEquals("turndiff " + Release.productVersion() + "\n", npx.out());
    }

    ServiceProcess service =
        ClaudeCodeTurn.installedAndUsed(
            user,
            prefix.resolve("bin/turndiff"),
            workspace,
            platform.resolve("bin/turndiff-hook-client"));
    services.add(service);
    assertEquals(platform.resolve("runtime/bin/java"), service.executable());

    CommandRun uninstall = turndiff(npm, "uninstall").expect(0);

    assertFalse(Files.exists(ClaudeCodeTurn.settings(workspace)), uninstall.out());
    assertTrue(service.ended(), "the service still runs");
    assertFalse(Files.exists(prefix.resolve("lib/node_modules/turndiff")), uninstall.out());
    assertFalse(Files.exists(prefix.resolve("bin/turndiff"), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void npmInstallGlobalOfTheTwoFiles() throws Exception {
    Path packages = Release.npmPackages();
    String files =
        "'"
            + packages.resolve("turndiff-linux-x64-" + Release.version() + ".tgz")
            + "' '"
            + packages.resolve("turndiff-" + Release.version() + ".tgz")
            + "'";
    npm.run(
            "sh",
            "-c",
            "npm install --global --offline --prefix='"
                + prefix
                + "' "
                + npmOptions()
                + " "
                + files)
        .expect(0);

    assertEquals(
        "turndiff " + Release.productVersion() + "\n", turndiff(user, "--version").expect(0).out());
    CommandRun uninstall = turndiff(npm, "uninstall").expect(0);
    assertFalse(Files.exists(prefix.resolve("lib/node_modules/turndiff")), uninstall.out());
    assertFalse(
        Files.exists(prefix.resolve("lib/node_modules/@turndiff/linux-x64")), uninstall.out());
  }
}
