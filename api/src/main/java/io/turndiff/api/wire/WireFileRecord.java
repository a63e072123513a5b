package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.model.ChangeKind;
import io.turndiff.store.StoredFileChange;
import java.util.List;

/**
 * A file's record in a turn, as {@code turndiff show} prints it; {@code after} is null until the
 * turn finished; {@code also_possible}: the other turns that could also have made the change (a
 * scan found it while they were open too), each of which records it as well; {@code made_during}:
 * which tool calls it was made during ({@code named}: a tool call named the path; {@code calls}: a
 * scan found it, made while the shell calls of {@code calls} were in flight, one or several
 * overlapping; {@code outside}: while no tool call of any open turn was; {@code unknown}: not
 * known, without the watcher), with {@code calls} the tool calls themselves.
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
    List<WireToolCall> calls) {

  public static WireFileRecord of(StoredFileChange change) {
    return new WireFileRecord(
        WirePath.of(change.path()),
        WirePath.displayOf(change.via()),
        WirePath.base64Of(change.via()),
        change.change().map(ChangeKind::code).orElse(null),
        change.detail().orElse(null),
        change.containment().code(),
        change.restorable(),
        change.linesAdded(),
        change.linesRemoved(),
        change.detectedBy().code(),
        change.toolCalls(),
        WireSnapshot.of(change.before()),
        change.after().map(WireSnapshot::of).orElse(null),
        WireTurnRef.ofShared(change.alsoPossible()),
        change.madeDuring().code(),
        WireToolCall.of(change.calls()));
  }

  public static List<WireFileRecord> of(List<StoredFileChange> changes) {
    return changes.stream().map(WireFileRecord::of).toList();
  }
}
