package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a whole walk that enters every directory told its visitor, in order: the regular files found
 * with their sizes, the directories entered and those it could not list, and the most file
 * descriptors the process held while it walked (sampled every hundred directories).
 */
final class FoundInWalk implements ScanVisitor {
  final List<String> files = new ArrayList<>();
  final List<Long> sizes = new ArrayList<>();
  final List<String> unlisted = new ArrayList<>();
  int entered;
  long mostDescriptors;

  @Override
  public void entering(Optional<WorkspacePath> directory, Set<String> interestingPresent) {
    entered++;
    if (entered % 100 == 0) {
      mostDescriptors = Math.max(mostDescriptors, openDescriptors());
    }
  }

  /** The file descriptors this process holds now ({@code /proc/self/fd}). */
  static long openDescriptors() {
    try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
      return open.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Descend directory(WorkspacePath directory) {
    return Descend.ENTER;
  }

  @Override
  public boolean ignored(WorkspacePath path) {
    return false;
  }

  @Override
  public void found(ScannedEntry entry) {
    assertEquals(FileType.REGULAR, entry.type(), entry.path().display());
    files.add(entry.path().display());
    sizes.add(entry.size());
  }

  @Override
  public void unlisted(WorkspacePath directory, String why) {
    unlisted.add(directory.display() + ": " + why);
  }
}
