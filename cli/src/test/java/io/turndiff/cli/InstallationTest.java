package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an installation is told from the launcher's home, on the layouts install.sh and npm make in a
 * temporary folder; install.sh's is removed here for real (npm's and the Debian package's removal
 * run in the dist module's tests, with npm and dpkg).
 */
class InstallationTest {

  @TempDir Path temp;

  @Test
  void installShsLayoutIsFoundByItsCurrentLinkAndRemovedWithoutFollowingALink() throws Exception {
    Path prefix = temp.resolve("prefix");
    Path lib = prefix.resolve("lib/turndiff");
    Path version = Files.createDirectories(lib.resolve("0.1.0/bin"));
    Files.writeString(version.resolve("turndiff"), "#!/bin/sh\n");
    Files.createSymbolicLink(lib.resolve("current"), Path.of("0.1.0"));
    Files.createDirectories(prefix.resolve("bin"));
    Files.createSymbolicLink(prefix.resolve("bin/turndiff"), lib.resolve("current/bin/turndiff"));
    Files.writeString(prefix.resolve("bin/other"), "another program");
    Path outside = Files.writeString(temp.resolve("outside.txt"), "not turndiff's");
    Files.createSymbolicLink(version.resolve("link-out"), outside);

    Installation found = Installation.of(lib.resolve("current"));
    assertEquals(new Installation.Prefix(prefix), found);
    assertEquals(found, Installation.of(lib.resolve("0.1.0")), "its versioned folder");
    StringWriter said = new StringWriter();
    found.remove(new PrintWriter(said, true));

    assertFalse(Files.exists(lib, LinkOption.NOFOLLOW_LINKS), said.toString());
    assertFalse(Files.exists(prefix.resolve("bin/turndiff"), LinkOption.NOFOLLOW_LINKS));
    assertEquals("another program", Files.readString(prefix.resolve("bin/other")));
    assertEquals("not turndiff's", Files.readString(outside));
    assertTrue(said.toString().contains("removed " + lib), said.toString());
  }

  @Test
  void aLinkOnThePathThatIsNotTurndiffsStays() throws Exception {
    Path prefix = temp.resolve("prefix");
    Path lib = prefix.resolve("lib/turndiff");
    Files.createDirectories(lib.resolve("0.1.0/bin"));
    Files.createSymbolicLink(lib.resolve("current"), Path.of("0.1.0"));
    Files.createDirectories(prefix.resolve("bin"));
    Path elsewhere = Files.writeString(temp.resolve("my-turndiff"), "#!/bin/sh\n");
    Files.createSymbolicLink(prefix.resolve("bin/turndiff"), elsewhere);

    Installation.of(lib.resolve("current")).remove(new PrintWriter(new StringWriter()));

    assertTrue(Files.isSymbolicLink(prefix.resolve("bin/turndiff")));
    assertFalse(Files.exists(lib));
  }

  @Test
  void npmsLayoutsGlobalOrNot() throws Exception {
    // npm install -g turndiff: the platform package under the main one
    Path nested =
        Files.createDirectories(
            temp.resolve("g/lib/node_modules/turndiff/node_modules/@turndiff/linux-x64"));
    Installation.Npm global = (Installation.Npm) Installation.of(nested);
    assertEquals(List.of("turndiff"), global.packages());
    assertEquals(Optional.of(temp.resolve("g")), global.globalPrefix());

    // npm install -g of both packages' files: side by side, both removed
    Path beside = Files.createDirectories(temp.resolve("s/lib/node_modules/@turndiff/linux-x64"));
    Files.createDirectories(temp.resolve("s/lib/node_modules/turndiff"));
    Installation.Npm both = (Installation.Npm) Installation.of(beside);
    assertEquals(List.of("turndiff", "@turndiff/linux-x64"), both.packages());
    assertEquals(Optional.of(temp.resolve("s")), both.globalPrefix());

    // npx's cache: not a global install, nothing removed
    Path npx =
        Files.createDirectories(temp.resolve("h/.npm/_npx/4f2a/node_modules/@turndiff/linux-x64"));
    Installation.Npm cached = (Installation.Npm) Installation.of(npx);
    assertEquals(Optional.empty(), cached.globalPrefix());
    StringWriter said = new StringWriter();
    cached.remove(new PrintWriter(said, true));
    assertTrue(
        said.toString().startsWith("the program stays: npm installed it in "), said.toString());
    assertTrue(Files.isDirectory(npx));
  }

  @Test
  void aCheckoutOrAnUnpackedReleaseStays() throws Exception {
    Path checkout = Files.createDirectories(temp.resolve("turndiff"));
    Installation found = Installation.of(checkout);
    assertEquals(new Installation.Unmanaged(checkout), found);
    StringWriter said = new StringWriter();
    found.remove(new PrintWriter(said, true));
    assertTrue(said.toString().startsWith("the program stays: " + checkout), said.toString());
    assertTrue(Files.isDirectory(checkout));
  }
}
