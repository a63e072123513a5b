package io.turndiff.store;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.Containment;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.GivenPath;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Optional;

/**
 * A file change as stored: the path's before-snapshot, and once the turn is finished its
 * after-snapshot, change kind, line counts and diff.
 *
 * @param beforeRow the row of the before-snapshot
 * @param afterRow the row of the after-snapshot, once the turn is finished
 * @param toolCalls the external ids of the tool calls the change is attributed to, first one first:
 *     every call that snapshotted the path ({@link MadeDuring#NAMED}), or the shell calls in flight
 *     while it was made ({@link MadeDuring#CALLS})
 * @param diffPending the turn is finished and the change's line diff, line counts and diff are not
 *     computed yet (they are after finish, in the background): {@code linesAdded}, {@code
 *     linesRemoved} and {@code diff} say nothing until then
 * @param alsoPossible the other turns that could also have made the change (a scan found it while
 *     they were open beside this one: issue 27), each of which records it too; empty when this
 *     turn's alone
 * @param madeDuring which tool calls the change was made during: named by one, during shell calls
 *     in flight, outside any call, or not known
 * @param calls the calls of {@code toolCalls}, as stored (tool name, command's first line)
 * @param ignoredByGit the change is at a file git ignores in a tracked workspace (a {@code .env}
 *     the shell rewrote, found by a scan, or one a tool call named, marked at the finish): its diff
 *     may hold secrets, and the panel shows it only on request
 */
public record StoredFileChange(
    long id,
    long turnId,
    WorkspacePath path,
    Optional<GivenPath> via,
    DetectedBy detectedBy,
    long beforeRow,
    Snapshot before,
    Optional<Long> afterRow,
    Optional<Snapshot> after,
    Optional<ChangeKind> change,
    long linesAdded,
    long linesRemoved,
    Optional<Sha256> diff,
    List<String> toolCalls,
    boolean diffPending,
    List<SharedChanges.SharedTurn> alsoPossible,
    MadeDuring madeDuring,
    List<StoredToolCall> calls,
    boolean ignoredByGit) {

  public StoredFileChange {
    toolCalls = List.copyOf(toolCalls);
    alsoPossible = List.copyOf(alsoPossible);
    calls = List.copyOf(calls);
  }

  /**
   * This change with its line diff computed: counts and the stored diff's hash, no longer pending.
   */
  public StoredFileChange withLineDiff(long added, long removed, Optional<Sha256> diffHash) {
    return new StoredFileChange(
        id,
        turnId,
        path,
        via,
        detectedBy,
        beforeRow,
        before,
        afterRow,
        after,
        change,
        added,
        removed,
        diffHash,
        toolCalls,
        false,
        alsoPossible,
        madeDuring,
        calls,
        ignoredByGit);
  }

  /**
   * Where the change stands to the workspace: the before-state's containment, unless only the
   * after-state left the workspace.
   */
  public Containment containment() {
    if (before.containment() != Containment.INSIDE) {
      return before.containment();
    }
    return after.map(Snapshot::containment).orElse(Containment.INSIDE);
  }

  /**
   * Why the change could not be told, in words ({@code touched outside the workspace: not
   * captured}, {@code before-state not captured (unreadable): …}); empty when it could, or while
   * the turn is open.
   */
  public Optional<String> detail() {
    return after.flatMap(state -> ChangeKind.whyUnknown(before, state));
  }

  /**
   * The before-state can be put back: it was completely captured (a directory a snapshot named is,
   * as a file, an absence, and the directories' rewind puts the directory back), and the change is
   * not {@code unknown} (a rewind cannot tell what such a path holds now against what the turn
   * left).
   */
  public boolean restorable() {
    return before.asFile().captured()
        && change.filter(kind -> kind == ChangeKind.UNKNOWN).isEmpty();
  }
}
