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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    // The entries in multi-row statements of 64, not a statement each: a first track of 250,000
    // files writes 3,907 statements instead of 250,000 (docs/performance.md, "A found change's
    // rows in a few statements").
    ENTRY_ROWS.insert(prepared, lastOfEachPath(upserts), entry -> values(workspaceId, entry));
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
      prepared
          .get(
              "index.left_out.clear",
              q ->
                  q.deleteFrom(INDEX_LEFT_OUT)
                      .where(INDEX_LEFT_OUT.WORKSPACE_ID.eq(DSL.param("workspace", Long.class))))
          .bind("workspace", workspaceId)
          .update();
      LEFT_OUT_ROWS.insert(
          prepared, leftOut.get(), path -> new Object[] {workspaceId, path.bytes()});
    }
  }

  private static final MultiRowInsert<IndexEntry> ENTRY_ROWS =
      MultiRowInsert.replacing(
          "index.upsert.rows",
          INDEX_ENTRY,
          List.of(
              INDEX_ENTRY.WORKSPACE_ID,
              INDEX_ENTRY.PATH,
              INDEX_ENTRY.FILE_TYPE,
              INDEX_ENTRY.SIZE,
              INDEX_ENTRY.MTIME_NS,
              INDEX_ENTRY.CTIME_NS,
              INDEX_ENTRY.INODE,
              INDEX_ENTRY.MODE,
              INDEX_ENTRY.NLINK,
              INDEX_ENTRY.LINK_TARGET,
              INDEX_ENTRY.SHA256,
              INDEX_ENTRY.CONTENT_SHA256,
              INDEX_ENTRY.REASON),
          List.of(INDEX_ENTRY.WORKSPACE_ID, INDEX_ENTRY.PATH));

  private static final MultiRowInsert<WorkspacePath> LEFT_OUT_ROWS =
      new MultiRowInsert<>(
          "index.left_out.rows",
          INDEX_LEFT_OUT,
          List.of(INDEX_LEFT_OUT.WORKSPACE_ID, INDEX_LEFT_OUT.PATH),
          false);

  /**
   * The entries with a path given twice kept only as given last, as statements of their own each
   * left it; an upsert statement must not touch one row twice (PostgreSQL refuses it). A scan gives
   * each path once, so the entries are gathered by path only when one is given twice.
   */
  private static List<IndexEntry> lastOfEachPath(Collection<IndexEntry> upserts) {
    Set<WorkspacePath> paths = new HashSet<>();
    boolean repeated = false;
    for (IndexEntry entry : upserts) {
      repeated |= !paths.add(entry.path());
    }
    if (!repeated) {
      return List.copyOf(upserts);
    }
    Map<WorkspacePath, IndexEntry> byPath = new LinkedHashMap<>();
    upserts.forEach(entry -> byPath.put(entry.path(), entry));
    return List.copyOf(byPath.values());
  }

  /** An entry's row: a value for each column of {@link #ENTRY_ROWS}, in their order. */
  private static Object[] values(long workspaceId, IndexEntry entry) {
    StatProof stat = entry.stat();
    return new Object[] {
      workspaceId,
      entry.path().bytes(),
      stat.type().code(),
      stat.size(),
      stat.mtimeNanos(),
      stat.ctimeNanos(),
      stat.inode(),
      (long) stat.mode(),
      stat.nlink(),
      entry.linkTarget().map(LinkTarget::bytes).orElse(null),
      hashNotStored(entry).map(Sha256::hex).orElse(null),
      entry.storedContent().map(Sha256::hex).orElse(null),
      entry.reason().map(Reason::code).orElse(null)
    };
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
