package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.Rename;
import io.turndiff.model.ChangeKind;
import io.turndiff.review.ReviewQueries;
import io.turndiff.review.TurnRecords;
import io.turndiff.store.StoredFileChange;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A file's record in a turn, as {@code turndiff show} prints it; {@code after} is null until the
 * turn finished; {@code also_possible}: the other turns that could also have made the change (a
 * scan found it while they were open too), each of which records it as well; {@code made_during}:
 * which tool calls it was made during ({@code named}: a tool call named the path; {@code calls}: a
 * scan found it, made while the shell calls of {@code calls} were in flight, one or several
 * overlapping; {@code outside}: while no tool call of any open turn was; {@code unknown}: not
 * known, without the watcher), with {@code calls} the tool calls themselves and {@code tools} each
 * call as a person names it ({@code Write}, {@code Bash: sed -i s/a/b/ a.txt}), in the order the
 * turn recorded them. A rename the turn made ({@code git diff -M}'s rule) marks both records: the
 * new path's with {@code renamed_from}, the old path's with {@code renamed_to}, each with git's
 * {@code similarity} in percent; all three are null for any other record. {@code ignored}: {@code
 * true} when a scan found the change at a file git ignores (a {@code .env} in a tracked workspace
 * that keeps ignored files), whose diff the panel shows only on request; left out otherwise.
 */
public record WireFileRecord(
    @JsonUnwrapped WirePath path,
    String via,
    @JsonInclude(JsonInclude.Include.NON_NULL) String viaBase64,
    String change,
    String detail,
    String containment,
    boolean restorable,
    long added,
    long removed,
    String detectedBy,
    List<String> toolCalls,
    WireSnapshot before,
    WireSnapshot after,
    List<WireTurnRef> alsoPossible,
    String madeDuring,
    List<WireToolCall> calls,
    List<String> tools,
    String renamedFrom,
    String renamedTo,
    Integer similarity,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean ignored) {

  public static WireFileRecord of(StoredFileChange change) {
    return of(change, List.of(), rename -> FilePatch.NONE);
  }

  /**
   * The record of {@code change}, marked when it is a side of one of {@code renames}. A rename's
   * lines are its own ({@code patchOf}: the old path's before-state to the new path's after-state,
   * as {@code git diff -M --numstat} counts them), on the new path's record; the old path's record
   * counts none, since its lines are the rename's, so that a turn's records add up to git's totals
   * (where the stored record would count the whole file added on one side and deleted on the
   * other).
   */
  static WireFileRecord of(
      StoredFileChange change, List<Rename> renames, Function<Rename, FilePatch> patchOf) {
    Optional<Rename> from =
        renames.stream().filter(rename -> rename.to().equals(change.path())).findFirst();
    Optional<Rename> to =
        renames.stream().filter(rename -> rename.from().equals(change.path())).findFirst();
    long added = change.linesAdded();
    long removed = change.linesRemoved();
    if (to.isPresent()) {
      added = 0;
      removed = 0;
    } else if (from.isPresent()) {
      FilePatch lines = patchOf.apply(from.get());
      added = lines.added();
      removed = lines.removed();
    }
    return new WireFileRecord(
        WirePath.of(change.path()),
        WirePath.displayOf(change.via()),
        WirePath.base64Of(change.via()),
        change.change().map(ChangeKind::code).orElse(null),
        change.detail().orElse(null),
        change.containment().code(),
        change.restorable(),
        added,
        removed,
        change.detectedBy().code(),
        change.toolCalls(),
        WireSnapshot.of(change.before()),
        change.after().map(WireSnapshot::of).orElse(null),
        WireTurnRef.ofShared(change.alsoPossible()),
        change.madeDuring().code(),
        WireToolCall.of(change.calls()),
        change.calls().stream().map(WireToolCall::named).toList(),
        from.map(rename -> rename.from().display()).orElse(null),
        to.map(rename -> rename.to().display()).orElse(null),
        from.or(() -> to).map(Rename::similarity).orElse(null),
        change.ignoredByGit() ? Boolean.TRUE : null);
  }

  public static List<WireFileRecord> of(List<StoredFileChange> changes) {
    return changes.stream().map(WireFileRecord::of).toList();
  }

  /**
   * The file records of a turn as its views give them ({@code show --json}, the HTTP turn view):
   * its renames marked, each with its own lines.
   */
  public static List<WireFileRecord> of(TurnRecords records, ReviewQueries queries) {
    List<Rename> renames = queries.renames(records);
    return records.changes().stream()
        .map(change -> of(change, renames, rename -> queries.renamePatch(records, rename)))
        .toList();
  }
}
