package io.turndiff.capture;

import io.turndiff.model.GivenPath;
import io.turndiff.model.Presence;
import io.turndiff.model.Snapshot;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a snapshot call did for one recorded path.
 *
 * @param input the path as the call gave it
 * @param snapshot the state seen now
 * @param via the symlink the path was reached through, when it was
 * @param recorded true when this call recorded the path's before-state; false when an earlier call
 *     in the turn already had (the first before-state wins, and this call is only noted as having
 *     asked)
 */
public record SnapshotVerdict(
    GivenPath input, Snapshot snapshot, Optional<GivenPath> via, boolean recorded) {

  /** What the call did with the path, in one word. */
  public enum Verdict {
    /** The state is completely known and was recorded: a stored file, a symlink's text. */
    CAPTURED,
    /** The path was known not to exist, and that was recorded. */
    ABSENT,
    /**
     * Only what stat and hashing could show was recorded, with the reason why: it can never be put
     * back.
     */
    METADATA_ONLY,
    /** An earlier call in the turn recorded the path first; its state is the one that counts. */
    ALREADY_RECORDED;

    /** The name the JSON shapes use. */
    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public SnapshotVerdict {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(via, "via");
  }

  /** What the call did with the path; an earlier call's record wins over this call's state. */
  public Verdict verdict() {
    if (!recorded) {
      return Verdict.ALREADY_RECORDED;
    }
    if (!snapshot.captured()) {
      return Verdict.METADATA_ONLY;
    }
    return snapshot.presence() == Presence.ABSENT ? Verdict.ABSENT : Verdict.CAPTURED;
  }

  /** Whether the state seen now could be put back: only a captured state can. */
  public boolean restorable() {
    return snapshot.captured();
  }
}
