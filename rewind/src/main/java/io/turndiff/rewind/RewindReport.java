package io.turndiff.rewind;

import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a rewind did (or, for a dry run, would do): the paths it restored, those it merged (the
 * turn's own hunks reversed on top of later edits), those it skipped and why, and those the turns
 * left unchanged; and the directories it created (ones the turns removed, with their mode), removed
 * (ones the turns created, once empty) and gave their mode back ({@code directoryModes}: ones the
 * turns changed the mode of). A directory it left (it still holds something, or its mode changed
 * since the turns) is among the skipped.
 *
 * @param replayed true when the operation had run before and this is its stored receipt
 * @param rewindTurn the turn (kind {@code rewind}) that records the rewind; rewinding it undoes the
 *     rewind
 * @param paths the paths the rewind was asked for (it put back only what the turns recorded at or
 *     under them); empty for a rewind of every path the turns recorded
 * @param deleted of {@code restored}, the paths put back by deleting them: files (and links) the
 *     turns created, which the user sees go
 * @param changedBy of the paths skipped as a {@code conflict}, those a later turn changed, with the
 *     newest such turn (an outside turn: the user's own edit, recorded); a conflict not here was
 *     made outside any turn, and not recorded
 * @param beforeToolCall for a rewind to before a tool call of its turn, that call
 * @param notes a plan's words on paths it puts back beyond the lists: for a rewind to before a tool
 *     call, a path whose change was made during that call and an earlier one that overlapped it,
 *     rewound together; in a receipt, each path written again after a restart found that a power
 *     loss had taken it back ({@code redone after a restart: …})
 * @param hunk for a rewind of one hunk of its one path, that hunk's number
 * @param mergePreviews in a dry run, of the paths {@code merged}, the patch from each file as it is
 *     now to what the run writes there ({@link MergePreview}); empty in a receipt
 * @param durability how far what the run wrote is known to have gone: a rewind answers once its
 *     files are in place and journaled done, and is made durable after that ({@link
 *     RewindService#makeDurable})
 */
public record RewindReport(
    String operation,
    boolean dryRun,
    boolean replayed,
    List<String> turns,
    List<WorkspacePath> restored,
    List<WorkspacePath> merged,
    List<Skipped> skipped,
    List<WorkspacePath> unchanged,
    Optional<String> rewindTurn,
    List<WorkspacePath> createdDirectories,
    List<WorkspacePath> removedDirectories,
    List<WorkspacePath> directoryModes,
    List<WorkspacePath> paths,
    List<WorkspacePath> deleted,
    Map<WorkspacePath, ChangedBy> changedBy,
    Optional<String> beforeToolCall,
    Map<WorkspacePath, String> notes,
    Optional<Integer> hunk,
    Map<WorkspacePath, MergePreview> mergePreviews,
    Durability durability) {

  public RewindReport {
    changedBy = Map.copyOf(changedBy);
    notes = Map.copyOf(notes);
    mergePreviews = Map.copyOf(mergePreviews);
    if (!merged.containsAll(mergePreviews.keySet())) {
      throw new IllegalArgumentException(
          "a merge preview is of a merged path: " + mergePreviews.keySet());
    }
    if (!restored.containsAll(deleted)) {
      throw new IllegalArgumentException("a deleted path is one of the restored: " + deleted);
    }
  }

  /**
   * A turn that changed a path after the rewound turns: its id, session, number, begin and kind (an
   * {@link TurnKind#OUTSIDE outside} turn: the user's own edit, found at the next turn's begin).
   */
  public record ChangedBy(String turn, String session, long seq, Instant at, TurnKind kind) {

    /** Whether the change was the user's own, recorded outside any turn. */
    public boolean outside() {
      return kind == TurnKind.OUTSIDE;
    }
  }

  /**
   * How far what a rewind wrote is known to have gone. A rewind answers as soon as its files are in
   * place and its journal says done; the one {@code syncfs} that puts them on the disk, and the
   * operation's {@code synced} mark, come after the answer (the service makes them in the
   * background, the command line once it has printed its report). Until then the files hold what
   * the report says for every reader, but a power loss may take some of it back: the store has both
   * sides of every path, and the next rewind in the workspace, started in the next boot, puts back
   * what the disk lost and lists it ({@link PowerLossRecovery}).
   */
  public enum Durability {
    /** A dry run, or a run that wrote nothing. */
    NOTHING_WRITTEN("nothing_written"),
    /** In place, what every reader sees now, and not yet known to be on the disk. */
    IN_PLACE("in_place"),
    /** In place and on the disk: the workspace's file system was synced after it. */
    SYNCED("synced");

    private final String code;

    Durability(String code) {
      this.code = code;
    }

    /** The word the JSON report carries. */
    public String code() {
      return code;
    }
  }

  /** A path left as it is, with a stable reason code and a sentence. */
  public record Skipped(WorkspacePath path, String reason, String detail) {}

  public boolean complete() {
    return skipped.isEmpty();
  }
}
