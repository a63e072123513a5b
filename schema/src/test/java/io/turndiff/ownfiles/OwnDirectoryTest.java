package io.turndiff.ownfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory of turndiff's own, on real directories: made with its mode from its creation, listed,
 * and removed without following a link out of it (the canary outside stays whole).
 */
class OwnDirectoryTest {

  @TempDir Path directory;

  @Test
  void eachLevelMadePrivateIsPrivateAndAnExistingOneIsLeft() throws IOException {
    Files.createDirectory(directory.resolve("data"));
    Path run = directory.resolve("data/turndiff/run");

    OwnDirectory.of(run).makePrivate();

    assertEquals("rwx------", mode(directory.resolve("data/turndiff")));
    assertEquals("rwx------", mode(run));
    assertEquals(
        PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)),
        mode(directory),
        "the one there already is left as it is");
    assertFalse(OwnDirectory.of(run).createPrivate(), "a name there is left for the caller");
  }

  @Test
  void makeEachReturnsWhatItMadeOutermostFirstAndRemoveIfEmptyStopsAtContent() throws IOException {
    List<Path> made = OwnDirectory.of(directory.resolve("a/b")).makeEach();

    assertEquals(List.of(directory.resolve("a"), directory.resolve("a/b")), made);
    Files.writeString(directory.resolve("a/kept"), "x");
    assertTrue(OwnDirectory.of(directory.resolve("a/b")).removeIfEmpty());
    assertFalse(OwnDirectory.of(directory.resolve("a")).removeIfEmpty(), "not empty: it stays");
    assertTrue(Files.exists(directory.resolve("a/kept")));
  }

  @Test
  void aMissingDirectoryListsNothing() throws IOException {
    assertEquals(List.of(), OwnDirectory.of(directory.resolve("none")).list("*.json"));
    Files.writeString(directory.resolve("one.json"), "{}");
    Files.writeString(directory.resolve("one.token"), "t");
    assertEquals(List.of(directory.resolve("one.json")), OwnDirectory.of(directory).list("*.json"));
  }

  @Test
  void removingATreeRemovesItsLinksAndNeverWhatTheyLeadTo() throws IOException {
    Path outside = Files.createDirectory(directory.resolve("outside"));
    Path canary = Files.writeString(outside.resolve("canary"), "the user's");
    Path tree = Files.createDirectories(directory.resolve("lib/turndiff/1.0/bin"));
    Files.writeString(tree.resolve("turndiff"), "#!/bin/sh\n");
    Files.createSymbolicLink(tree.resolve("to-outside"), outside);
    Files.createSymbolicLink(directory.resolve("lib/turndiff/current"), tree.getParent());

    OwnDirectory.of(directory.resolve("lib/turndiff")).removeTree();

    assertFalse(Files.exists(directory.resolve("lib/turndiff"), LinkOption.NOFOLLOW_LINKS));
    assertEquals("the user's", Files.readString(canary));
    assertTrue(Files.isDirectory(outside));
    OwnDirectory.of(directory.resolve("lib/turndiff")).removeTree();
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }
}
