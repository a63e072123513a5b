package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a whole walk that enters every directory told its visitor, in order: the regular files found
 * with their sizes, the directories entered and those it could not list.
 */
final class FoundInWalk implements ScanVisitor {
  final List<String> files = new ArrayList<>();
  final List<Long> sizes = new ArrayList<>();
  final List<String> unlisted = new ArrayList<>();
  int entered;

  @Override
  public void entering(Optional<WorkspacePath> directory, Set<String> interestingPresent) {
    entered++;
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
