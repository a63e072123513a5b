package io.turndiff.api.wire;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.util.Locale;

/**
 * The state of a path at one moment: {@code exists} is null when it could not be known, the stat
 * fields are null without a stat, {@code mode} is octal text.
 */
public record WireSnapshot(
    Boolean exists,
    String type,
    Long size,
    String mode,
    Long mtimeNs,
    String sha256,
    String sampledSha256,
    boolean captured,
    String reason,
    String detail,
    String linkTarget,
    String fingerprint,
    String boundary) {

  public static WireSnapshot of(Snapshot snapshot) {
    return new WireSnapshot(
        snapshot.presence() == Presence.UNKNOWN ? null : snapshot.exists(),
        snapshot.type().map(FileType::code).orElse(null),
        snapshot.metadata().map(FileMetadata::size).orElse(null),
        snapshot
            .metadata()
            .map(metadata -> String.format(Locale.ROOT, "%04o", metadata.mode()))
            .orElse(null),
        snapshot.metadata().map(FileMetadata::mtimeNanos).orElse(null),
        snapshot.sha256().map(Sha256::hex).orElse(null),
        snapshot.sampledSha256().map(Sha256::hex).orElse(null),
        snapshot.captured(),
        snapshot.reason().map(Reason::code).orElse(null),
        snapshot.reasonDetail().isEmpty() ? null : snapshot.reasonDetail(),
        snapshot.linkTarget().map(LinkTarget::display).orElse(null),
        snapshot.fingerprint(),
        snapshot.boundary().code());
  }
}
