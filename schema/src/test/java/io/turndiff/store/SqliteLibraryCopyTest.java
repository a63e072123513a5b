package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * The copy of sqlite-jdbc's native library beside the jar: made once with the jar's bytes, then
 * found at every start without starting a process (sqlite-jdbc's own look-up of its platform folder
 * runs {@code uname -o}), as the JVM's own process-start events show.
 */
class SqliteLibraryCopyTest {

  @TempDir Path temp;

  @Test
  void theCopyIsMadeOnceAndThenFoundWithoutStartingAProcess() throws Exception {
    Path folder = temp.resolve("turndiff.native");
    String resource =
        LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName();
    byte[] jars;
    try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
      assumeTrue(in != null, "sqlite-jdbc has a library for this platform");
      jars = in.readAllBytes();
    }

    Path made = SqliteLibraryCopy.use(folder).orElseThrow();
    assertTrue(made.startsWith(folder.toAbsolutePath()), made.toString());
    assertArrayEquals(jars, Files.readAllBytes(made), "the jar's library, whole");

    Optional<Path> found;
    List<RecordedEvent> started;
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ProcessStart");
      recording.start();
      found = SqliteLibraryCopy.use(folder);
      recording.stop();
      Path events = temp.resolve("events.jfr");
      recording.dump(events);
      started = RecordingFile.readAllEvents(events);
    }
    assertEquals(Optional.of(made), found);
    assertEquals(
        List.of(),
        started.stream().map(event -> event.getString("command")).toList(),
        "no process started to find the copy");
  }
}
