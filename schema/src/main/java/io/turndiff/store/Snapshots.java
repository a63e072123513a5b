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
import org.jooq.impl.DSL;

/** Snapshot rows. Stored content must already be in the blob table (a foreign key says so). */
public final class Snapshots {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  Snapshots(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  public long insert(Snapshot snapshot) {
    Optional<FileMetadata> metadata = snapshot.metadata();
    return prepared.insertReturningKey("snapshot.insert", q -> q.insertInto(SNAPSHOT)
            .set(SNAPSHOT.PATH, DSL.param("path", byte[].class))
            .set(SNAPSHOT.BOUNDARY, DSL.param("boundary", String.class))
            .set(SNAPSHOT.PRESENT, DSL.param("present", Boolean.class))
            .set(SNAPSHOT.FILE_TYPE, DSL.param("type", String.class))
            .set(SNAPSHOT.SIZE, DSL.param("size", Long.class))
            .set(SNAPSHOT.MTIME_NS, DSL.param("mtime", Long.class))
            .set(SNAPSHOT.MODE, DSL.param("mode", Long.class))
            .set(SNAPSHOT.INODE, DSL.param("inode", Long.class))
            .set(SNAPSHOT.NLINK, DSL.param("nlink", Long.class))
            .set(SNAPSHOT.SHA256, DSL.param("sha", String.class))
            .set(SNAPSHOT.SAMPLED_SHA256, DSL.param("sampled", String.class))
            .set(SNAPSHOT.CONTENT_SHA256, DSL.param("content", String.class))
            .set(SNAPSHOT.CAPTURED, DSL.param("captured", Boolean.class))
            .set(SNAPSHOT.LINK_TARGET, DSL.param("link", byte[].class))
            .set(SNAPSHOT.FINGERPRINT, DSL.param("fingerprint", String.class))
            .set(SNAPSHOT.REASON, DSL.param("reason", String.class))
            .set(SNAPSHOT.REASON_DETAIL, DSL.param("detail", String.class))
            .set(SNAPSHOT.TAKEN_AT, DSL.param("at", Long.class)))
        .bind("path", snapshot.path().bytes())
        .bind("boundary", snapshot.boundary().code())
        .bind("present", snapshot.presence().toNullableBoolean())
        .bind("type", metadata.map(m -> m.type().code()).orElse(null))
        .bind("size", metadata.map(FileMetadata::size).orElse(null))
        .bind("mtime", metadata.map(FileMetadata::mtimeNanos).orElse(null))
        .bind("mode", metadata.map(m -> (long) m.mode()).orElse(null))
        .bind("inode", metadata.map(FileMetadata::inode).orElse(null))
        .bind("nlink", metadata.map(FileMetadata::nlink).orElse(null))
        .bind("sha", snapshot.sha256().map(Sha256::hex).orElse(null))
        .bind("sampled", snapshot.sampledSha256().map(Sha256::hex).orElse(null))
        .bind("content", snapshot.storedContent().map(Sha256::hex).orElse(null))
        .bind("captured", snapshot.captured())
        .bind("link", snapshot.linkTarget().map(LinkTarget::bytes).orElse(null))
        .bind("fingerprint", snapshot.fingerprint())
        .bind("reason", snapshot.reason().map(Reason::code).orElse(null))
        .bind("detail", snapshot.reasonDetail().isEmpty() ? null : snapshot.reasonDetail())
        .bind("at", snapshot.takenAt().toEpochMilli())
        .insert().orElseThrow();
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
        Optional.ofNullable(row.getSampledSha256()).map(Sha256::new),
        Optional.ofNullable(row.getContentSha256()).map(Sha256::new),
        Optional.ofNullable(row.getLinkTarget()).map(LinkTarget::of),
        Optional.ofNullable(row.getReason()).map(Reason::fromCode),
        row.getReasonDetail() == null ? "" : row.getReasonDetail(),
        Instant.ofEpochMilli(row.getTakenAt()));
  }
}
