package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.model.TestHook;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A watch's own resources: its cookie directory in the temp dir, with real inotify. */
class TreeWatchTest {

  private static final Pattern WATCHED_INODE = Pattern.compile("^inotify wd:\\S+ ino:([0-9a-f]+)");

  private final AtomicBoolean failReader = new AtomicBoolean();

  private final TestHook hook =
      point -> {
        if (point == TestHook.Point.WATCH_READING && failReader.get()) {
          throw new IllegalStateException("the watch's read failed");
        }
      };

  @Test
  void closingAWatchRemovesItsCookieDirectory() throws Exception {
    assumeTrue(Portability.current() == Portability.LINUX, "a default run");
    Set<Path> before = cookieDirectories();
    try (TreeWatch watch = open()) {
      Path cookies = cookieDirectoryOf(before);
      assertTrue(watch.sync(Duration.ofSeconds(5)).isPresent());
      watch.close();
      assertFalse(Files.exists(cookies), cookies + " is left behind");
    }
  }

  @Test
  void closingAWatchWhoseReaderFailedStillRemovesItsCookieDirectory() throws Exception {
    assumeTrue(Portability.current() == Portability.LINUX, "a default run");
    Set<Path> before = cookieDirectories();
    try (TreeWatch watch = open()) {
      closeAfterTheReaderFailed(watch, cookieDirectoryOf(before));
    }
  }

  /**
   * Makes the reader of {@code watch} fail, then closes the watch twice: the first close removes
   * its cookie directory {@code cookies}, which the failed reader left, and the second does
   * nothing.
   */
  private void closeAfterTheReaderFailed(TreeWatch watch, Path cookies) throws Exception {
    failReader.set(true);
    // the reader reads the sync's cookie, then fails before its next read
    watch.sync(Duration.ofSeconds(5));
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!watch.isClosed() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertTrue(watch.isClosed(), "the reader failed and closed the watch");
    assertTrue(Files.isDirectory(cookies), "the reader leaves the directory to close()");
    watch.close();
    assertFalse(Files.exists(cookies), cookies + " is left behind");
    watch.close(); // again: nothing more to do, and nothing fails
    assertFalse(Files.exists(cookies));
  }

  private TreeWatch open() {
    return TreeWatch.open(new TreeWatch.Settings(TreeWatch.Settings.DEFAULTS.maxWatches(), hook))
        .orElseThrow();
  }

  /**
   * The cookie directory of the watch just opened: new in the temp dir since {@code before}, and
   * watched by an inotify instance of this process (other test JVMs may open watches meanwhile).
   */
  private static Path cookieDirectoryOf(Set<Path> before) throws IOException {
    Set<Long> watchedInodes = watchedInodes();
    List<Path> ours = new ArrayList<>();
    for (Path directory : cookieDirectories()) {
      if (before.contains(directory)) {
        continue;
      }
      try {
        if (watchedInodes.contains((Long) Files.getAttribute(directory, "unix:ino"))) {
          ours.add(directory);
        }
      } catch (NoSuchFileException e) {
        // another test JVM's watch, closed since the listing
      }
    }
    assertEquals(1, ours.size(), "the new watch's cookie directory: " + ours);
    return ours.getFirst();
  }

  private static Set<Path> cookieDirectories() throws IOException {
    Set<Path> found = new HashSet<>();
    Path temp = Path.of(System.getProperty("java.io.tmpdir"));
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(temp, "turndiff-watch-*")) {
      entries.forEach(found::add);
    }
    return found;
  }

  /** The inodes every inotify instance of this process watches ({@code /proc/self/fdinfo}). */
  private static Set<Long> watchedInodes() throws IOException {
    Set<Long> inodes = new HashSet<>();
    List<Path> descriptors;
    try (var listing = Files.list(Path.of("/proc/self/fd"))) {
      descriptors = listing.toList();
    }
    for (Path descriptor : descriptors) {
      try {
        if (!Files.readSymbolicLink(descriptor).toString().equals("anon_inode:inotify")) {
          continue;
        }
        for (String line :
            Files.readAllLines(Path.of("/proc/self/fdinfo", descriptor.getFileName().toString()))) {
          Matcher matcher = WATCHED_INODE.matcher(line);
          if (matcher.find()) {
            inodes.add(Long.parseUnsignedLong(matcher.group(1), 16));
          }
        }
      } catch (IOException e) {
        // a descriptor closed since the listing (the listing's own, another thread's)
      }
    }
    return inodes;
  }
}
