package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.FileType;
import io.turndiff.model.Reason;
import io.turndiff.store.StoredFileChange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Symlinks to directories are recorded as the link alone (a directory is never a file change), so a
 * turn that retargets one rewinds completely; a link to a file keeps both records.
 */
class LinkedDirectoryRewindTest extends HarnessTest {

  private Map<String, ChangeKind> changes(String turn) {
    return h.queries.records(turn).changes().stream()
        .collect(
            Collectors.toMap(
                change -> change.path().display(), change -> change.change().orElseThrow()));
  }

  @Test
  void aTurnThatRetargetsALinkToADirectoryAndMovesTheFilesRewindsCompletely() throws Exception {
    h.workspace.file("v-1.0/a.txt", "one\n").file("v-1.0/b.txt", "bee\n").symlink("cur", "v-1.0");
    Map<String, String> before = tree();
    String turn =
        h.turn(
            List.of("cur", "v-1.0/a.txt", "v-1.0/b.txt", "v-2.0/a.txt", "v-2.0/b.txt"),
            () -> {
              Files.createDirectory(file("v-2.0"));
              Files.move(file("v-1.0/a.txt"), file("v-2.0/a.txt"));
              Files.move(file("v-1.0/b.txt"), file("v-2.0/b.txt"));
              Files.delete(file("v-1.0"));
              Files.delete(file("cur"));
              Files.createSymbolicLink(file("cur"), Path.of("v-2.0"));
            });
    assertEquals(
        Map.of(
            "cur",
            ChangeKind.MODIFIED,
            "v-1.0/a.txt",
            ChangeKind.DELETED,
            "v-1.0/b.txt",
            ChangeKind.DELETED,
            "v-2.0/a.txt",
            ChangeKind.ADDED,
            "v-2.0/b.txt",
            ChangeKind.ADDED),
        changes(turn),
        "the link and the files; the directory the link reached is no record");

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(Path.of("v-1.0"), Files.readSymbolicLink(file("cur")));
    assertEquals(before, tree(), "the tree the turn started from");
  }

  @Test
  void aLinkToAFileKeepsBothRecordsAndALinkToADirectoryOne() {
    h.workspace
        .file("real.txt", "real\n")
        .file("dir/x.txt", "x\n")
        .symlink("file-link", "real.txt")
        .symlink("dir-link", "dir");
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    List<SnapshotVerdict> toFile = h.capture.snapshot(turn, Optional.empty(), List.of("file-link"));
    assertEquals(
        List.of("file-link", "real.txt"),
        toFile.stream().map(v -> v.snapshot().path().display()).toList());
    assertTrue(toFile.stream().allMatch(v -> v.snapshot().captured()));
    List<SnapshotVerdict> toDirectory =
        h.capture.snapshot(turn, Optional.empty(), List.of("dir-link"));
    assertEquals(1, toDirectory.size(), toDirectory.toString());
    assertEquals(Optional.of(FileType.SYMLINK), toDirectory.getFirst().snapshot().type());
    assertTrue(toDirectory.getFirst().snapshot().captured());
    h.capture.finishTurn(turn);
    assertEquals(
        Map.of(
            "file-link",
            ChangeKind.UNCHANGED,
            "real.txt",
            ChangeKind.UNCHANGED,
            "dir-link",
            ChangeKind.UNCHANGED),
        changes(turn));
  }

  @Test
  void aLinkToADirectoryOutsideIsCapturedAsALinkAndRewoundWithoutLookingInside() throws Exception {
    h.workspace.symlink("vendor", h.workspace.outside().resolve("dir").toString());
    h.workspace.symlink("leak.txt", h.workspace.secret().toString());
    String turn =
        h.turn(
            List.of("vendor", "leak.txt"),
            () -> {
              Files.delete(file("vendor"));
              Files.createSymbolicLink(file("vendor"), Path.of("elsewhere"));
            });
    Map<String, StoredFileChange> records =
        h.queries.records(turn).changes().stream()
            .collect(Collectors.toMap(change -> change.path().display(), change -> change));
    assertEquals(2, records.size(), records.keySet().toString());
    assertTrue(records.get("vendor").before().captured(), "the link out is restorable as a link");
    assertEquals(
        Optional.of(Reason.ESCAPES_WORKSPACE),
        records.get("leak.txt").before().reason(),
        "a link to a file outside stays the metadata-only escape record");
    assertFalse(records.get("leak.txt").restorable());

    RewindReport report = h.rewindTurn(turn);
    // the link out is put back; what the turn did through the file link was never read: skipped,
    // said so
    assertEquals(
        List.of("vendor"),
        report.restored().stream().map(path -> path.display()).toList(),
        report.toString());
    assertEquals(
        List.of("leak.txt:escapes_workspace"),
        report.skipped().stream()
            .map(skipped -> skipped.path().display() + ":" + skipped.reason())
            .toList(),
        report.toString());
    assertFalse(report.complete());
    assertEquals(h.workspace.outside().resolve("dir"), Files.readSymbolicLink(file("vendor")));
    h.workspace.canary().assertNotIn("the turn's patch", h.queries.patch(turn, List.of()));
    h.workspace.canary().assertNotIn("the rewind's report", report.toString());
  }

  @Test
  void aWriteThroughALinkWhoseTextOnlyLooksLikeADirectoryIsUnknownAndSkipped() throws Exception {
    // other/s/../d reads as other/d, a directory; the kernel follows other/s first and reaches
    // elsewhere/x/d, a file: the link leads to a file outside, and what the turn wrote there was
    // never read
    Path elsewhere = temp.resolve("elsewhere");
    Files.createDirectories(elsewhere.resolve("x/y"));
    Files.write(elsewhere.resolve("x/d"), h.workspace.canary().bytes());
    Path other = temp.resolve("other");
    Files.createDirectories(other.resolve("d"));
    Files.createSymbolicLink(other.resolve("s"), elsewhere.resolve("x/y"));
    h.workspace.symlink("lnk", other + "/s/../d");
    String turn =
        h.turn(
            List.of("lnk"),
            () -> Files.writeString(file("lnk"), "appended outside\n", StandardOpenOption.APPEND));
    assertEquals(
        h.workspace.canary().text() + "appended outside\n",
        Files.readString(elsewhere.resolve("x/d")),
        "the turn wrote to a file outside the workspace through lnk");
    StoredFileChange record = h.queries.records(turn).changes().getFirst();
    assertEquals(
        Optional.of(Reason.ESCAPES_WORKSPACE), record.before().reason(), record.toString());
    assertEquals(Optional.of(ChangeKind.UNKNOWN), record.change());

    RewindReport report = h.rewindTurn(turn);
    assertEquals(
        List.of("lnk:escapes_workspace"),
        report.skipped().stream()
            .map(skipped -> skipped.path().display() + ":" + skipped.reason())
            .toList(),
        report.toString());
    assertFalse(report.complete());
    assertEquals(Path.of(other + "/s/../d"), Files.readSymbolicLink(file("lnk")));
    assertEquals(
        h.workspace.canary().text() + "appended outside\n",
        Files.readString(elsewhere.resolve("x/d")),
        "nothing outside was written by the rewind");
    h.workspace.canary().assertNotIn("the turn's patch", h.queries.patch(turn, List.of()));
  }
}
