package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.fail;

import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The machine's own Chromium and ChromeDriver: Debian's {@code chromium} and {@code
 * chromium-driver}, installed with apt-get when they are missing (we run as root here and in CI,
 * and apt reaches Debian's packages), so that {@code ./mvnw -B verify} on a fresh machine needs no
 * step by hand. No browser build is ever downloaded: Selenium is told both paths.
 */
final class DebianChromium {

  static final Path BROWSER = Path.of(System.getProperty("panel.chromium", "/usr/bin/chromium"));
  static final Path DRIVER =
      Path.of(System.getProperty("panel.chromedriver", "/usr/bin/chromedriver"));

  private static final List<String> INSTALL =
      List.of(
          "apt-get",
          "install",
          "-y",
          "-q",
          "--no-install-recommends",
          // another apt run (another build on the machine) holds the lock: wait for it
          "-o",
          "DPkg::Lock::Timeout=600",
          "chromium",
          "chromium-driver");

  private static boolean checked;

  private DebianChromium() {}

  /**
   * Makes sure both are there: installs them when missing and possible; otherwise fails under CI
   * (where a skipped browser test would hide a broken set-up) and skips elsewhere, naming the
   * command.
   */
  static synchronized void ensureInstalled() {
    if (checked) {
      return;
    }
    if (!present()) {
      String why = install();
      if (!present()) {
        String message =
            "the browser tests need Debian's chromium and chromium-driver ("
                + BROWSER
                + ", "
                + DRIVER
                + "): "
                + why
                + ". Install them: apt-get install --no-install-recommends chromium chromium-driver";
        if ("true".equals(System.getenv("CI"))) {
          fail(message);
        }
        Assumptions.abort(message);
      }
    }
    checked = true;
  }

  private static boolean present() {
    return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
  }

  /** Runs apt-get; says why it could not when it could not. */
  private static String install() {
    if (!TestWorkspace.isRoot()) {
      return "they are missing, and only root may install them";
    }
    if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
      return "they are missing, and this machine has no apt-get";
    }
    try {
      run(List.of("apt-get", "update", "-q", "-o", "DPkg::Lock::Timeout=600"));
      run(INSTALL);
      return "apt-get ran, yet they are still missing";
    } catch (IOException e) {
      return "apt-get failed: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while apt-get ran";
    }
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    System.out.println("browser tests: " + String.join(" ", command));
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
    Process process = builder.start();
    if (!process.waitFor(15, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " took over 15 minutes");
    }
    if (process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " exited with " + process.exitValue());
    }
  }
}
