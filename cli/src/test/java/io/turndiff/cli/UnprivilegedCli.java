package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The packaged jar run by a user that file permissions bind: root reads any file, so as root it
 * runs as nobody ({@code setpriv}); as anyone else, as itself. The temp dir, the workspace root and
 * the store's folder are opened to everyone so that nobody can work there.
 */
final class UnprivilegedCli {

  private final Path jar;
  private final String[] prefix;
  private final Map<String, String> environment;

  private UnprivilegedCli(Path jar, String[] prefix, Map<String, String> environment) {
    this.jar = jar;
    this.prefix = prefix;
    this.environment = environment;
  }

  static UnprivilegedCli in(Path temp, TestWorkspace workspace) throws IOException {
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setPosixFilePermissions(workspace.root(), PosixFilePermissions.fromString("rwxrwxrwx"));
    Path storeDir = Files.createDirectories(temp.resolve("nobody-store"));
    Files.setPosixFilePermissions(storeDir, PosixFilePermissions.fromString("rwxrwxrwx"));
    // nobody may not be able to reach the build's folder (a fresh clone under a 0700 temp dir):
    // copy the jar
    Path jar = Files.copy(CliProcess.jar(), temp.resolve("turndiff.jar"));
    Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
    String[] prefix =
        TestWorkspace.isRoot()
            ? new String[] {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"}
            : new String[0];
    return new UnprivilegedCli(
        jar, prefix, Map.of("TURNDIFF_DB", storeDir.resolve("turndiff.db").toString()));
  }

  CommandRun run(String... args) throws IOException, InterruptedException {
    return CliProcess.runPrefixed(jar, prefix, environment, args);
  }
}
