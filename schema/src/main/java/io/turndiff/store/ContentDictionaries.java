package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.CONTENT_DICTIONARY;

import io.turndiff.model.Sha256;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The workspaces' zstd dictionaries ({@code content_dictionary}, V31): one per tracked workspace at
 * most, added by the track that trained it and never changed or removed after.
 *
 * <p>{@code known} is the store's own map of the dictionaries it has read, shared by its
 * transactions: a finish that decodes baseline content should not read and digest 110 KB again.
 * Every transaction looks there first, but only a read transaction adds to it ({@code
 * committedOnly}: it sees committed rows alone). A write may see a dictionary it added itself, and
 * if it is then rolled back the id is free for another dictionary (SQLite hands out the largest id
 * plus one again): remembered, it would name the wrong bytes. A committed dictionary never changes,
 * so what a read remembered stays true.
 */
public final class ContentDictionaries {

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;
  private final Map<Long, ContentDictionary> known;
  private final boolean committedOnly;

  /** What this transaction read and may not add to {@code known}: each read once all the same. */
  private final Map<Long, ContentDictionary> readHere = new HashMap<>();

  ContentDictionaries(
      DSLContext dsl,
      InstantSource clock,
      PreparedQueries prepared,
      Map<Long, ContentDictionary> known,
      boolean committedOnly) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
    this.known = known;
    this.committedOnly = committedOnly;
  }

  /** The dictionary of {@code workspaceId}, when one was trained. */
  public Optional<ContentDictionary> ofWorkspace(long workspaceId) {
    return prepared
        .get(
            "dictionary.of.workspace",
            q ->
                q.select(CONTENT_DICTIONARY.ID)
                    .from(CONTENT_DICTIONARY)
                    .where(CONTENT_DICTIONARY.WORKSPACE_ID.eq(DSL.param("workspace", Long.class))))
        .bind("workspace", workspaceId)
        .firstLong()
        .map(this::byId);
  }

  /**
   * Keeps {@code data} as the dictionary of {@code workspaceId}, which has none yet; returns it
   * under its new id, for the frames this transaction's caller compresses once it commits.
   */
  public ContentDictionary add(long workspaceId, byte[] data) {
    if (data.length == 0) {
      throw new IllegalArgumentException("an empty content dictionary");
    }
    long id =
        dsl.insertInto(CONTENT_DICTIONARY)
            .set(CONTENT_DICTIONARY.WORKSPACE_ID, workspaceId)
            .set(CONTENT_DICTIONARY.DATA, data)
            .set(CONTENT_DICTIONARY.SHA256, Sha256.of(data).hex())
            .set(CONTENT_DICTIONARY.TRAINED_AT, clock.millis())
            .returning(CONTENT_DICTIONARY.ID)
            .fetchOne(CONTENT_DICTIONARY.ID);
    return new ContentDictionary(id, data);
  }

  /**
   * The dictionary {@code id}, which a blob names.
   *
   * @throws StoreException when it is not in the store (the foreign key forbids it) or its bytes no
   *     longer hash to the SHA-256 stored with them: damage
   */
  public ContentDictionary byId(long id) {
    ContentDictionary dictionary = known.get(id);
    if (dictionary == null) {
      dictionary = readHere.get(id);
    }
    if (dictionary != null) {
      return dictionary;
    }
    var row =
        dsl.select(CONTENT_DICTIONARY.DATA, CONTENT_DICTIONARY.SHA256)
            .from(CONTENT_DICTIONARY)
            .where(CONTENT_DICTIONARY.ID.eq(id))
            .fetchOptional()
            .orElseThrow(
                () ->
                    new StoreException("content dictionary " + id + " is missing from the store"));
    // Every frame of a workspace's baseline decodes with it: damage here would give wrong bytes
    // under all of them (a frame has no checksum of its own), where a damaged frame fails alone.
    byte[] data = row.value1();
    if (data.length == 0 || !Sha256.of(data).hex().equals(row.value2())) {
      throw new StoreException(
          "content dictionary " + id + " no longer hashes to its SHA-256: the store is damaged");
    }
    ContentDictionary read = new ContentDictionary(id, data);
    return committedOnly
        ? known.computeIfAbsent(id, key -> read)
        : readHere.computeIfAbsent(id, key -> read);
  }
}
