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
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/** Snapshot rows. Stored content must already be in the blob table (a foreign key says so). */
public final class Snapshots {

  /** The row's own key: a snapshot is the rest of its columns. */
  private static final Set<Field<?>> NOT_COMPARED = Set.of(SNAPSHOT.ID);

  private static final Supplier<IllegalArgumentException> NOT_CAPTURED =
      () ->
          new IllegalArgumentException(
              "it has no reason, yet it is not a known absence, a regular file with stored content or a symlink's text");

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  Snapshots(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  public long insert(Snapshot snapshot) {
    SnapshotRecord row = row(snapshot);
    return prepared
        .insertReturningKey(
            "snapshot.insert",
            q ->
                q.insertInto(SNAPSHOT)
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
                    .set(SNAPSHOT.REASON, DSL.param("reason", String.class))
                    .set(SNAPSHOT.REASON_DETAIL, DSL.param("detail", String.class))
                    .set(SNAPSHOT.TAKEN_AT, DSL.param("at", Long.class))
                    .returning(SNAPSHOT.ID))
        .bind("path", row.getPath())
        .bind("boundary", row.getBoundary())
        .bind("present", row.getPresent())
        .bind("type", row.getFileType())
        .bind("size", row.getSize())
        .bind("mtime", row.getMtimeNs())
        .bind("mode", row.getMode())
        .bind("inode", row.getInode())
        .bind("nlink", row.getNlink())
        .bind("sha", row.getSha256())
        .bind("sampled", row.getSampledSha256())
        .bind("content", row.getContentSha256())
        .bind("captured", row.getCaptured())
        .bind("link", row.getLinkTarget())
        .bind("reason", row.getReason())
        .bind("detail", row.getReasonDetail())
        .bind("at", row.getTakenAt())
        .insert()
        .orElseThrow();
  }

  /** The table's columns but its key, in the order {@link #values} gives them. */
  private static final List<Field<?>> COLUMNS =
      Arrays.stream(SNAPSHOT.fields()).filter(field -> !field.equals(SNAPSHOT.ID)).toList();

  private static final MultiRowInsert<Snapshot> MULTI_ROW =
      new MultiRowInsert<>("snapshot.insert.rows", SNAPSHOT, COLUMNS, false);

  /**
   * Inserts {@code snapshots}, the after-states a finish stores, in multi-row statements ({@link
   * MultiRowInsert}); returns their rows' ids in the same order. One snapshot takes {@link
   * #insert}, its own statement.
   */
  public long[] insertAll(List<Snapshot> snapshots) {
    if (snapshots.size() == 1) {
      return new long[] {insert(snapshots.getFirst())};
    }
    return MULTI_ROW.insertReturningKeys(prepared, snapshots, Snapshots::values, SNAPSHOT.ID);
  }

  /** Where the table's key is among its fields: the one value {@link #values} leaves out. */
  private static final int KEY = SNAPSHOT.indexOf(SNAPSHOT.ID);

  /** The row of {@code snapshot}: a value for each of {@link #COLUMNS}, in their order. */
  private static Object[] values(Snapshot snapshot) {
    // Read by the field's index, the key's skipped: an array read. A read by the field
    // (Record.get(Field), a look-up of the field in the record's row type) and a read of all at
    // once (Record.intoArray(), a record mapper looked up in a cache a detached record does not
    // keep) were each most of the binding of a twenty-row insert in CPU profiles of JMH
    // WatchedPrompt (docs/performance.md, "A prompt's reads on connections that stay").
    SnapshotRecord row = row(snapshot);
    Object[] values = new Object[COLUMNS.size()];
    for (int column = 0; column < values.length; column++) {
      values[column] = row.get(column < KEY ? column : column + 1);
    }
    return values;
  }

  public Snapshot byId(long id) {
    SnapshotRecord row = dsl.selectFrom(SNAPSHOT).where(SNAPSHOT.ID.eq(id)).fetchOne();
    if (row == null) {
      throw new StoreException("snapshot " + id + " is missing from the store");
    }
    return toSnapshot(row);
  }

  /**
   * The row that records {@code snapshot} (without its id): what each of its kinds leaves empty is
   * null.
   */
  static SnapshotRecord row(Snapshot snapshot) {
    Optional<FileMetadata> metadata = snapshot.metadata();
    SnapshotRecord row = new SnapshotRecord();
    row.setPath(snapshot.path().bytes());
    row.setBoundary(snapshot.boundary().code());
    row.setPresent(snapshot.presence().toNullableBoolean());
    row.setFileType(metadata.map(m -> m.type().code()).orElse(null));
    row.setSize(metadata.map(FileMetadata::size).orElse(null));
    row.setMtimeNs(metadata.map(FileMetadata::mtimeNanos).orElse(null));
    row.setMode(metadata.map(m -> (long) m.mode()).orElse(null));
    row.setInode(metadata.map(FileMetadata::inode).orElse(null));
    row.setNlink(metadata.map(FileMetadata::nlink).orElse(null));
    // A stored file's hash is its content's key, kept once: in content_sha256, with sha256 empty
    // (V30). The column sha256 holds a hash only where no content is stored: a file too large to
    // keep, or one indexed with metadata only. Two copies of 64 characters in every stored file's
    // row were an eighth of a turns' store (docs/performance.md, "Where the store's bytes are").
    row.setSha256(
        snapshot.storedContent().isPresent()
            ? null
            : snapshot.sha256().map(Sha256::hex).orElse(null));
    row.setSampledSha256(snapshot.sampledSha256().map(Sha256::hex).orElse(null));
    row.setContentSha256(snapshot.storedContent().map(Sha256::hex).orElse(null));
    row.setCaptured(snapshot.captured());
    row.setLinkTarget(snapshot.linkTarget().map(LinkTarget::bytes).orElse(null));
    row.setReason(snapshot.reason().map(Reason::code).orElse(null));
    row.setReasonDetail(snapshot.reasonDetail().isEmpty() ? null : snapshot.reasonDetail());
    row.setTakenAt(snapshot.takenAt().toEpochMilli());
    return row;
  }

  /**
   * The snapshot a row records, as the one kind it is (docs/store-layout.md, "Snapshot rows"): a
   * row with a reason is a {@link Snapshot.Directory} (reason {@code directory}) or {@link
   * Snapshot.MetadataOnly}; a row without one is captured: {@link Snapshot.Absent}, a {@link
   * Snapshot.RegularFile} with its stored content or a {@link Snapshot.Symlink} with its text. A
   * row that is none of them is refused, naming it: a combination the kind refuses, a column its
   * kind leaves empty that is set, or a captured flag that says otherwise.
   *
   * @throws StoreException when the row is none of the kinds
   */
  static Snapshot toSnapshot(SnapshotRecord row) {
    Snapshot snapshot;
    try {
      snapshot = kindOf(row);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw noKind(row, e.getMessage());
    }
    // the row must be exactly what this kind records: a column the kind leaves empty is empty, the
    // captured flag agrees (by index: the row may come from an alias of the table)
    SnapshotRecord recorded = row(snapshot);
    for (Field<?> column : SNAPSHOT.fields()) {
      int at = SNAPSHOT.indexOf(column);
      if (!NOT_COMPARED.contains(column)
          && !Objects.deepEquals(row.get(at), recorded.get(at))
          && !(column.equals(SNAPSHOT.SHA256) && storedHashTwice(row, at))) {
        throw noKind(
            row,
            "as "
                + kindName(snapshot)
                + " its "
                + column.getName()
                + " would be "
                + shown(recorded.get(at))
                + ", not "
                + shown(row.get(at)));
      }
    }
    return snapshot;
  }

  /**
   * Whether the row keeps a stored file's hash in {@code sha256} too, at column {@code at}, as rows
   * were written before V30: a build before it, still running against a migrated store (a service
   * not restarted since the upgrade, another machine of a shared store), writes them so, and its
   * snapshots and logged before-states read as the same snapshots (docs/store-layout.md, "A stored
   * file's hash, once").
   */
  private static boolean storedHashTwice(SnapshotRecord row, int at) {
    Object contentHash = row.get(SNAPSHOT.indexOf(SNAPSHOT.CONTENT_SHA256));
    return contentHash != null && contentHash.equals(row.get(at));
  }

  private static Snapshot kindOf(SnapshotRecord row) {
    WorkspacePath path = WorkspacePath.fromStored(row.getPath());
    BoundaryKind boundary = BoundaryKind.fromCode(row.getBoundary());
    Instant takenAt = Instant.ofEpochMilli(row.getTakenAt());
    Optional<FileMetadata> metadata = metadata(row);
    if (row.getReason() != null) {
      Reason reason = Reason.fromCode(row.getReason());
      String detail = Objects.requireNonNullElse(row.getReasonDetail(), "");
      if (reason == Reason.DIRECTORY) {
        return new Snapshot.Directory(
            path,
            boundary,
            metadata.orElseThrow(
                () -> new IllegalArgumentException("a directory without its stat")),
            detail,
            takenAt);
      }
      return new Snapshot.MetadataOnly(
          path,
          boundary,
          Presence.fromNullableBoolean(row.getPresent()),
          metadata,
          sha256(row.getSha256()),
          sha256(row.getSampledSha256()),
          Optional.ofNullable(row.getLinkTarget()).map(LinkTarget::of),
          reason,
          detail,
          takenAt);
    }
    return switch (Presence.fromNullableBoolean(row.getPresent())) {
      case ABSENT -> new Snapshot.Absent(path, boundary, takenAt);
      case UNKNOWN -> throw NOT_CAPTURED.get();
      case PRESENT -> {
        FileMetadata stat = metadata.orElseThrow(NOT_CAPTURED);
        yield switch (stat.type()) {
          case REGULAR ->
              new Snapshot.RegularFile(
                  path,
                  boundary,
                  stat,
                  sha256(row.getContentSha256()).orElseThrow(NOT_CAPTURED),
                  takenAt);
          case SYMLINK ->
              new Snapshot.Symlink(
                  path,
                  boundary,
                  stat,
                  Optional.ofNullable(row.getLinkTarget())
                      .map(LinkTarget::of)
                      .orElseThrow(NOT_CAPTURED),
                  takenAt);
          case DIRECTORY, FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE, UNKNOWN ->
              throw NOT_CAPTURED.get();
        };
      }
    };
  }

  /**
   * What stat said, when the row holds it: all of type, size, mtime, mode, inode and link count, or
   * none.
   */
  private static Optional<FileMetadata> metadata(SnapshotRecord row) {
    if (row.getFileType() == null) {
      return Optional.empty();
    }
    if (row.getSize() == null
        || row.getMtimeNs() == null
        || row.getMode() == null
        || row.getInode() == null
        || row.getNlink() == null) {
      throw new IllegalArgumentException(
          "its file_type is set, but not all of size, mtime_ns, mode, inode, nlink");
    }
    return Optional.of(
        new FileMetadata(
            FileType.fromCode(row.getFileType()),
            row.getSize(),
            row.getMtimeNs(),
            Math.toIntExact(row.getMode()),
            row.getInode(),
            row.getNlink()));
  }

  private static Optional<Sha256> sha256(String hex) {
    return Optional.ofNullable(hex).map(Sha256::new);
  }

  private static StoreException noKind(SnapshotRecord row, String why) {
    return new StoreException(
        "snapshot "
            + row.getId()
            + " in the store is none of a known absence, a regular "
            + "file with stored content, a symlink's text, a directory or metadata only with a reason: "
            + why);
  }

  private static String kindName(Snapshot snapshot) {
    return switch (snapshot) {
      case Snapshot.Absent _ -> "a known absence";
      case Snapshot.RegularFile _ -> "a regular file with stored content";
      case Snapshot.Symlink _ -> "a symlink's text";
      case Snapshot.Directory _ -> "a directory";
      case Snapshot.MetadataOnly _ -> "metadata only";
    };
  }

  private static String shown(Object value) {
    return switch (value) {
      case null -> "empty";
      case byte[] bytes -> bytes.length + " bytes";
      default -> value.toString();
    };
  }
}
