package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Action;
import io.turndiff.rewind.RewindDecision.AlreadyThere;
import io.turndiff.rewind.RewindDecision.AsItIs;
import io.turndiff.rewind.RewindDecision.ChainVerdict;
import io.turndiff.rewind.RewindDecision.DirectorySpan;
import io.turndiff.rewind.RewindDecision.HasItsMode;
import io.turndiff.rewind.RewindDecision.Leave;
import io.turndiff.rewind.RewindDecision.LeaveIt;
import io.turndiff.rewind.RewindDecision.MakeDirectory;
import io.turndiff.rewind.RewindDecision.MakeIt;
import io.turndiff.rewind.RewindDecision.ModeStep;
import io.turndiff.rewind.RewindDecision.RemoveDirectory;
import io.turndiff.rewind.RewindDecision.SetMode;
import io.turndiff.rewind.RewindDecision.Step;
import io.turndiff.rewind.RewindDecision.Write;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The rewind's decisions on states and contents alone, with no store and no file system: the chain
 * rule of the plan, the action on a path's current state, the check just before each rename, and
 * the directories' steps (put back, remove, mode).
 */
class RewindDecisionTest {

  private static final WorkspacePath PATH = WorkspacePath.of("src/a.txt");
  private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");
  private static final String TEN_LINES = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";

  /** The contents a decision is given (those the store holds in memory), by hash. */
  private final Map<Sha256, byte[]> contents = new HashMap<>();

  // ---- states

  private static FileMetadata metadata(FileType type, long size, int mode, long nlink) {
    return new FileMetadata(type, size, 1_000, mode, 42, nlink);
  }

