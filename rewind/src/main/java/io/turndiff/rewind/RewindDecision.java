package io.turndiff.rewind;

import io.turndiff.diff.ReverseMerge;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What a rewind does with one path, decided from states and contents alone (no store, no file
 * system): the chain rule when the rewind is planned, the action on the path's state now just
 * before its write, and what it does with a directory the turns removed, created, or changed the
 * mode of. A state that was not captured equals nothing, not even another uncaptured state, so
 * every rule here that needs two states to be equal asks {@link Snapshot#sameStateAs}, which is
 * never true for one. The rules are written out in {@code docs/rewind-protocol.md}.
 */
final class RewindDecision {

  private RewindDecision() {}

  // ---- planning: the chain of states over the rewound turns
  // ----------------------------------------------

  /**
   * What one rewound turn recorded of a path: its state when the turn first saw it, and when it
   * finished.
   */
  record Step(String turn, Snapshot before, Optional<Snapshot> after) {}

  /**
   * The chain rule's verdict on a path: {@code PLANNED}, {@code UNCHANGED}, or {@code SKIPPED} with
   * a reason.
   */
  record ChainVerdict(RewindStatus status, Optional<String> reason, Optional<String> detail) {

    static ChainVerdict of(RewindStatus status) {
      return new ChainVerdict(status, Optional.empty(), Optional.empty());
    }

    static ChainVerdict skipped(String reason, String detail) {
      return new ChainVerdict(RewindStatus.SKIPPED, Optional.of(reason), Optional.of(detail));
    }
  }

  /**
   * From the newest after-state back to the oldest before-state, if the chain of states holds: each
   * older turn's after-state must be the next newer turn's before-state ({@code steps} oldest turn
   * first).
   */
  static ChainVerdict chain(WorkspacePath path, List<Step> steps) {
    // the chain of the path's file: a directory on a side holds none (it is a directory record's,
    // which the directories' rewind follows), so a file, a directory, then a file again is one
    // unbroken chain from the first file to the last
    Snapshot target = steps.getFirst().before().asFile();
    Optional<Snapshot> expected = steps.getLast().after().map(Snapshot::asFile);
    if (path.isOutside()) {
      return ChainVerdict.skipped(
          Reason.OUTSIDE_WORKSPACE.code(), "outside the workspace: never written");
    }
    Optional<String> unverifiedLink = Optional.empty();
    for (int i = 1; i < steps.size(); i++) {
      Snapshot olderAfter = steps.get(i - 1).after().orElseThrow().asFile();
      String between =
          "between turn '" + steps.get(i - 1).turn() + "' and turn '" + steps.get(i).turn() + "'";
      switch (olderAfter.compareState(steps.get(i).before().asFile())) {
        case DIFFERENT -> {
          return ChainVerdict.skipped(
              SkipReason.CHAIN_BROKEN, "changed outside the rewound turns " + between);
        }
        case UNKNOWN -> unverifiedLink = unverifiedLink.or(() -> Optional.of(between));
        case SAME -> {}
      }
    }
    if (expected.isPresent() && target.sameStateAs(expected.get())) {
      return ChainVerdict.of(RewindStatus.UNCHANGED);
    }
    if (!target.captured()) {
      return ChainVerdict.skipped(
          target.reason().map(Reason::code).orElse(SkipReason.NOT_CAPTURED),
          "the before-state was recorded with metadata only"
              + (target.reasonDetail().isEmpty() ? "" : ": " + target.reasonDetail()));
    }
    if (unverifiedLink.isPresent()) {
      // an uncaptured state equals nothing: the chain cannot be shown unbroken
      return ChainVerdict.skipped(
          SkipReason.UNVERIFIED,
          "its state "
              + unverifiedLink.get()
              + " was not captured, so a change made outside the rewound turns "
              + "cannot be ruled out");
    }
    return ChainVerdict.of(RewindStatus.PLANNED);
  }

  // ---- deciding, per path, just before the write
  // ------------------------------------------------------

  sealed interface Action {}

  /** Put the before-state back (restore), or the merged content. */
  record Write(Snapshot state, Optional<byte[]> content, int mode, boolean merge)
      implements Action {

    /** Whether it puts a file or a link at its path (and not a deletion). */
    boolean putsAFile() {
      return merge || state.presence() != Presence.ABSENT;
    }
  }

  /** The path already holds its before-state. */
  record AlreadyThere() implements Action {}

  record Leave(String reason, String detail) implements Action {}

  /**
   * What to do with one path, on its state now ({@code now}, read so that it is captured whatever
   * its size, with {@code nowContent} when that content is held in memory). A path is written over
   * or deleted only when what it holds now is stored completely (it is recorded in the rewind turn,
   * which is how the rewind is undone), or holds nothing of the workspace's own and {@code force}
   * says so; and without {@code force} only when it provably still holds what the turns left.
   *
   * @param target the before-state to put back
   * @param expected the turns' after-state: what the path holds if nothing changed it since
   * @param contents the stored contents of {@code target} and {@code expected}, where held in
   *     memory
   */
  static Action decide(
      Snapshot target,
      Optional<Snapshot> expected,
      Snapshot now,
      Optional<byte[]> nowContent,
      Map<Sha256, byte[]> contents,
      boolean force) {
    // the path's file: a directory the turns found or left here is no file (the directories'
    // rewind makes or removes it, around this write)
    return decideFile(
        target.asFile(),
        expected.map(Snapshot::asFile),
        expected.filter(Snapshot::isDirectory).isPresent(),
        now,
        nowContent,
        contents,
        force);
  }

  /**
   * {@link #decide} on the states as files; {@code turnsLeftADirectory}: the turns left a directory
   * at the path, which the rewind removes (when it is empty) before this file is put back.
   */
  private static Action decideFile(
      Snapshot target,
      Optional<Snapshot> expected,
      boolean turnsLeftADirectory,
      Snapshot now,
      Optional<byte[]> nowContent,
      Map<Sha256, byte[]> contents,
      boolean force) {
    if (now.asFile().sameStateAs(target)) {
      return new AlreadyThere();
    }
    if (now.type().filter(type -> type == FileType.DIRECTORY).isPresent()) {
      return turnsLeftADirectory
          ? new Leave(
              SkipReason.CONFLICT,
              "the turns made it a directory, which is still there: it holds what the turns did"
                  + " not make (see the directory's own entry); the file is not put back")
          : new Leave(SkipReason.REFUSED, "a directory is where the file should go");
    }
    if (now.presence() == Presence.UNKNOWN) {
      return new Leave(
          SkipReason.REFUSED,
          "its current state cannot be read, so it is neither overwritten nor "
              + "deleted: "
              + now.reasonDetail());
    }
    if (!now.captured() && !overwritable(now)) {
      return new Leave(
          now.reason().map(Reason::code).orElse(SkipReason.NOT_CAPTURED),
          "its current content cannot be read and stored completely, so it is neither overwritten nor deleted"
              + (now.reasonDetail().isEmpty() ? "" : ": " + now.reasonDetail()));
    }
    if (expected.isPresent() && now.sameStateAs(expected.get())) {
      return restore(target, contents);
    }
    if (expected.filter(Snapshot::captured).isEmpty()) {
      return unverified(target, expected, now, contents, force);
    }
    if (target.presence() == Presence.ABSENT) {
      return new Leave(
          SkipReason.CONFLICT,
          "it changed since the turn created it ("
              + ChangeInWords.since(expected, now)
              + "); a rewind deletes only a file that still holds what the turn left");
    }
    Optional<byte[]> merged = merge(target, expected, nowContent, contents);
    if (merged.isPresent()) {
      int mode =
          expected
                  .flatMap(Snapshot::metadata)
                  .map(m -> m.mode())
                  .equals(now.metadata().map(m -> m.mode()))
              ? target.metadata().orElseThrow().mode()
              : now.metadata().orElseThrow().mode();
      return new Write(target, merged, mode, true);
    }
    if (force) {
      return restore(
          target, contents); // what is there now is stored, or holds nothing of the workspace's own
    }
    return new Leave(
        SkipReason.CONFLICT,
        "it changed since the turn, and the turn's hunks do not reverse onto it: "
            + ChangeInWords.since(expected, now));
  }

  /**
   * The turns' after-state was not captured (too large, or metadata only), so nothing proves that
   * the path still holds what they left: left unless {@code force}, and then written only over a
   * state the rewind turn records completely (deleted only then), or over a name that holds nothing
   * of the workspace's own.
   */
  private static Action unverified(
      Snapshot target,
      Optional<Snapshot> expected,
      Snapshot now,
      Map<Sha256, byte[]> contents,
      boolean force) {
    String why =
        "the turn's after-state was not captured ("
            + expected.flatMap(Snapshot::reason).map(Reason::code).orElse("unknown")
            + "), so the rewind cannot tell whether it still holds what the turn left";
    if (!force) {
      return new Leave(
          SkipReason.UNVERIFIED, why + "; --force replaces it after recording its current state");
    }
    if (now.captured() || (overwritable(now) && target.presence() != Presence.ABSENT)) {
      return restore(target, contents);
    }
    return new Leave(
        SkipReason.UNVERIFIED, why + ", and its current state cannot be recorded completely");
  }

  /**
   * Puts {@code target} back: its stored content when held in memory (else it is streamed from the
   * store).
   */
  static Write restore(Snapshot target, Map<Sha256, byte[]> contents) {
    Snapshot file = target.asFile();
    Optional<byte[]> content = file.storedContent().map(contents::get);
    return new Write(file, content, file.metadata().map(m -> m.mode()).orElse(0644), false);
  }

  // ---- when a path is written: around the directories the rewind makes and removes
  // -------------------------

  /**
   * When a planned path is written, among the directories' steps. A path the turns turned from a
   * directory into a file (or a link) holds a name a directory is to take again: that file goes
   * first. A path they turned from a file into a directory gets its file back once the directory
   * they made is removed. Every other path is written between the two.
   */
  enum FileStep {
    /**
     * Before the directories the turns removed are made again: a deletion at, or above, where one
     * of them goes.
     */
    BEFORE_DIRECTORIES,
    /** Between the directories made again and those the turns created, removed. */
    WITH_THE_FILES,
    /** After the directories the turns created are removed: a file where one of them was. */
    AFTER_REMOVED_DIRECTORIES
  }

  /**
   * The step of a planned path whose before-state is {@code target} and after-state {@code
   * expected}; {@code whereDirectoriesGo} holds each directory the rewind makes again and every
   * directory above one, {@code removed} each directory the turns created that it removes.
   */
  static FileStep stepOf(
      WorkspacePath path,
      Snapshot target,
      Optional<Snapshot> expected,
      Set<WorkspacePath> whereDirectoriesGo,
      Set<WorkspacePath> removed) {
    boolean deletes = target.asFile().presence() == Presence.ABSENT;
    if (deletes && (target.isDirectory() || whereDirectoriesGo.contains(path))) {
      return FileStep.BEFORE_DIRECTORIES;
    }
    if (!deletes
        && (expected.filter(Snapshot::isDirectory).isPresent() || removed.contains(path))) {
      return FileStep.AFTER_REMOVED_DIRECTORIES;
    }
    return FileStep.WITH_THE_FILES;
  }

  /** The turns' hunks reversed onto the current content, when all three are captured text files. */
  private static Optional<byte[]> merge(
      Snapshot target,
      Optional<Snapshot> expected,
      Optional<byte[]> nowContent,
      Map<Sha256, byte[]> contents) {
    if (expected.isEmpty()
        || nowContent.isEmpty()
        || !target.storedContent().map(contents::containsKey).orElse(false)
        || !expected.get().storedContent().map(contents::containsKey).orElse(false)) {
      return Optional
          .empty(); // not all three are text held in memory (content stored in chunks is not)
    }
    return ReverseMerge.reverseApply(
        contents.get(target.storedContent().get()),
        contents.get(expected.get().storedContent().get()),
        nowContent.get());
  }

  /**
   * Whether {@code --force} may replace what is there: a state the rewind turn records completely,
   * or a name whose bytes are not the workspace's own (a hardlink, a special file, a link out) and
   * survive it.
   */
  private static boolean overwritable(Snapshot now) {
    if (now.captured()) {
      return true;
    }
    return now.reason()
        .filter(
            reason ->
                reason == Reason.HARDLINKED
                    || reason == Reason.SPECIAL_FILE
                    || reason == Reason.ESCAPES_WORKSPACE)
        .isPresent();
  }

  // ---- just before the rename, and when resuming
  // -----------------------------------------------------

  /**
   * Whether a path still holds what it held when its write was decided: the same captured state,
   * or, for a name {@code --force} replaces that holds nothing of the workspace's own, still such a
   * name.
   */
  static boolean unchangedSinceDecided(Snapshot decided, Snapshot now) {
    if (replaced(decided).captured()) {
      return replaced(now).sameStateAs(replaced(decided));
    }
    return !now.captured() && overwritable(now);
  }

  /**
   * A state a write replaces, as the rewind turn records it: a link out of the workspace (which
   * {@code --force} replaces as a name) is recorded as the link, captured, since its text is all
   * the name holds and all the undo has to put back (nothing outside was read); a turn records it
   * as a metadata-only escape, because what a turn writes through it lands outside. Any other state
   * as it is.
   */
  static Snapshot replaced(Snapshot state) {
    boolean linkOut =
        state.reason().equals(Optional.of(Reason.ESCAPES_WORKSPACE))
            && state.presence() == Presence.PRESENT
            && state.type().equals(Optional.of(FileType.SYMLINK))
            && state.linkTarget().isPresent();
    return linkOut
        ? Snapshot.symlink(
            state.path(),
            state.boundary(),
            state.metadata().orElseThrow(),
            state.linkTarget().orElseThrow(),
            state.takenAt())
        : state;
  }

  // ---- directories: put back, removed, and their modes
  // ----------------------------------------------------

  /**
   * A directory over the rewound turns: its oldest recorded before-state, its newest after-state,
   * and whether each older turn's after-state is the next newer turn's before-state (nothing
   * changed it between them).
   */
  record DirectorySpan(DirectoryState before, Optional<DirectoryState> after, boolean chainHolds) {

    boolean removedByTurns() {
      return before.present() && after.filter(state -> !state.present()).isPresent();
    }

    /** Absent when the turns first saw it, and there when they finished: theirs to remove. */
    boolean createdByTurns() {
      return !before.present() && after.filter(DirectoryState::present).isPresent();
    }

    /** There when the turns first saw it and when they finished, with other permission bits. */
    boolean modeChangedByTurns() {
      return before.present()
          && after.filter(state -> state.present() && state.mode() != before.mode()).isPresent();
    }

    /**
     * Whether putting the before-mode back leaves the owner every permission the turns' mode gave
     * it: then it is done before the files are written (a turn that made a directory read-only had
     * its files written first), else after them (a turn that opened a directory up had its files
     * written while it was open).
     */
    boolean restoringKeepsTheOwnersPermissions() {
      int ownerAfter = after.orElseThrow().mode() & 0700;
      return (before.mode() & ownerAfter) == ownerAfter;
    }
  }

  /** What to do about a directory the rewind puts back, on its state now. */
  sealed interface PutBackStep {}

  /** What to do about a directory the turns created, on its state now. */
  sealed interface RemovalStep {}

  /** Make it, with its recorded mode: it is missing. */
  record MakeDirectory() implements PutBackStep {}

  /** Remove it (only when it is empty, which the removal itself tells): it is there. */
  record RemoveDirectory() implements RemovalStep {}

  /** Nothing to do: it is there already (to be put back), or gone already (to be removed). */
  record AsItIs() implements PutBackStep, RemovalStep {}

  /**
   * A directory the rewind puts back (one the turns removed, or a parent of a file it writes), on
   * its state {@code now} (empty: a file or a link holds its name, and what goes under it is
   * refused with it).
   */
  static PutBackStep putBack(Optional<DirectoryState> now) {
    if (now.isEmpty()) {
      return new LeaveIt(
          SkipReason.REFUSED,
          "a file or a link is where this directory should be put back; it is " + "left as it is");
    }
    return now.get().present() ? new AsItIs() : new MakeDirectory();
  }

  /**
   * A directory the turns created, on its state {@code now} (empty: a file or a link holds its
   * name).
   */
  static RemovalStep removeCreated(Optional<DirectoryState> now) {
    if (now.isEmpty()) {
      return new LeaveIt(
          SkipReason.REFUSED,
          "the turns created this directory, and a file or a link is there now; "
              + "it is left as it is");
    }
    return now.get().present() ? new RemoveDirectory() : new AsItIs();
  }

  /** What to do about one directory whose mode the turns changed, on its state now. */
  sealed interface ModeStep {}

  /** Nothing: it has its before-mode (journaled as done when an earlier run had planned it). */
  record HasItsMode() implements ModeStep {}

  /** Set its bits from {@code from} (what it has now) to its before-mode. */
  record SetMode(int from) implements ModeStep {}

  /** It is gone, and {@code force} makes it again, with its before-mode. */
  record MakeIt() implements ModeStep {}

  /** The directory is left as it is, and reported with {@code reason}. */
  record LeaveIt(String reason, String detail) implements ModeStep, PutBackStep, RemovalStep {}

  static String octal(int mode) {
    return String.format("%04o", mode & 07777);
  }

  /**
   * The mode step for a directory whose mode the turns changed ({@code span}), on its state {@code
   * now} (empty: a file or a link holds its name); {@code planned} is the mode it had when an
   * earlier, interrupted run planned to set it (that run's decision stands while the directory
   * still has it). The rule files follow: its mode goes back only while it still has the mode the
   * turns left, or with {@code force}.
   */
  static ModeStep modeStep(
      DirectorySpan span, Optional<DirectoryState> now, OptionalInt planned, boolean force) {
    int before = span.before().mode();
    int left = span.after().orElseThrow().mode();
    if (!span.chainHolds()) {
      return new LeaveIt(
          SkipReason.CHAIN_BROKEN,
          "its mode changed between two of the rewound turns, outside "
              + "them; it is left as it is");
    }
    if (now.isEmpty()) {
      return new LeaveIt(SkipReason.REFUSED, "a file or a link is where the directory should be");
    }
    if (!now.get().present()) {
      return force
          ? new MakeIt()
          : new LeaveIt(
              SkipReason.CONFLICT,
              "it was removed since the turns changed its "
                  + "mode ("
                  + octal(before)
                  + " before them, "
                  + octal(left)
                  + " after)");
    }
    int mode = now.get().mode();
    if (mode == before) {
      return new HasItsMode();
    }
    if (mode == left || force || (planned.isPresent() && mode == planned.getAsInt())) {
      return new SetMode(mode);
    }
    return new LeaveIt(
        SkipReason.CONFLICT,
        "its mode changed since the turns ("
            + octal(left)
            + " then, "
            + octal(mode)
            + " now); it is left as it is");
  }
}
