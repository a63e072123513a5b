package io.turndiff.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one equality rule: a state that was not captured equals nothing, not even another uncaptured
 * state.
 */
class ChangeKindTest {

  private static final WorkspacePath PATH = WorkspacePath.of("r.txt");
  private static final BoundaryKind BOUNDARY = BoundaryKind.OPENAT2;
  private static final Instant AT = Instant.EPOCH;

  private static FileMetadata regular(long size, int mode) {
    return new FileMetadata(FileType.REGULAR, size, 1_000L, mode, 42, 1);
  }

  private static Snapshot stored(String text, int mode) {
    return Snapshot.regularFile(
        PATH, BOUNDARY, regular(text.length(), mode), Sha256.of(text.getBytes()), AT);
  }

  private static Snapshot unreadable() {
    return Snapshot.unknown(
        PATH, BOUNDARY, new NotCaptured(Reason.UNREADABLE, "Permission denied"), AT);
  }

  private static Snapshot sampled(long size, String sample) {
    return Snapshot.sampled(
        PATH, BOUNDARY, regular(size, 0644), Sha256.of(sample.getBytes()), "over the limit", AT);
  }

  private static Snapshot escape() {
    FileMetadata link = new FileMetadata(FileType.SYMLINK, 12, 1_000L, 0777, 7, 1);
    return Snapshot.MetadataOnly.of(
            PATH, BOUNDARY, link, new NotCaptured(Reason.ESCAPES_WORKSPACE, "points outside"), AT)
        .withLinkTarget(LinkTarget.of("../outside"));
  }

  @Test
  void twoUnreadableStatesAreUnknownNeverUnchanged() {
    assertEquals(StateComparison.UNKNOWN, unreadable().compareState(unreadable()));
    assertFalse(unreadable().sameStateAs(unreadable()));
    assertEquals(ChangeKind.UNKNOWN, ChangeKind.between(unreadable(), unreadable()));
    assertEquals(
        ChangeKind.UNKNOWN,
        ChangeKind.between(stored("a\n", 0644), unreadable()),
        "a readable file turned unreadable: nothing proves what it holds");
  }

  @Test
  void equalSampledFingerprintsNeverProveSamenessButDifferentOnesProveAChange() {
    assertEquals(ChangeKind.UNKNOWN, ChangeKind.between(sampled(10, "x"), sampled(10, "x")));
    assertEquals(ChangeKind.MODIFIED, ChangeKind.between(sampled(10, "x"), sampled(10, "y")));
    assertEquals(
        ChangeKind.MODIFIED,
        ChangeKind.between(sampled(10, "x"), sampled(11, "x")),
        "the size moved");
  }

  @Test
  void whatIsKnownStillProvesAChangeAgainstAnUncapturedSide() {
    Snapshot absent = Snapshot.absent(PATH, BOUNDARY, AT);
    assertEquals(ChangeKind.ADDED, ChangeKind.between(absent, sampled(10, "x")));
    assertEquals(ChangeKind.DELETED, ChangeKind.between(sampled(10, "x"), absent));
    assertEquals(ChangeKind.MODIFIED, ChangeKind.between(stored("abc", 0644), sampled(10, "x")));
    Snapshot fifo =
        Snapshot.notCaptured(
            PATH,
            BOUNDARY,
            new FileMetadata(FileType.FIFO, 0, 1_000L, 0644, 9, 1),
            new NotCaptured(Reason.SPECIAL_FILE, "a FIFO"),
            AT);
    assertEquals(ChangeKind.TYPE_CHANGED, ChangeKind.between(stored("abc", 0644), fifo));
    assertEquals(
        ChangeKind.UNKNOWN, ChangeKind.between(fifo, fifo), "a FIFO's content is never read");
  }

  @Test
  void capturedStatesCompareByContentModeAndLinkText() {
    assertEquals(
        ChangeKind.UNCHANGED, ChangeKind.between(stored("a\n", 0644), stored("a\n", 0644)));
    assertEquals(ChangeKind.MODIFIED, ChangeKind.between(stored("a\n", 0644), stored("a\n", 0755)));
    Snapshot absent = Snapshot.absent(PATH, BOUNDARY, AT);
    assertEquals(
        ChangeKind.UNCHANGED,
        ChangeKind.between(absent, absent),
        "a known absence is a captured state");
  }

  @Test
  void aPathThatLeadsOutsideIsAlwaysUnknownEvenWhenItsLinkVanished() {
    Snapshot absent = Snapshot.absent(PATH, BOUNDARY, AT);
    for (List<Snapshot> pair :
        List.of(
            List.of(escape(), escape()), List.of(escape(), absent), List.of(absent, escape()))) {
      assertEquals(
          ChangeKind.UNKNOWN, ChangeKind.between(pair.get(0), pair.get(1)), pair.toString());
      assertEquals(
          Optional.of("touched outside the workspace: not captured"),
          ChangeKind.whyUnknown(pair.get(0), pair.get(1)));
    }
    assertNotEquals(StateComparison.SAME, escape().compareState(escape()));
  }

  private static Snapshot directory(int mode, long size) {
    return Snapshot.notCaptured(
        PATH,
        BOUNDARY,
        new FileMetadata(FileType.DIRECTORY, size, 1_000L, mode, 5, 2),
        new NotCaptured(Reason.DIRECTORY, "a directory"),
        AT);
  }

  @Test
  void aDirectoryBeforeAndAfterIsComparedOnItsModeAloneNeverUnknown() {
    assertEquals(
        StateComparison.SAME,
        directory(0755, 4096).compareState(directory(0755, 8192)),
        "what it holds (its size among it) is other paths' records");
    assertEquals(
        ChangeKind.UNCHANGED, ChangeKind.between(directory(0755, 4096), directory(0755, 8192)));
    assertEquals(
        ChangeKind.MODIFIED, ChangeKind.between(directory(0755, 4096), directory(0700, 4096)));
    assertEquals(
        ChangeKind.TYPE_CHANGED, ChangeKind.between(directory(0755, 4096), stored("a\n", 0644)));
    assertFalse(directory(0755, 4096).captured(), "still no state a file write can put back");
  }

  @Test
  void aDirectoryThatAppearedOrWentIsNoFileChangeAndAFileTurnedDirectoryIsATypeChange() {
    Snapshot absent = Snapshot.absent(PATH, BOUNDARY, AT);
    assertEquals(ChangeKind.DIRECTORY_CREATED, ChangeKind.between(absent, directory(0755, 4096)));
    assertEquals(ChangeKind.DIRECTORY_REMOVED, ChangeKind.between(directory(0755, 4096), absent));
    assertEquals(
        ChangeKind.TYPE_CHANGED, ChangeKind.between(stored("f\n", 0644), directory(0755, 4096)));
    assertEquals(Optional.empty(), ChangeKind.whyUnknown(absent, directory(0755, 4096)));
  }

  @Test
  void asAFileADirectoryIsAKnownAbsenceAndEveryOtherStateItself() {
    Snapshot directory = directory(0700, 4096);
    Snapshot asFile = directory.asFile();
    assertEquals(Snapshot.absent(PATH, BOUNDARY, AT), asFile);
    assertEquals(StateComparison.SAME, asFile.compareState(Snapshot.absent(PATH, BOUNDARY, AT)));
    for (Snapshot state : List.of(stored("a\n", 0644), unreadable(), escape(), sampled(9, "x"))) {
      assertEquals(state, state.asFile());
    }
  }
}