  /** A captured regular file, its content held in {@link #contents}. */
  private Snapshot file(String text, int mode) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    Sha256 sha = Sha256.of(bytes);
    contents.put(sha, bytes);
    return Snapshot.regularFile(
        PATH, BoundaryKind.OPENAT2, metadata(FileType.REGULAR, bytes.length, mode, 1), sha, NOW);
  }

  private Snapshot file(String text) {
    return file(text, 0644);
  }

  /** A captured regular file whose content is stored in chunks, never held in memory. */
  private static Snapshot chunked(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return Snapshot.regularFile(
        PATH,
        BoundaryKind.OPENAT2,
        metadata(FileType.REGULAR, bytes.length, 0644, 1),
        Sha256.of(bytes),
        NOW);
  }

  private static Snapshot absent() {
    return Snapshot.absent(PATH, BoundaryKind.OPENAT2, NOW);
  }

  private static Snapshot symlink(String text) {
    return Snapshot.symlink(
        PATH,
        BoundaryKind.OPENAT2,
        metadata(FileType.SYMLINK, text.length(), 0777, 1),
        LinkTarget.of(text),
        NOW);
  }

  /** A path that is there, its content not captured ({@code why}): only its metadata is known. */
  private static Snapshot notCaptured(
      FileType type, long size, int mode, long nlink, NotCaptured why) {
    return Snapshot.notCaptured(
        PATH, BoundaryKind.OPENAT2, metadata(type, size, mode, nlink), why, NOW);
  }

  /** A file with two links: its bytes may be another file's, so its content is not read. */
  private static Snapshot hardlinked() {
    return notCaptured(FileType.REGULAR, 7, 0644, 2, new NotCaptured(Reason.HARDLINKED, "2 links"));
  }

  private static Snapshot fifo() {
    return notCaptured(FileType.FIFO, 0, 0644, 1, new NotCaptured(Reason.SPECIAL_FILE, ""));
  }

  /** A symlink whose text leads out of the workspace. */
  private static Snapshot linkOut(String text) {
    return Snapshot.MetadataOnly.of(
            PATH,
            BoundaryKind.OPENAT2,
            metadata(FileType.SYMLINK, text.length(), 0777, 1),
            new NotCaptured(Reason.ESCAPES_WORKSPACE, "leads to " + text),
            NOW)
        .withLinkTarget(LinkTarget.of(text));
  }

  /** A file that is there, whose content the kernel refused to read. */
  private static Snapshot unreadable() {
    return notCaptured(FileType.REGULAR, 9, 0000, 1, new NotCaptured(Reason.UNREADABLE, "EACCES"));
  }

  /** A path whose very existence could not be told. */
  private static Snapshot unknown() {
    return Snapshot.unknown(
        PATH, BoundaryKind.OPENAT2, new NotCaptured(Reason.UNREADABLE, "EIO"), NOW);
  }

  /** A file over the size limit, fingerprinted by sampling. */
  private static Snapshot tooLarge(String sample) {
    return Snapshot.sampled(
        PATH,
        BoundaryKind.OPENAT2,
        metadata(FileType.REGULAR, 1L << 30, 0644, 1),
        Sha256.of(sample.getBytes(StandardCharsets.UTF_8)),
        "over 2097152 bytes",
        NOW);
  }

  private static Snapshot directory() {
    return notCaptured(FileType.DIRECTORY, 4096, 0755, 2, new NotCaptured(Reason.DIRECTORY, ""));
  }

  private Action decide(Snapshot target, Snapshot expected, Snapshot now, boolean force) {
    Optional<byte[]> nowContent = now.storedContent().map(contents::get);
    return RewindDecision.decide(target, Optional.of(expected), now, nowContent, contents, force);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void assertRestores(Snapshot target, Action action) {
    Write write = assertInstanceOf(Write.class, action, action.toString());
    assertEquals(target, write.state());
    assertFalse(write.merge());
  }

  private static Leave assertLeaves(String reason, Action action) {
    Leave leave = assertInstanceOf(Leave.class, action, action.toString());
    assertEquals(reason, leave.reason(), leave.detail());
    return leave;
  }

  // ---- the chain rule

  @Test
  void oneTurnThatChangedAPathPlansItsWrite() {
    ChainVerdict verdict =
        RewindDecision.chain(PATH, List.of(new Step("t1", file("a\n"), Optional.of(file("b\n")))));
    assertEquals(ChainVerdict.of(RewindStatus.PLANNED), verdict);
  }

  @Test
  void aChangeBetweenTwoRewoundTurnsBreaksTheChain() {
    ChainVerdict verdict =
        RewindDecision.chain(
            PATH,
            List.of(
                new Step("t1", file("a\n"), Optional.of(file("b\n"))),
                new Step("t2", file("edited between\n"), Optional.of(file("c\n")))));
    assertEquals(RewindStatus.SKIPPED, verdict.status());
    assertEquals(Optional.of(SkipReason.CHAIN_BROKEN), verdict.reason());
    assertTrue(
        verdict.detail().orElseThrow().contains("between turn 't1' and turn 't2'"),
        verdict.toString());
  }

  @Test
  void aStateBetweenTwoTurnsThatWasNotCapturedLeavesThePathUnverifiedEvenWhenBothRecordsAreAlike() {
    Snapshot between = hardlinked();
    ChainVerdict verdict =
        RewindDecision.chain(
            PATH,
            List.of(
                new Step("t1", file("a\n"), Optional.of(between)),
                new Step("t2", between, Optional.of(file("c\n")))));
    assertEquals(Optional.of(SkipReason.UNVERIFIED), verdict.reason(), verdict.toString());
    assertTrue(
        verdict
            .detail()
            .orElseThrow()
            .contains("between turn 't1' and turn 't2' was not captured"));
  }

  @Test
  void aStateBetweenTwoTurnsThatProvablyDiffersBreaksTheChainEvenUncaptured() {
    ChainVerdict verdict =
        RewindDecision.chain(
            PATH,
            List.of(
                new Step("t1", file("a\n"), Optional.of(tooLarge("one"))),
                new Step("t2", tooLarge("another"), Optional.of(file("c\n")))));
    assertEquals(Optional.of(SkipReason.CHAIN_BROKEN), verdict.reason(), verdict.toString());
  }

  @Test
  void turnsThatLeftAPathAsTheyFoundItLeaveItUnchanged() {
    ChainVerdict verdict =
        RewindDecision.chain(
            PATH,
            List.of(
                new Step("t1", file("a\n"), Optional.of(file("b\n"))),
                new Step("t2", file("b\n"), Optional.of(file("a\n")))));
    assertEquals(ChainVerdict.of(RewindStatus.UNCHANGED), verdict);
  }

  @Test
  void anUncapturedBeforeStateIsNeverUnchangedNotEvenAgainstTheSameRecord() {
    Snapshot large = tooLarge("same");
    ChainVerdict verdict =
        RewindDecision.chain(PATH, List.of(new Step("t1", large, Optional.of(large))));
    assertEquals(RewindStatus.SKIPPED, verdict.status(), "an uncaptured state equals nothing");
    assertEquals(Optional.of("too_large"), verdict.reason());
    assertTrue(
        verdict.detail().orElseThrow().contains("metadata only: over 2097152 bytes"),
        verdict.toString());
  }

  @Test
  void anUncapturedBeforeStateIsSkippedWithItsOwnReasonBeforeAnUnverifiedLink() {
    ChainVerdict verdict =
        RewindDecision.chain(
            PATH,
            List.of(
                new Step("t1", fifo(), Optional.of(hardlinked())),
                new Step("t2", hardlinked(), Optional.of(file("c\n")))));
    assertEquals(Optional.of("special_file"), verdict.reason(), verdict.toString());
  }

  @Test
  void aPathOutsideTheWorkspaceIsNeverWritten() {
    WorkspacePath outside = WorkspacePath.outside(utf8("/etc/passwd"));
    ChainVerdict verdict =
        RewindDecision.chain(outside, List.of(new Step("t1", absent(), Optional.of(absent()))));
    assertEquals(
        ChainVerdict.skipped("outside_workspace", "outside the workspace: never written"), verdict);
  }

  // ---- the action on the current state

  @Test
  void aPathThatHoldsItsBeforeStateAlreadyIsNotWritten() {
    Snapshot target = file("before\n");
    assertInstanceOf(AlreadyThere.class, decide(target, file("after\n"), file("before\n"), false));
    assertInstanceOf(
        AlreadyThere.class,
        decide(absent(), file("made\n"), absent(), false),
        "a created file is gone");
  }

  @Test
  void aPathThatStillHoldsWhatTheTurnsLeftIsRestoredWithTheBeforeContentAndMode() {
    Snapshot target = file("before\n", 0755);
    Write write =
        assertInstanceOf(Write.class, decide(target, file("after\n"), file("after\n"), false));
    assertEquals(target, write.state());
    assertArrayEquals(utf8("before\n"), write.content().orElseThrow());
    assertEquals(0755, write.mode());
    assertFalse(write.merge());
    assertTrue(write.putsAFile());
  }

  @Test
  void aFileTheTurnsCreatedAndLeftAsTheyLeftItIsDeleted() {
    Write write =
        assertInstanceOf(Write.class, decide(absent(), file("made\n"), file("made\n"), false));
    assertEquals(Presence.ABSENT, write.state().presence());
    assertFalse(write.putsAFile(), "a deletion");
  }

  @Test
  void aSymlinkTheTurnsReplacedIsPutBackAsALink() {
    Snapshot target = symlink("docs/readme");
    assertRestores(target, decide(target, file("a file now\n"), file("a file now\n"), false));
  }

  @Test
  void aBeforeStateStoredInChunksIsRestoredWithoutItsContentInMemory() {
    Snapshot target = chunked("big before\n");
    Write write =
        assertInstanceOf(Write.class, decide(target, file("after\n"), file("after\n"), false));
    assertEquals(Optional.empty(), write.content(), "streamed from the store when written");
  }

  @Test
  void aLaterEditElsewhereInTheFileIsKeptByReversingTheTurnsHunksOnTopOfIt() {
    Snapshot target = file(TEN_LINES, 0644);
    Snapshot expected = file(TEN_LINES.replace("2\n", "two\n"), 0644);
    Snapshot now = file(TEN_LINES.replace("2\n", "two\n").replace("9\n", "nine\n"), 0644);
    Write write = assertInstanceOf(Write.class, decide(target, expected, now, false));
    assertTrue(write.merge());
    assertArrayEquals(utf8(TEN_LINES.replace("9\n", "nine\n")), write.content().orElseThrow());
    assertEquals(0644, write.mode());
    assertEquals(target, write.state());
  }

  @Test
  void aMergeKeepsAModeChangedSinceTheTurnsAndPutsBackOneTheTurnsChanged() {
    Snapshot target = file(TEN_LINES, 0644);
    String after = TEN_LINES.replace("2\n", "two\n");
    String edited = after.replace("9\n", "nine\n");
    Write keptUsers =
        assertInstanceOf(Write.class, decide(target, file(after, 0644), file(edited, 0600), false));
    assertEquals(0600, keptUsers.mode(), "the user's chmod after the turns stays");
    Write putBack =
        assertInstanceOf(Write.class, decide(target, file(after, 0755), file(edited, 0755), false));
    assertEquals(0644, putBack.mode(), "the turns' chmod is undone");
  }

  @Test
  void anEditOverTheTurnsOwnLinesIsAConflictSayingInWordsWhatChangedAndForceOverwritesIt() {
    Snapshot target = file(TEN_LINES);
    Snapshot expected = file(TEN_LINES.replace("2\n", "two\n"));
    Snapshot now = file(TEN_LINES.replace("2\n", "TWO, edited again\n"), 0755);
    Leave leave = assertLeaves(SkipReason.CONFLICT, decide(target, expected, now, false));
    assertEquals(
        "it changed since the turn, and the turn's hunks do not reverse onto it: its content: "
            + now.metadata().orElseThrow().size()
            + " bytes now, "
            + expected.metadata().orElseThrow().size()
            + " bytes then; its mode: 0755 now, 0644 then",
        leave.detail(),
        "in words, not fingerprints");
    assertRestores(target, decide(target, expected, now, true));
  }

  @Test
  void contentNotHeldInMemoryIsNeverMergedOnlyForced() {
    Snapshot target = chunked(TEN_LINES);
    Snapshot expected = file(TEN_LINES.replace("2\n", "two\n"));
    Snapshot now = file(TEN_LINES.replace("2\n", "two\n").replace("9\n", "nine\n"));
    assertLeaves(SkipReason.CONFLICT, decide(target, expected, now, false));
    assertRestores(target, decide(target, expected, now, true));
  }

  @Test
  void aDirectoryWhereTheFileShouldGoIsRefusedEvenWithForce() {
    for (boolean force : List.of(false, true)) {
      Leave leave =
          assertLeaves(SkipReason.REFUSED, decide(file("a\n"), file("b\n"), directory(), force));
      assertEquals("a directory is where the file should go", leave.detail());
    }
  }

  @Test
  void aCurrentStateThatCannotBeReadAtAllIsRefusedEvenWithForce() {
    for (boolean force : List.of(false, true)) {
      Leave leave =
          assertLeaves(SkipReason.REFUSED, decide(file("a\n"), file("b\n"), unknown(), force));
      assertTrue(leave.detail().endsWith("neither overwritten nor deleted: EIO"), leave.detail());
    }
  }

  @Test
  void aFileTheTurnsCreatedAndSomeoneChangedSinceIsNeverDeletedNotEvenWithForce() {
    for (boolean force : List.of(false, true)) {
      Leave leave =
          assertLeaves(
              SkipReason.CONFLICT, decide(absent(), file("made\n"), file("made, edited\n"), force));
      assertTrue(leave.detail().contains("changed since the turn created it"), leave.detail());
    }
  }

  @Test
  void forceReplacesACapturedCurrentStateThatCannotBeMerged() {
    Snapshot target = file("before\n");
    assertLeaves(SkipReason.CONFLICT, decide(target, file("after\n"), symlink("elsewhere"), false));
    assertRestores(target, decide(target, file("after\n"), symlink("elsewhere"), true));
    assertRestores(target, decide(target, file("after\n"), absent(), true));
  }

  @Test
  void forceReplacesANameThatHoldsNothingOfTheWorkspacesOwn() {
    Snapshot target = file("before\n");
    for (Snapshot now : List.of(hardlinked(), fifo(), linkOut("/etc/passwd"))) {
      assertLeaves(SkipReason.CONFLICT, decide(target, file("after\n"), now, false));
      assertRestores(target, decide(target, file("after\n"), now, true));
    }
  }

  @Test
  void aCurrentStateThatCannotBeStoredIsNeverWrittenOverNotEvenWithForce() {
    for (boolean force : List.of(false, true)) {
      Leave unreadable =
          assertLeaves("unreadable", decide(file("a\n"), file("b\n"), unreadable(), force));
      assertTrue(
          unreadable.detail().contains("cannot be read and stored completely"),
          unreadable.detail());
      assertTrue(unreadable.detail().endsWith(": EACCES"), unreadable.detail());
      assertLeaves("too_large", decide(file("a\n"), file("b\n"), tooLarge("s"), force));
    }
  }

  @Test
  void anAfterStateThatWasNotCapturedLeavesThePathUnverifiedUnlessForced() {
    Snapshot target = file("before\n");
    Snapshot expected = tooLarge("after");
    Leave leave =
        assertLeaves(SkipReason.UNVERIFIED, decide(target, expected, file("anything\n"), false));
    assertTrue(leave.detail().contains("after-state was not captured (too_large)"), leave.detail());
    assertTrue(
        leave.detail().endsWith("--force replaces it after recording its current state"),
        leave.detail());
    assertRestores(target, decide(target, expected, file("anything\n"), true));
    assertRestores(target, decide(target, expected, hardlinked(), true));
  }

  @Test
  void forceDeletesOverAnUnverifiedAfterStateOnlyWhatItCanRecordCompletely() {
    Snapshot expected = tooLarge("made");
    assertInstanceOf(Write.class, decide(absent(), expected, file("recorded first\n"), true));
    Leave leave =
        assertLeaves(SkipReason.UNVERIFIED, decide(absent(), expected, hardlinked(), true));
    assertTrue(
        leave.detail().endsWith("its current state cannot be recorded completely"), leave.detail());
  }

  @Test
  void anUncapturedCurrentStateNeverMatchesTheSameUncapturedAfterState() {
    Snapshot target = file("before\n");
    Snapshot same = hardlinked();
    assertLeaves(SkipReason.UNVERIFIED, decide(target, same, same, false));
    assertLeaves(
        SkipReason.UNVERIFIED,
        RewindDecision.decide(target, Optional.empty(), same, Optional.empty(), contents, false));
  }

  // ---- just before the rename

  @Test
  void aPathIsRenamedOverOnlyWhileItHoldsWhatItHeldWhenDecided() {
    assertTrue(RewindDecision.unchangedSinceDecided(file("after\n"), file("after\n")));
    assertFalse(RewindDecision.unchangedSinceDecided(file("after\n"), file("after, edited\n")));
    assertFalse(
        RewindDecision.unchangedSinceDecided(file("after\n"), file("after\n", 0600)),
        "its mode changed");
    assertTrue(RewindDecision.unchangedSinceDecided(absent(), absent()));
    assertFalse(RewindDecision.unchangedSinceDecided(absent(), file("made meanwhile\n")));
  }

  @Test
  void anUncapturedStateIsNeverUnchangedSinceDecidedUnlessItIsANameForceReplaces() {
    assertFalse(
        RewindDecision.unchangedSinceDecided(unreadable(), unreadable()),
        "uncaptured equals nothing");
    assertFalse(RewindDecision.unchangedSinceDecided(tooLarge("s"), tooLarge("s")));
    assertTrue(
        RewindDecision.unchangedSinceDecided(hardlinked(), hardlinked()),
        "still a name holding nothing own");
    assertTrue(RewindDecision.unchangedSinceDecided(hardlinked(), fifo()));
    assertFalse(RewindDecision.unchangedSinceDecided(hardlinked(), unreadable()));
    assertFalse(RewindDecision.unchangedSinceDecided(hardlinked(), file("captured now\n")));
  }

  @Test
  void aLinkOutIsRecordedAsTheLinkAndComparedByItsText() {
    Snapshot replaced = RewindDecision.replaced(linkOut("/etc/passwd"));
    assertTrue(replaced.captured(), "its text is all the name holds");
    assertEquals(Optional.of(LinkTarget.of("/etc/passwd")), replaced.linkTarget());
    assertEquals(Optional.empty(), replaced.reason());
    assertTrue(
        RewindDecision.unchangedSinceDecided(linkOut("/etc/passwd"), linkOut("/etc/passwd")));
    assertFalse(
        RewindDecision.unchangedSinceDecided(linkOut("/etc/passwd"), linkOut("/etc/shadow")));
    assertFalse(RewindDecision.unchangedSinceDecided(linkOut("/etc/passwd"), symlink("inside")));
    Snapshot hardlinked = hardlinked();
    assertEquals(hardlinked, RewindDecision.replaced(hardlinked), "any other state as it is");
  }

  // ---- directories

  private static final WorkspacePath DIR = WorkspacePath.of("src/gen");

  private static DirectoryState there(int mode) {
    return DirectoryState.present(DIR, mode);
  }

  private static DirectoryState gone() {
    return DirectoryState.absent(DIR);
  }

  /**
   * What the turns did to the directory: before them, after them, and whether nothing changed it
   * between.
   */
  private static DirectorySpan span(
      DirectoryState before, DirectoryState after, boolean chainHolds) {
    return new DirectorySpan(before, Optional.of(after), chainHolds);
  }

  @Test
  void whatTheTurnsDidToADirectoryIsReadFromItsFirstAndLastStates() {
    DirectorySpan removed = span(there(0755), gone(), true);
    assertTrue(removed.removedByTurns());
    assertFalse(removed.createdByTurns());
    assertFalse(removed.modeChangedByTurns());
    DirectorySpan created = span(gone(), there(0700), true);
    assertTrue(created.createdByTurns());
    assertFalse(created.removedByTurns());
    assertFalse(created.modeChangedByTurns());
    DirectorySpan chmod = span(there(0755), there(0500), true);
    assertTrue(chmod.modeChangedByTurns());
    assertFalse(
        span(there(0755), there(0755), true).modeChangedByTurns(), "the same mode is no change");
    assertFalse(
        new DirectorySpan(there(0755), Optional.empty(), true).removedByTurns(),
        "no after-state: no change");
  }

  @Test
  void aModeThatKeepsTheOwnersPermissionsGoesBackBeforeTheFilesAnyOtherAfterThem() {
    assertTrue(
        span(there(0755), there(0555), true).restoringKeepsTheOwnersPermissions(),
        "the turns made it read-only: writable again before the files are written");
    assertFalse(
        span(there(0555), there(0755), true).restoringKeepsTheOwnersPermissions(),
        "the turns opened it up: closed again only after the files are written");
  }

  @Test
  void aDirectoryToPutBackIsMadeWhenMissingAndLeftWhenAFileOrLinkHoldsItsName() {
    assertInstanceOf(MakeDirectory.class, RewindDecision.putBack(Optional.of(gone())));
    assertInstanceOf(AsItIs.class, RewindDecision.putBack(Optional.of(there(0700))));
    LeaveIt leave = assertInstanceOf(LeaveIt.class, RewindDecision.putBack(Optional.empty()));
    assertEquals(SkipReason.REFUSED, leave.reason());
    assertTrue(
        leave.detail().startsWith("a file or a link is where this directory should be put back"));
  }

  @Test
  void aDirectoryTheTurnsCreatedIsRemovedWhenThereAndLeftWhenAFileOrLinkHoldsItsName() {
    assertInstanceOf(RemoveDirectory.class, RewindDecision.removeCreated(Optional.of(there(0755))));
    assertInstanceOf(
        AsItIs.class, RewindDecision.removeCreated(Optional.of(gone())), "removed already");
    LeaveIt leave = assertInstanceOf(LeaveIt.class, RewindDecision.removeCreated(Optional.empty()));
    assertEquals(SkipReason.REFUSED, leave.reason());
    assertTrue(leave.detail().contains("a file or a link is there now"), leave.detail());
  }

  private static ModeStep modeStep(
      DirectorySpan span, Optional<DirectoryState> now, boolean force) {
    return RewindDecision.modeStep(span, now, OptionalInt.empty(), force);
  }

  @Test
  void aModeGoesBackWhileTheDirectoryStillHasTheModeTheTurnsLeft() {
    DirectorySpan chmod = span(there(0755), there(0700), true);
    assertEquals(new SetMode(0700), modeStep(chmod, Optional.of(there(0700)), false));
    assertInstanceOf(
        HasItsMode.class, modeStep(chmod, Optional.of(there(0755)), false), "put back already");
  }

  @Test
  void aModeChangedSinceTheTurnsIsAConflictThatForceOverrides() {
    DirectorySpan chmod = span(there(0755), there(0700), true);
    LeaveIt leave =
        assertInstanceOf(LeaveIt.class, modeStep(chmod, Optional.of(there(0750)), false));
    assertEquals(SkipReason.CONFLICT, leave.reason());
    assertEquals(
        "its mode changed since the turns (0700 then, 0750 now); it is left as it is",
        leave.detail());
    assertEquals(new SetMode(0750), modeStep(chmod, Optional.of(there(0750)), true));
  }

  @Test
  void aModeAnEarlierRunPlannedToSetStillGoesBackWithoutForce() {
    DirectorySpan chmod = span(there(0755), there(0700), true);
    assertEquals(
        new SetMode(0750),
        RewindDecision.modeStep(chmod, Optional.of(there(0750)), OptionalInt.of(0750), false),
        "the mode it had when the interrupted run decided");
    assertInstanceOf(
        LeaveIt.class,
        RewindDecision.modeStep(chmod, Optional.of(there(0750)), OptionalInt.of(0711), false));
  }

  @Test
  void aDirectoryRemovedSinceTheTurnsChangedItsModeIsAConflictThatForceMakesAgain() {
    DirectorySpan chmod = span(there(0755), there(0700), true);
    LeaveIt leave = assertInstanceOf(LeaveIt.class, modeStep(chmod, Optional.of(gone()), false));
    assertEquals(SkipReason.CONFLICT, leave.reason());
    assertEquals(
        "it was removed since the turns changed its mode (0755 before them, 0700 after)",
        leave.detail());
    assertInstanceOf(MakeIt.class, modeStep(chmod, Optional.of(gone()), true));
  }

  @Test
  void aModeChangedBetweenTwoRewoundTurnsOrAFileInThePlaceOfTheDirectoryIsLeftEvenWithForce() {
    for (boolean force : List.of(false, true)) {
      LeaveIt broken =
          assertInstanceOf(
              LeaveIt.class,
              modeStep(span(there(0755), there(0700), false), Optional.of(there(0700)), force));
      assertEquals(SkipReason.CHAIN_BROKEN, broken.reason());
      LeaveIt inTheWay =
          assertInstanceOf(
              LeaveIt.class,
              modeStep(span(there(0755), there(0700), true), Optional.empty(), force));
      assertEquals(SkipReason.REFUSED, inTheWay.reason());
      assertEquals("a file or a link is where the directory should be", inTheWay.detail());
    }
  }
}
