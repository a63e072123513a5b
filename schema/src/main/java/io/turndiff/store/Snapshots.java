package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.SNAPSHOT;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.SnapshotRecord;
import java.time.Instant;
import java.util.Optional;
import org.jooq.DSLContext;

/** Snapshot rows. Stored content must already be in the blob table (a foreign key says so). */
public final class Snapshots {

  private final DSLContext dsl;

  Snapshots(DSLContext dsl) {
    this.dsl = dsl;
  }

  public long insert(Snapshot snapshot) {
    SnapshotRecord row = dsl.newRecord(SNAPSHOT);
    row.setPath(snapshot.path().bytes());
    row.setBoundary(snapshot.boundary().code());
    row.setPresent(snapshot.presence().toNullableBoolean());
    snapshot.metadata().ifPresent(metadata -> {
      row.setFileType(metadata.type().code());
      row.setSize(metadata.size());
      row.setMtimeNs(metadata.mtimeNanos());
      row.setMode((long) metadata.mode());
      row.setInode(metadata.inode());
      row.setNlink(metadata.nlink());
    });
    row.setSha256(snapshot.sha256().map(Sha256::hex).orElse(null));
    row.setContentSha256(snapshot.storedContent().map(Sha256::hex).orElse(null));
    row.setCaptured(snapshot.captured());
    row.setLinkTarget(snapshot.linkTarget().map(LinkTarget::bytes).orElse(null));
    row.setFingerprint(snapshot.fingerprint());
    row.setReason(snapshot.reason().map(Reason::code).orElse(null));
    row.setReasonDetail(snapshot.reasonDetail().isEmpty() ? null : snapshot.reasonDetail());
    row.setTakenAt(snapshot.takenAt().toEpochMilli());
    row.store();
    return row.getId();
  }

  public Snapshot byId(long id) {
    SnapshotRecord row = dsl.selectFrom(SNAPSHOT).where(SNAPSHOT.ID.eq(id)).fetchOne();
    if (row == null) {
      throw new StoreException("snapshot " + id + " is missing from the store");
    }
    return toSnapshot(row);
  }

  static Snapshot toSnapshot(SnapshotRecord row) {
    Optional<FileMetadata> metadata = Optional.ofNullable(row.getFileType()).map(type -> new FileMetadata(
        FileType.fromCode(type), row.getSize(), row.getMtimeNs(), Math.toIntExact(row.getMode()),
        row.getInode(), row.getNlink()));
    return new Snapshot(
        WorkspacePath.fromStored(row.getPath()),
        BoundaryKind.fromCode(row.getBoundary()),
        Presence.fromNullableBoolean(row.getPresent()),
        metadata,
        Optional.ofNullable(row.getSha256()).map(Sha256::new),
        Optional.ofNullable(row.getContentSha256()).map(Sha256::new),
        Optional.ofNullable(row.getLinkTarget()).map(LinkTarget::of),
        Optional.ofNullable(row.getReason()).map(Reason::fromCode),
        row.getReasonDetail() == null ? "" : row.getReasonDetail(),
        Instant.ofEpochMilli(row.getTakenAt()));
  }
}
