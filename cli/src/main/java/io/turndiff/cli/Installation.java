package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.hooks.install.HookScript;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the turndiff that runs was installed, and how {@code turndiff uninstall} removes it
 * (docs/install.md): by install.sh under a prefix, by npm, by a Debian package, or not at all (a
 * checkout, an unpacked release, which stay). It is found from the launcher's home: {@code
 * $TURNDIFF_HOME}, which the release's launcher sets, else the checkout the jar belongs to.
 *
 * <p>These are the program's own files, not a workspace's, so they go through {@code
 * io.turndiff.ownfiles}; a removal never follows a link (a link is removed as a link).
 */
sealed interface Installation {

  /** The record dpkg keeps of the files of the package {@code turndiff}. */
  Path DPKG_LIST = Path.of("/var/lib/dpkg/info/turndiff.list");

  /** Where the Debian package puts the release. */
  Path DEBIAN_HOME = Path.of("/usr/lib/turndiff");

  /** Removes the program, saying what it removed or what the user must run. */
  void remove(PrintWriter out) throws IOException;

  /** The installation the launcher's home belongs to. */
  static Installation of(Map<String, String> environment) {
    return of(HookScript.find(environment).home());
  }

  static Installation of(Path home) {
    return Prefix.of(home)
        .or(() -> Npm.of(home))
        .or(() -> Debian.of(home))
        .orElseGet(() -> new Unmanaged(home));
  }

  /**
   * install.sh's: {@code PREFIX/lib/turndiff/<version>/}, the link {@code current} to the version
   * in use, and the link {@code PREFIX/bin/turndiff} to {@code current}'s launcher.
   */
  record Prefix(Path prefix) implements Installation {

    static Optional<Installation> of(Path home) {
      Path lib = home.getParent();
      if (lib == null
          || lib.getParent() == null
          || lib.getParent().getParent() == null
          || !lib.getFileName().toString().equals("turndiff")
          || !lib.getParent().getFileName().toString().equals("lib")
          || !OwnFile.of(lib.resolve("current")).isSymbolicLink()) {
        return Optional.empty();
      }
      try {
        return OwnFile.of(lib.resolve("current")).isSameFile(home)
            ? Optional.of(new Prefix(lib.getParent().getParent()))
            : Optional.empty();
      } catch (IOException e) {
        return Optional.empty();
      }
    }

    Path lib() {
      return prefix.resolve("lib/turndiff");
    }

    Path link() {
      return prefix.resolve("bin/turndiff");
    }

    @Override
    public void remove(PrintWriter out) throws IOException {
      OwnFile link = OwnFile.of(link());
      if (link.linkTarget().filter(lib().resolve("current/bin/turndiff")::equals).isPresent()
          && link.deleteIfExists()) {
        out.println("removed " + link.path());
      }
      deleteTree(lib());
      out.println("removed " + lib());
    }
  }

  /**
   * npm's: the platform package {@code @turndiff/<platform>} is the home, under the package {@code
   * turndiff} (a global install from the registry) or beside it (a project's {@code node_modules},
   * npx's cache, or both packages installed globally from their files). A global install is removed
   * with npm itself; the others are a project's business.
   *
   * @param modules the {@code node_modules} folder that holds {@code turndiff}
   * @param packages the packages installed there that are turndiff's
   */
  record Npm(Path modules, List<String> packages) implements Installation {

    static Optional<Installation> of(Path home) {
      Path scope = home.getParent();
      if (scope == null
          || scope.getParent() == null
          || !scope.getFileName().toString().equals("@turndiff")
          || !scope.getParent().getFileName().toString().equals("node_modules")) {
        return Optional.empty();
      }
      Path nested = scope.getParent();
      Path main = nested.getParent();
      if (main != null
          && main.getFileName().toString().equals("turndiff")
          && main.getParent() != null
          && main.getParent().getFileName().toString().equals("node_modules")) {
        return Optional.of(new Npm(main.getParent(), List.of("turndiff")));
      }
      List<String> packages = new ArrayList<>();
      if (OwnDirectory.of(nested.resolve("turndiff")).isDirectory()) {
        packages.add("turndiff");
      }
      packages.add("@turndiff/" + home.getFileName());
      return Optional.of(new Npm(nested, packages));
    }

    /** {@code PREFIX} of a global install, {@code PREFIX/lib/node_modules}. */
    Optional<Path> globalPrefix() {
      Path lib = modules.getParent();
      return lib != null && lib.getFileName().toString().equals("lib") && lib.getParent() != null
          ? Optional.of(lib.getParent())
          : Optional.empty();
    }

    @Override
    public void remove(PrintWriter out) throws IOException {
      if (globalPrefix().isEmpty()) {
        out.println(
            "the program stays: npm installed it in "
                + modules
                + " (a project's dependency, or npx's cache); there, npm uninstall turndiff"
                + " removes it");
        return;
      }
      List<String> command =
          new ArrayList<>(
              List.of("npm", "uninstall", "--global", "--prefix", globalPrefix().get().toString()));
      command.addAll(packages);
      out.println("removing the npm package: " + String.join(" ", command));
      out.flush();
      Process npm;
      try {
        npm = new ProcessBuilder(command).redirectErrorStream(true).start();
      } catch (IOException e) {
        throw new CliException(
            ExitCode.ERROR,
            "cannot run npm (" + e.getMessage() + "); remove the program with: " + command);
      }
      npm.getOutputStream().close();
      String said = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      out.print(said);
      try {
        if (npm.waitFor() != 0) {
          throw new CliException(
              ExitCode.ERROR, "npm uninstall failed (exit " + npm.exitValue() + ")");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(ExitCode.ERROR, "interrupted while npm uninstall ran");
      }
    }
  }

  /** The Debian package's: only dpkg removes it, and only root may. */
  record Debian(Path home) implements Installation {

    static Optional<Installation> of(Path home) {
      return home.equals(DEBIAN_HOME) && OwnFile.of(DPKG_LIST).isRegularFile()
          ? Optional.of(new Debian(home))
          : Optional.empty();
    }

    @Override
    public void remove(PrintWriter out) {
      out.println(
          "the program is the Debian package turndiff: remove it with sudo apt remove turndiff"
              + " (each other user who installed hooks runs turndiff uninstall first)");
    }
  }

  /** A checkout or an unpacked release: nothing installed it, so nothing here removes it. */
  record Unmanaged(Path home) implements Installation {

    @Override
    public void remove(PrintWriter out) {
      out.println(
          "the program stays: "
              + home
              + " was not installed by install.sh, npm or dpkg (a checkout or an unpacked"
              + " release); delete it to remove it");
    }
  }

  /** Deletes {@code root} and everything under it; links are removed, never followed. */
  static void deleteTree(Path root) throws IOException {
    OwnDirectory.of(root).removeTree();
  }
}
