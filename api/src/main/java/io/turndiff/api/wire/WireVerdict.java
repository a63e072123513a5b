package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.model.GivenPath;
import java.util.List;

/** One path's verdict from a snapshot call: what the call did, then the state it saw. */
public record WireVerdict(
    String input,
    @JsonInclude(JsonInclude.Include.NON_NULL) String inputBase64,
    @JsonUnwrapped WirePath path,
    String via,
    @JsonInclude(JsonInclude.Include.NON_NULL) String viaBase64,
    String verdict,
    String containment,
    boolean restorable,
    @JsonUnwrapped WireSnapshot snapshot) {

  public static WireVerdict of(SnapshotVerdict verdict) {
    GivenPath input = verdict.input();
    return new WireVerdict(
        input.display(),
        WirePath.base64Of(input),
        WirePath.of(verdict.snapshot().path()),
        WirePath.displayOf(verdict.via()),
        WirePath.base64Of(verdict.via()),
        verdict.verdict().code(),
        verdict.snapshot().containment().code(),
        verdict.restorable(),
        WireSnapshot.of(verdict.snapshot()));
  }

  public static List<WireVerdict> of(List<SnapshotVerdict> verdicts) {
    return verdicts.stream().map(WireVerdict::of).toList();
  }
}
