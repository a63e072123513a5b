package io.turndiff.ownfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one way turndiff writes its own files, on real files: the bytes and the mode bits on disk,
 * the syncs the JDK itself reports (JFR's {@code jdk.FileForce}, one event per {@code fsync} of a
 * file channel: the temporary file's, then the directory's, in that order), and nothing left beside
 * the target after a write, a lost race or a failure.
 */
class AtomicFileTest {

  @TempDir Path directory;

  private static final byte[] FIRST = "first\n".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SECOND = "second, longer\n".getBytes(StandardCharsets.UTF_8);

  @Test
  void replaceSyncsTheWrittenFileThenRenamesItAndSyncsTheDirectory() throws Exception {
    Path target = directory.resolve("settings.json");
    List<RecordedEvent> syncs =
        syncsDuring(
            () -> AtomicFile.replace(target, FIRST, PosixFilePermissions.fromString("rw-r--r--")));

    assertArrayEquals(FIRST, Files.readAllBytes(target));
    assertEquals(
        "rw-r--r--",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(target, LinkOption.NOFOLLOW_LINKS)));
    assertEquals(2, syncs.size(), "two syncs under the directory: " + syncs);
    Path synced = Path.of(syncs.get(0).getString("path"));
    assertEquals(directory.toAbsolutePath(), synced.getParent(), "written beside the target");
    assertTrue(
        synced.getFileName().toString().startsWith(".settings.json.")
            && synced.getFileName().toString().endsWith(AtomicFile.TEMPORARY_SUFFIX),
        "the file synced first is the temporary one: " + synced);
    assertTrue(syncs.get(0).getBoolean("metaData"), "its mode is synced with its content");
    assertEquals(
        directory.toAbsolutePath().toString(),
        syncs.get(1).getString("path"),
        "then the directory, after the rename");
    assertOnly(target);
  }

  @Test
  void replaceOverAnExistingFileGivesItTheNewBytesAndTheModeAsked() throws Exception {
    Path target = directory.resolve("token");
    AtomicFile.replace(target, SECOND, PosixFilePermissions.fromString("rw-r--r--"));
    AtomicFile.replace(target, FIRST, AtomicFile.OWNER_ONLY);

    assertArrayEquals(FIRST, Files.readAllBytes(target), "shorter than before: no old tail");
    assertEquals(AtomicFile.OWNER_ONLY, Files.getPosixFilePermissions(target));
    assertOnly(target);
  }

  @Test
  void createIfAbsentMakesTheFileOnceAndLeavesTheFirstInPlace() throws Exception {
    Path target = directory.resolve("host-id");
    List<RecordedEvent> syncs =
        syncsDuring(
            () -> assertTrue(AtomicFile.createIfAbsent(target, FIRST, AtomicFile.OWNER_ONLY)));
    assertEquals(2, syncs.size(), "the file and the directory: " + syncs);

    assertFalse(AtomicFile.createIfAbsent(target, SECOND, AtomicFile.OWNER_ONLY));
    assertArrayEquals(FIRST, Files.readAllBytes(target), "the first writer's file stays");
    assertEquals(1, Files.getAttribute(target, "unix:nlink"), "no second name of it is left");
    assertEquals(AtomicFile.OWNER_ONLY, Files.getPosixFilePermissions(target));
    assertOnly(target);
  }

  @Test
  void aFailedReplaceLeavesTheTargetAsItWasAndNoTemporaryFile() throws Exception {
    // a directory that is not empty cannot be renamed over: the write fails at its commit point
    Path target = directory.resolve("taken");
    Files.createDirectory(target);
    Files.write(target.resolve("inside"), SECOND);

    assertThrows(IOException.class, () -> AtomicFile.replace(target, FIRST, AtomicFile.OWNER_ONLY));

    assertTrue(Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS));
    assertArrayEquals(SECOND, Files.readAllBytes(target.resolve("inside")));
    assertOnly(target);
  }

  @Test
  void aWriteIntoAMissingDirectoryFailsAndMakesNothing() {
    Path target = directory.resolve("missing").resolve("file");
    assertThrows(IOException.class, () -> AtomicFile.replace(target, FIRST, AtomicFile.OWNER_ONLY));
    assertFalse(Files.exists(target.getParent(), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void theNextWriteOfATargetRemovesWhatAKilledWriterOfItLeft() throws Exception {
    // what a kill -9 between the temporary file and the rename leaves: the file, and for a new
    // SQLite database its side files, an hour old
    FileTime anHourAgo = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
    List<String> killed =
        List.of(
            ".settings.json.4417.turndiff-tmp",
            ".settings.json.4417.turndiff-tmp-wal",
            ".settings.json.4417.turndiff-tmp-shm");
    for (String name : killed) {
      Files.write(directory.resolve(name), SECOND);
      Files.setLastModifiedTime(directory.resolve(name), anHourAgo);
    }
    // a writer at work now, and another file's leftover: neither is this write's to remove
    Path live = Files.write(directory.resolve(".settings.json.9001.turndiff-tmp"), SECOND);
    Path other = directory.resolve(".token.4417.turndiff-tmp");
    Files.write(other, SECOND);
    Files.setLastModifiedTime(other, anHourAgo);

    Path target = directory.resolve("settings.json");
    AtomicFile.replace(target, FIRST, AtomicFile.OWNER_ONLY);

    assertArrayEquals(FIRST, Files.readAllBytes(target));
    for (String name : killed) {
      assertFalse(Files.exists(directory.resolve(name), LinkOption.NOFOLLOW_LINKS), name);
    }
    assertArrayEquals(SECOND, Files.readAllBytes(live), "a live writer's file is left alone");
    assertArrayEquals(SECOND, Files.readAllBytes(other), "another target's is left alone");
  }

  @Test
  void theWritesOwnFailureIsThrownNotTheCleanupsOnTopOfIt() throws Exception {
    Path target = directory.resolve("db");
    IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                AtomicFile.createIfAbsent(
                    target,
                    AtomicFile.OWNER_ONLY,
                    temporary -> {
                      // a content writer that fails after leaving what cannot simply be deleted
                      Files.delete(temporary);
                      Files.createDirectory(temporary);
                      Files.write(temporary.resolve("inside"), SECOND);
                      throw new IOException("the content's own failure");
                    }));
    assertEquals("the content's own failure", thrown.getMessage());
    assertEquals(1, thrown.getSuppressed().length, "the cleanup's failure rides along");
    assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS));
  }

  /** Asserts that {@code target} is the only entry of the directory. */
  private void assertOnly(Path target) throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      assertEquals(
          List.of(target.getFileName().toString()),
          entries.map(p -> p.getFileName().toString()).toList());
    }
  }

  @FunctionalInterface
  private interface Write {
    void run() throws IOException;
  }

  /**
   * The file channel syncs of paths under the test's directory while {@code write} runs, in order.
   */
  private List<RecordedEvent> syncsDuring(Write write) throws IOException {
    Path dump = Files.createTempFile("atomic-file-test", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.FileForce").withThreshold(Duration.ZERO);
      recording.start();
      write.run();
      recording.stop();
      recording.dump(dump);
      String under = directory.toAbsolutePath().toString();
      return RecordingFile.readAllEvents(dump).stream()
          .filter(event -> event.getEventType().getName().equals("jdk.FileForce"))
          .filter(event -> event.getString("path").startsWith(under))
          .sorted(Comparator.comparing(RecordedEvent::getStartTime))
          .toList();
    } finally {
      Files.deleteIfExists(dump);
    }
  }
}
