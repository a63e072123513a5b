package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.INDEX_ENTRY;
import static io.turndiff.store.jooq.Tables.INDEX_LEFT_OUT;
import static io.turndiff.store.jooq.Tables.TRACKED_WORKSPACE;

import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.IndexEntryRecord;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The index of tracked workspaces: its header, its entries, and the subtrees the budgets left out.
 */
public final class WorkspaceIndexes {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  WorkspaceIndexes(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  /**
   * The header of the workspace's index, if it is tracked (a prepared statement: a begin and a
   * finish of a tracked workspace ask it several times each).
   */
  public Optional<TrackedWorkspace> tracked(long workspaceId) {
    return prepared
        .get(
            "index.tracked",
            q ->
                q.select(
                        TRACKED_WORKSPACE.INDEXED_AT_NS,
                        TRACKED_WORKSPACE.VERSION,
                        TRACKED_WORKSPACE.PARTIAL,
                        TRACKED_WORKSPACE.MAX_FILES,
                        TRACKED_WORKSPACE.MAX_BYTES,
                        TRACKED_WORKSPACE.IGNORED_FILES,
                        TRACKED_WORKSPACE.IGNORED_MAX_BYTES)
                    .from(TRACKED_WORKSPACE)
                    .where(TRACKED_WORKSPACE.WORKSPACE_ID.eq(DSL.param("workspace", Long.class))))
        .bind("workspace", workspaceId)
        .first(
            row ->
                new TrackedWorkspace(
                    workspaceId,
                    row.getLong(1),
                    row.getLong(2),
                    row.getLong(3) == 1L,
                    row.getLong(4),
                    row.getLong(5),
                    row.getString(6),
                    row.getLong(7)));
  }

  /**
   * Sets what the index of a tracked workspace keeps of the files git ignores ({@code none}, {@code
   * metadata} or {@code small}) and their size cap, after the write that made it tracked.
   */
  public void ignoredFiles(long workspaceId, String ignoredFiles, long ignoredMaxBytes) {
    dsl.update(TRACKED_WORKSPACE)
        .set(TRACKED_WORKSPACE.IGNORED_FILES, ignoredFiles)
        .set(TRACKED_WORKSPACE.IGNORED_MAX_BYTES, ignoredMaxBytes)
        .where(TRACKED_WORKSPACE.WORKSPACE_ID.eq(workspaceId))
        .execute();
  }

  /** The index's version (a prepared statement: asked on every use of a cached index). */
  public Optional<Long> version(long workspaceId) {
    return prepared
        .get(
            "index.version",
            q ->
                q.select(TRACKED_WORKSPACE.VERSION)
                    .from(TRACKED_WORKSPACE)
                    .where(TRACKED_WORKSPACE.WORKSPACE_ID.eq(DSL.param("workspace", Long.class))))
        .bind("workspace", workspaceId)
        .firstLong();
  }

  public Map<WorkspacePath, IndexEntry> entries(long workspaceId) {
    Map<WorkspacePath, IndexEntry> entries = new HashMap<>();
    dsl.selectFrom(INDEX_ENTRY)
        .where(INDEX_ENTRY.WORKSPACE_ID.eq(workspaceId))
        .fetch()
        .forEach(
            row -> {
              IndexEntry entry = toEntry(row);
              entries.put(entry.path(), entry);
            });
    return entries;
  }

  public List<WorkspacePath> leftOut(long workspaceId) {
    return dsl.select(INDEX_LEFT_OUT.PATH)
        .from(INDEX_LEFT_OUT)
        .where(INDEX_LEFT_OUT.WORKSPACE_ID.eq(workspaceId))
        .fetch(row -> WorkspacePath.ofRelativeBytes(row.value1()));
  }

  /**
   * Writes the index: the header (a new version), the entries that changed, the entries that are
   * gone, and the subtrees left out. Blobs the entries refer to must be stored first.
   */
  public void write(
      long workspaceId,
      long indexedAtNanos,
      boolean partial,
      long maxFiles,
      long maxBytes,
      Collection<IndexEntry> upserts,
      Collection<WorkspacePath> removals,
      Optional<List<WorkspacePath>> leftOut) {
    long version = version(workspaceId).orElse(0L) + 1;
    // The header is written by every scan that writes the index (a hook's begin and finish), so it
    // is kept prepared, as the entries' statements are.
    prepared
        .get(
            "index.header",
            q ->
                q.insertInto(TRACKED_WORKSPACE)
                    .set(TRACKED_WORKSPACE.WORKSPACE_ID, DSL.param("workspace", Long.class))
                    .set(TRACKED_WORKSPACE.INDEXED_AT_NS, DSL.param("indexed", Long.class))
                    .set(TRACKED_WORKSPACE.VERSION, DSL.param("version", Long.class))
                    .set(TRACKED_WORKSPACE.PARTIAL, DSL.param("partial", Long.class))
                    .set(TRACKED_WORKSPACE.MAX_FILES, DSL.param("files", Long.class))
                    .set(TRACKED_WORKSPACE.MAX_BYTES, DSL.param("bytes", Long.class))
                    .onConflict(TRACKED_WORKSPACE.WORKSPACE_ID)
                    .doUpdate()
                    .set(
                        TRACKED_WORKSPACE.INDEXED_AT_NS,
                        DSL.excluded(TRACKED_WORKSPACE.INDEXED_AT_NS))
                    .set(TRACKED_WORKSPACE.VERSION, DSL.excluded(TRACKED_WORKSPACE.VERSION))
                    .set(TRACKED_WORKSPACE.PARTIAL, DSL.excluded(TRACKED_WORKSPACE.PARTIAL))
                    .set(TRACKED_WORKSPACE.MAX_FILES, DSL.excluded(TRACKED_WORKSPACE.MAX_FILES))
                    .set(TRACKED_WORKSPACE.MAX_BYTES, DSL.excluded(TRACKED_WORKSPACE.MAX_BYTES)))
        .bind("workspace", workspaceId)
        .bind("indexed", indexedAtNanos)
        .bind("version", version)
        .bind("partial", partial ? 1L : 0L)
        .bind("files", maxFiles)
        .bind("bytes", maxBytes)
        .update();
    PreparedQuery upsert =
        prepared.get(
            "index.upsert",
            q ->
                q.insertInto(INDEX_ENTRY)
                    .set(INDEX_ENTRY.WORKSPACE_ID, DSL.param("workspace", Long.class))
                    .set(INDEX_ENTRY.PATH, DSL.param("path", byte[].class))
                    .set(INDEX_ENTRY.FILE_TYPE, DSL.param("type", String.class))
                    .set(INDEX_ENTRY.SIZE, DSL.param("size", Long.class))
                    .set(INDEX_ENTRY.MTIME_NS, DSL.param("mtime", Long.class))
                    .set(INDEX_ENTRY.CTIME_NS, DSL.param("ctime", Long.class))
                    .set(INDEX_ENTRY.INODE, DSL.param("inode", Long.class))
                    .set(INDEX_ENTRY.MODE, DSL.param("mode", Long.class))
                    .set(INDEX_ENTRY.NLINK, DSL.param("nlink", Long.class))
                    .set(INDEX_ENTRY.LINK_TARGET, DSL.param("link", byte[].class))
                    .set(INDEX_ENTRY.SHA256, DSL.param("sha", String.class))
                    .set(INDEX_ENTRY.CONTENT_SHA256, DSL.param("content", String.class))
                    .set(INDEX_ENTRY.REASON, DSL.param("reason", String.class))
                    .onConflict(INDEX_ENTRY.WORKSPACE_ID, INDEX_ENTRY.PATH)
                    .doUpdate()
                    .set(INDEX_ENTRY.FILE_TYPE, DSL.excluded(INDEX_ENTRY.FILE_TYPE))
                    .set(INDEX_ENTRY.SIZE, DSL.excluded(INDEX_ENTRY.SIZE))
                    .set(INDEX_ENTRY.MTIME_NS, DSL.excluded(INDEX_ENTRY.MTIME_NS))
                    .set(INDEX_ENTRY.CTIME_NS, DSL.excluded(INDEX_ENTRY.CTIME_NS))
                    .set(INDEX_ENTRY.INODE, DSL.excluded(INDEX_ENTRY.INODE))
                    .set(INDEX_ENTRY.MODE, DSL.excluded(INDEX_ENTRY.MODE))
                    .set(INDEX_ENTRY.NLINK, DSL.excluded(INDEX_ENTRY.NLINK))
                    .set(INDEX_ENTRY.LINK_TARGET, DSL.excluded(INDEX_ENTRY.LINK_TARGET))
                    .set(INDEX_ENTRY.SHA256, DSL.excluded(INDEX_ENTRY.SHA256))
                    .set(INDEX_ENTRY.CONTENT_SHA256, DSL.excluded(INDEX_ENTRY.CONTENT_SHA256))
                    .set(INDEX_ENTRY.REASON, DSL.excluded(INDEX_ENTRY.REASON)));
    for (IndexEntry entry : upserts) {
      StatProof stat = entry.stat();
      upsert
          .bind("workspace", workspaceId)
          .bind("path", entry.path().bytes())
          .bind("type", stat.type().code())
          .bind("size", stat.size())
          .bind("mtime", stat.mtimeNanos())
          .bind("ctime", stat.ctimeNanos())
          .bind("inode", stat.inode())
          .bind("mode", (long) stat.mode())
          .bind("nlink", stat.nlink())
          .bind("link", entry.linkTarget().map(LinkTarget::bytes).orElse(null))
          .bind("sha", hashNotStored(entry).map(Sha256::hex).orElse(null))
          .bind("content", entry.storedContent().map(Sha256::hex).orElse(null))
          .bind("reason", entry.reason().map(Reason::code).orElse(null))
          .update();
    }
    PreparedQuery delete =
        prepared.get(
            "index.delete",
            q ->
                q.deleteFrom(INDEX_ENTRY)
                    .where(
                        INDEX_ENTRY
                            .WORKSPACE_ID
                            .eq(DSL.param("workspace", Long.class))
                            .and(INDEX_ENTRY.PATH.eq(DSL.param("path", byte[].class)))));
    for (WorkspacePath path : removals) {
      delete.bind("workspace", workspaceId).bind("path", path.bytes()).update();
    }
    if (leftOut.isPresent()) {
      dsl.deleteFrom(INDEX_LEFT_OUT).where(INDEX_LEFT_OUT.WORKSPACE_ID.eq(workspaceId)).execute();
      for (WorkspacePath path : leftOut.get()) {
        dsl.insertInto(INDEX_LEFT_OUT)
            .set(INDEX_LEFT_OUT.WORKSPACE_ID, workspaceId)
            .set(INDEX_LEFT_OUT.PATH, path.bytes())
            .execute();
      }
    }
  }

  /**
   * The hash the row keeps in its {@code sha256} column: none when the content is stored, whose key
   * is that hash (V30; {@link IndexEntry} holds them equal). An index of a quarter of a million
   * files kept both, 64 characters each: 16 MB of a 161 MB store (docs/performance.md, "The tracked
   * baseline's bytes at 250,000 files").
   */
  private static Optional<Sha256> hashNotStored(IndexEntry entry) {
    return entry.storedContent().isPresent() ? Optional.empty() : entry.sha256();
  }

  /**
   * The entry a row records.
   *
   * @throws StoreException when the row is none the store writes (a type, mode or hash it cannot
   *     hold, a stored content under another hash), naming it
   */
  private static IndexEntry toEntry(IndexEntryRecord row) {
    try {
      return entryOf(row);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new StoreException(
          "the index entry of '"
              + new String(row.getPath(), StandardCharsets.UTF_8)
              + "' in workspace "
              + row.getWorkspaceId()
              + " is none the store writes: "
              + e.getMessage(),
          e);
    }
  }

  private static IndexEntry entryOf(IndexEntryRecord row) {
    StatProof stat =
        new StatProof(
            FileType.fromCode(row.getFileType()),
            row.getSize(),
            row.getMtimeNs(),
            row.getCtimeNs(),
            row.getInode(),
            Math.toIntExact(row.getMode()),
            row.getNlink());
    // a stored file's hash is its content's key (hashNotStored): one value for both, in the row
    // and in memory, where a tracker holds every entry of its workspaces; a row a build before V30
    // wrote holds it twice, equal
    Optional<Sha256> content = Optional.ofNullable(row.getContentSha256()).map(Sha256::new);
    Optional<Sha256> sha256 =
        row.getSha256() == null || row.getSha256().equals(row.getContentSha256())
            ? content
            : Optional.of(new Sha256(row.getSha256()));
    return new IndexEntry(
        WorkspacePath.ofRelativeBytes(row.getPath()),
        stat,
        Optional.ofNullable(row.getLinkTarget()).map(LinkTarget::of),
        sha256,
        content,
        Optional.ofNullable(row.getReason()).map(Reason::fromCode));
  }
}
