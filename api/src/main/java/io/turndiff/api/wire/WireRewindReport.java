package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A rewind's report, or its plan on a dry run; paths in the lists as text. {@code paths}: the paths
 * a rewind of some paths was asked for, {@code null} for a rewind of whole turns. {@code deleted}:
 * of {@code restored}, those put back by deleting them (the turns created them). {@code
 * rewind_turn} is null for a dry run, and for a rewind that put nothing back (it records no turn).
 * {@code before_tool_call}: for a rewind to before a tool call of its turn, that call (null
 * otherwise); {@code notes}: the plan's words on paths it puts back (a change made during calls
 * that overlapped, rewound together; in a receipt, a path written again after a restart found that
 * a power loss had taken it back), null when none. {@code hunk}: for a rewind of one hunk of its
 * one path, that hunk's number (null otherwise). {@code merge_previews}: in a dry run, for each
 * path of {@code merged}, the patch from the file as it is now to what the run writes there, keyed
 * by the path as {@code merged} shows it (null when there is none to merge, and in a receipt). It
 * is a map beside {@code merged} rather than a change of {@code merged}'s entries from strings to
 * objects, so that every client that reads {@code merged} today reads it unchanged. {@code
 * durability}: {@code nothing_written} (a dry run, or a run that put nothing back), {@code
 * in_place} (the files hold what the report says, not yet known to be on the disk: the sync comes
 * right after the answer, and what a power loss takes back before it is redone from the store by
 * the next rewind in the workspace) or {@code synced}.
 *
 * <p>The plan carries its previews, rather than a per-path endpoint serving them on demand: a
 * preview shows what the run writes only when it comes from the same look at the workspace as the
 * plan's decision to merge; a second request would read the file again, at another moment, and
 * could preview a merge the plan listed as a conflict, or the other way round. What that costs the
 * plan is bounded: a preview is cut past 2,000 lines ({@code MergePreview}), and only files to
 * merge have one.
 */
public record WireRewindReport(
    String operation,
    boolean dryRun,
    boolean replayed,
    boolean complete,
    List<String> turns,
    List<String> restored,
    List<String> deleted,
    List<String> merged,
    List<Skipped> skipped,
    List<String> unchanged,
    List<String> createdDirectories,
    List<String> removedDirectories,
    List<String> directoryModes,
    String rewindTurn,
    List<String> paths,
    String beforeToolCall,
    Map<String, String> notes,
    Integer hunk,
    Map<String, MergePreview> mergePreviews,
    String durability) {

  /**
   * What a merge would write, as a patch from the file now ({@code patch}, git-style); {@code
   * omitted_lines}: how many lines were cut off its end (a huge file's preview shows its first
   * lines only), 0 when it is whole; {@code added} and {@code removed} count the whole patch's
   * lines.
   */
  public record MergePreview(String patch, int added, int removed, int omittedLines) {

    static MergePreview of(io.turndiff.rewind.MergePreview preview) {
      return new MergePreview(
          preview.patch(), preview.added(), preview.removed(), preview.omittedLines());
    }
  }

  /**
   * A path the rewind did not put back, and why; {@code changedBy}, for a conflict: the newest
   * later turn that changed it, an outside turn included (null when none did: it was changed
   * outside any turn and not recorded).
   */
  public record Skipped(
      @JsonUnwrapped WirePath path, String reason, String detail, ChangedBy changedBy) {}

  /**
   * A turn that changed a path after the rewound turns, when it began, and its kind: {@code
   * outside} when the change was the user's own, recorded outside any turn.
   */
  public record ChangedBy(String turn, String session, long seq, String beganAt, String kind) {

    static ChangedBy of(RewindReport.ChangedBy by) {
      return new ChangedBy(by.turn(), by.session(), by.seq(), by.at().toString(), by.kind().code());
    }
  }

  public static WireRewindReport of(RewindReport report) {
    return new WireRewindReport(
        report.operation(),
        report.dryRun(),
        report.replayed(),
        report.complete(),
        report.turns(),
        texts(report.restored()),
        texts(report.deleted()),
        texts(report.merged()),
        report.skipped().stream()
            .map(
                skip ->
                    new Skipped(
                        WirePath.of(skip.path()),
                        skip.reason(),
                        skip.detail(),
                        Optional.ofNullable(report.changedBy().get(skip.path()))
                            .map(ChangedBy::of)
                            .orElse(null)))
            .toList(),
        texts(report.unchanged()),
        texts(report.createdDirectories()),
        texts(report.removedDirectories()),
        texts(report.directoryModes()),
        report.rewindTurn().orElse(null),
        report.paths().isEmpty() ? null : texts(report.paths()),
        report.beforeToolCall().orElse(null),
        report.notes().isEmpty() ? null : notes(report),
        report.hunk().orElse(null),
        report.mergePreviews().isEmpty() ? null : previews(report),
        report.durability().code());
  }

  private static Map<String, MergePreview> previews(RewindReport report) {
    Map<String, MergePreview> previews = new TreeMap<>();
    report
        .mergePreviews()
        .forEach((path, preview) -> previews.put(path.display(), MergePreview.of(preview)));
    return previews;
  }

  private static Map<String, String> notes(RewindReport report) {
    Map<String, String> notes = new TreeMap<>();
    report.notes().forEach((path, note) -> notes.put(path.display(), note));
    return notes;
  }

  private static List<String> texts(List<WorkspacePath> paths) {
    return paths.stream().map(WorkspacePath::display).toList();
  }
}
