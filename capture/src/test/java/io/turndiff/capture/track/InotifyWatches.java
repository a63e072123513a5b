package io.turndiff.capture.track;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The inodes this process's inotify instances watch, as the kernel lists them in {@code
 * /proc/self/fdinfo} ({@code inotify wd:… ino:… sdev:…}).
 */
final class InotifyWatches {

  private InotifyWatches() {}

  static Set<Long> inodesOfThisProcess() {
    Set<Long> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (IOException gone) {
          continue;
        }
        if (!target.equals("anon_inode:inotify")) {
          continue;
        }
        for (String line :
            Files.readAllLines(Path.of("/proc/self/fdinfo").resolve(fd.getFileName()))) {
          if (line.startsWith("inotify wd:")) {
            for (String field : line.split(" ")) {
              if (field.startsWith("ino:")) {
                inodes.add(Long.parseLong(field.substring(4), 16));
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return inodes;
  }
}
