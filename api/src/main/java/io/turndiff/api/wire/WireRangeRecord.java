package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Containment;
import io.turndiff.review.RangeChange;
import java.util.List;

/**
 * A file over a stretch of turns: its first before-state, its last after-state, and the turns that
 * touched it; {@code ignored} as a turn's record has it ({@link WireFileRecord}), when a record of
 * the stretch is one of a file git ignores.
 */
public record WireRangeRecord(
    @JsonUnwrapped WirePath path,
    String change,
    String detail,
    String containment,
    boolean restorable,
    int added,
    int removed,
    List<String> turns,
    WireSnapshot before,
    WireSnapshot after,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean ignored) {

  public static WireRangeRecord of(RangeChange change) {
    Containment containment =
        change.before().containment() != Containment.INSIDE
            ? change.before().containment()
            : change.after().containment();
    return new WireRangeRecord(
        WirePath.of(change.path()),
        change.change().code(),
        ChangeKind.whyUnknown(change.before(), change.after()).orElse(null),
        containment.code(),
        change.before().captured() && change.change() != ChangeKind.UNKNOWN,
        change.added(),
        change.removed(),
        change.turns(),
        WireSnapshot.of(change.before()),
        WireSnapshot.of(change.after()),
        change.ignoredByGit() ? Boolean.TRUE : null);
  }
}
