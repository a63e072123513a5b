package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.BLOB;
import static io.turndiff.store.jooq.Tables.CHUNKED_CONTENT;
import static io.turndiff.store.jooq.Tables.CONTENT_CHUNK;
import static io.turndiff.store.jooq.Tables.CONTENT_DICTIONARY;
import static io.turndiff.store.jooq.Tables.DIRECTORY_CHANGE;
import static io.turndiff.store.jooq.Tables.FILE_CHANGE;
import static io.turndiff.store.jooq.Tables.FILE_CHANGE_SHARED;
import static io.turndiff.store.jooq.Tables.FILE_CHANGE_TOOL_CALL;
import static io.turndiff.store.jooq.Tables.INDEX_ENTRY;
import static io.turndiff.store.jooq.Tables.REWIND_DIRECTORY;
import static io.turndiff.store.jooq.Tables.REWIND_ENTRY;
import static io.turndiff.store.jooq.Tables.REWIND_OPERATION;
import static io.turndiff.store.jooq.Tables.REWIND_OPERATION_TURN;
import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.SNAPSHOT;
import static io.turndiff.store.jooq.Tables.TOOL_CALL;
import static io.turndiff.store.jooq.Tables.TURN;
import static io.turndiff.store.jooq.Tables.TURN_PROMPT;
import static io.turndiff.store.jooq.Tables.WORKSPACE;

import io.turndiff.model.TurnState;
import io.turndiff.store.jooq.tables.Blob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The SQL of retention: which turns a policy lets go, removing a group of turns with every row that
 * is theirs alone, removing blobs no row refers to, and the store's footprint.
 *
 * <p>A turn a rewind operation refers to (the turn it was asked for, the turns it put back, the
 * turn that records what it did) goes only together with every other turn of that operation, once
 * the operation is done: so a rewind can still be undone while its turn is kept, and nothing an
 * unfinished rewind refers to is removed. The turns that must go together are one {@link #groups
 * group}, removed in one transaction.
 */
public final class Retention {

  private static final String APPLYING = "applying";

  private final DSLContext dsl;

  Retention(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * The groups of finished turns, oldest first, that are finished longer ago than {@code olderThan}
   * (when given) and not among the newest {@code keepTurns} of their session (when given): each a
   * set of turn ids that go together. Never an open turn, nor a turn of an operation still applying
   * or of one whose other turns are not chosen too.
   */
  public List<Set<Long>> groups(
      Optional<Duration> olderThan, OptionalInt keepTurns, long nowMillis) {
    Field<Integer> newest =
        DSL.rowNumber().over().partitionBy(TURN.SESSION_ID).orderBy(TURN.SEQ.desc()).as("newest");
    var ranked =
        dsl.select(TURN.ID, TURN.STATE, TURN.FINISHED_AT, newest)
            .from(TURN)
            .orderBy(TURN.FINISHED_AT, TURN.ID)
            .fetch();
    Set<Long> candidates = new LinkedHashSet<>();
    for (var row : ranked) {
      boolean finished = !TurnState.OPEN.code().equals(row.value2()) && row.value3() != null;
      boolean old =
          olderThan.isEmpty()
              || (row.value3() != null && row.value3() < nowMillis - olderThan.get().toMillis());
      boolean beyondKept = keepTurns.isEmpty() || row.value4() > keepTurns.getAsInt();
      if (finished && old && beyondKept) {
        candidates.add(row.value1());
      }
    }
    Map<Long, Set<Long>> operations = operationTurns();
    Set<Long> applying =
        new HashSet<>(
            dsl.select(REWIND_OPERATION.ID)
                .from(REWIND_OPERATION)
                .where(REWIND_OPERATION.STATE.eq(APPLYING))
                .fetch(REWIND_OPERATION.ID));
    boolean changed = true;
    while (changed) {
      changed = false;
      for (var operation : operations.entrySet()) {
        Set<Long> turns = operation.getValue();
        boolean touches = turns.stream().anyMatch(candidates::contains);
        if (touches && (applying.contains(operation.getKey()) || !candidates.containsAll(turns))) {
          changed |= candidates.removeAll(turns);
        }
      }
    }
    // each candidate with the candidates it must go with (turns linked through operations)
    Map<Long, Set<Long>> groupOf = new LinkedHashMap<>();
    for (long turn : candidates) {
      groupOf.put(turn, new LinkedHashSet<>(List.of(turn)));
    }
    for (Set<Long> turns : operations.values()) {
      if (!candidates.containsAll(turns)) {
        continue;
      }
      Set<Long> merged = new LinkedHashSet<>();
      turns.forEach(turn -> merged.addAll(groupOf.get(turn)));
      merged.forEach(turn -> groupOf.put(turn, merged));
    }
    List<Set<Long>> groups = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (Set<Long> group : groupOf.values()) {
      if (seen.addAll(group)) {
        groups.add(group);
      }
    }
    return groups;
  }

  /** Every rewind operation's turns: the one asked for, the ones put back, and its own. */
  private Map<Long, Set<Long>> operationTurns() {
    Map<Long, Set<Long>> turns = new HashMap<>();
    dsl.select(
            REWIND_OPERATION.ID, REWIND_OPERATION.TARGET_TURN_ID, REWIND_OPERATION.REWIND_TURN_ID)
        .from(REWIND_OPERATION)
        .forEach(
            row -> {
              Set<Long> of = turns.computeIfAbsent(row.value1(), id -> new HashSet<>());
              of.add(row.value2());
              of.add(row.value3());
            });
    dsl.select(REWIND_OPERATION_TURN.OPERATION_ID, REWIND_OPERATION_TURN.TURN_ID)
        .from(REWIND_OPERATION_TURN)
        .forEach(
            row -> turns.computeIfAbsent(row.value1(), id -> new HashSet<>()).add(row.value2()));
    return turns;
  }

  /**
   * Removes the turns of {@code group} and every row that is theirs alone, checking again first, in
   * this transaction, that none is open and that every rewind operation referring to one is done
   * and has all its turns in the group (a capture or a rewind may have begun since the plan).
   *
   * @return the turns removed and the blobs their rows referred to; empty when the check failed and
   *     nothing was removed
   */
  public Optional<Removal> remove(Set<Long> group) {
    boolean open = anyOpen(group);
    Map<Long, Set<Long>> operations = operationsTouching(group);
    if (open || held(group, operations) || group.isEmpty()) {
      return Optional.empty();
    }
    Set<Long> operationIds = operations.keySet();
    List<RemovedTurn> removed = described(group);
    Set<Long> snapshots = snapshotsOf(group, operationIds);
    Set<String> blobs = blobsOf(group, operationIds, snapshots);
    deleteRewinds(operationIds);
    deleteTurns(group);
    deleteSnapshotsNoOneRefersTo(snapshots);
    return Optional.of(new Removal(removed, blobs));
  }

  private boolean anyOpen(Set<Long> group) {
    return dsl.fetchExists(
        dsl.selectFrom(TURN).where(TURN.ID.in(group).and(TURN.STATE.eq(TurnState.OPEN.code()))));
  }

  /** The rewind operations that refer to a turn of {@code group}, each with all its turns. */
  private Map<Long, Set<Long>> operationsTouching(Set<Long> group) {
    Map<Long, Set<Long>> operations = new HashMap<>();
    operationTurns()
        .forEach(
            (operation, turns) -> {
              if (turns.stream().anyMatch(group::contains)) {
                operations.put(operation, turns);
              }
            });
    return operations;
  }

  /**
   * Whether a rewind operation keeps the group: one that also refers to a turn outside it, or one
   * still applying.
   */
  private boolean held(Set<Long> group, Map<Long, Set<Long>> operations) {
    return operations.values().stream().anyMatch(turns -> !group.containsAll(turns))
        || dsl.fetchExists(
            dsl.selectFrom(REWIND_OPERATION)
                .where(
                    REWIND_OPERATION
                        .ID
                        .in(operations.keySet())
                        .and(REWIND_OPERATION.STATE.eq(APPLYING))));
  }

  /** The turns of {@code group} as the report of a removal names them, in order. */
  private List<RemovedTurn> described(Set<Long> group) {
    return dsl.select(
            WORKSPACE.ROOT_GIVEN,
            SESSION.EXTERNAL_ID,
            TURN.EXTERNAL_ID,
            TURN.SEQ,
            TURN.KIND,
            TURN.FINISHED_AT)
        .from(TURN)
        .join(SESSION)
        .on(SESSION.ID.eq(TURN.SESSION_ID))
        .join(WORKSPACE)
        .on(WORKSPACE.ID.eq(SESSION.WORKSPACE_ID))
        .where(TURN.ID.in(group))
        .orderBy(TURN.SESSION_ID, TURN.SEQ)
        .fetch(
            row ->
                new RemovedTurn(
                    row.value1(),
                    row.value2(),
                    row.value3(),
                    row.value4(),
                    row.value5(),
                    Instant.ofEpochMilli(row.value6())));
  }

  /** The snapshots the group's changes and its rewinds' entries refer to. */
  private Set<Long> snapshotsOf(Set<Long> group, Set<Long> operationIds) {
    Set<Long> snapshots = new HashSet<>();
    dsl.select(FILE_CHANGE.BEFORE_SNAPSHOT_ID, FILE_CHANGE.AFTER_SNAPSHOT_ID)
        .from(FILE_CHANGE)
        .where(FILE_CHANGE.TURN_ID.in(group))
        .forEach(
            row -> {
              snapshots.add(row.value1());
              if (row.value2() != null) {
                snapshots.add(row.value2());
              }
            });
    dsl.select(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID)
        .from(FILE_CHANGE_TOOL_CALL)
        .join(FILE_CHANGE)
        .on(FILE_CHANGE.ID.eq(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID))
        .where(
            FILE_CHANGE.TURN_ID.in(group).and(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID.isNotNull()))
        .forEach(row -> snapshots.add(row.value1()));
    dsl.select(REWIND_ENTRY.TARGET_SNAPSHOT_ID, REWIND_ENTRY.EXPECTED_SNAPSHOT_ID)
        .from(REWIND_ENTRY)
        .where(REWIND_ENTRY.OPERATION_ID.in(operationIds))
        .forEach(
            row -> {
              snapshots.add(row.value1());
              if (row.value2() != null) {
                snapshots.add(row.value2());
              }
            });
    return snapshots;
  }

  /**
   * The blobs the rows about to go refer to: the snapshots' contents, the changes' diffs and the
   * rewinds' merged contents.
   */
  private Set<String> blobsOf(Set<Long> group, Set<Long> operationIds, Set<Long> snapshots) {
    Set<String> blobs = new HashSet<>();
    dsl.select(SNAPSHOT.CONTENT_SHA256)
        .from(SNAPSHOT)
        .where(SNAPSHOT.ID.in(snapshots).and(SNAPSHOT.CONTENT_SHA256.isNotNull()))
        .forEach(row -> blobs.add(row.value1()));
    dsl.select(FILE_CHANGE.DIFF_SHA256)
        .from(FILE_CHANGE)
        .where(FILE_CHANGE.TURN_ID.in(group).and(FILE_CHANGE.DIFF_SHA256.isNotNull()))
        .forEach(row -> blobs.add(row.value1()));
    dsl.select(REWIND_ENTRY.MERGED_SHA256)
        .from(REWIND_ENTRY)
        .where(
            REWIND_ENTRY.OPERATION_ID.in(operationIds).and(REWIND_ENTRY.MERGED_SHA256.isNotNull()))
        .forEach(row -> blobs.add(row.value1()));
    return blobs;
  }

  private void deleteRewinds(Set<Long> operationIds) {
    dsl.deleteFrom(REWIND_ENTRY).where(REWIND_ENTRY.OPERATION_ID.in(operationIds)).execute();
    dsl.deleteFrom(REWIND_DIRECTORY)
        .where(REWIND_DIRECTORY.OPERATION_ID.in(operationIds))
        .execute();
    dsl.deleteFrom(REWIND_OPERATION_TURN)
        .where(REWIND_OPERATION_TURN.OPERATION_ID.in(operationIds))
        .execute();
    dsl.deleteFrom(REWIND_OPERATION).where(REWIND_OPERATION.ID.in(operationIds)).execute();
  }

  /**
   * The turns and every row that is theirs: tool calls, changes and their links, directories,
   * prompts.
   */
  private void deleteTurns(Set<Long> group) {
    dsl.deleteFrom(FILE_CHANGE_SHARED)
        .where(
            FILE_CHANGE_SHARED
                .FILE_CHANGE_ID
                .in(
                    dsl.select(FILE_CHANGE.ID)
                        .from(FILE_CHANGE)
                        .where(FILE_CHANGE.TURN_ID.in(group)))
                .or(FILE_CHANGE_SHARED.TURN_ID.in(group)))
        .execute();
    dsl.deleteFrom(FILE_CHANGE_TOOL_CALL)
        .where(
            FILE_CHANGE_TOOL_CALL
                .FILE_CHANGE_ID
                .in(
                    dsl.select(FILE_CHANGE.ID)
                        .from(FILE_CHANGE)
                        .where(FILE_CHANGE.TURN_ID.in(group)))
                .or(
                    FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID.in(
                        dsl.select(TOOL_CALL.ID)
                            .from(TOOL_CALL)
                            .where(TOOL_CALL.TURN_ID.in(group)))))
        .execute();
    dsl.deleteFrom(FILE_CHANGE).where(FILE_CHANGE.TURN_ID.in(group)).execute();
    dsl.deleteFrom(TOOL_CALL).where(TOOL_CALL.TURN_ID.in(group)).execute();
    dsl.deleteFrom(DIRECTORY_CHANGE).where(DIRECTORY_CHANGE.TURN_ID.in(group)).execute();
    dsl.deleteFrom(TURN_PROMPT).where(TURN_PROMPT.TURN_ID.in(group)).execute();
    dsl.deleteFrom(TURN).where(TURN.ID.in(group)).execute();
  }

  /**
   * A snapshot is no one's but the rows that refer to it: it goes with the last of them (another
   * turn's change or rewind may still refer to one of these).
   */
  private void deleteSnapshotsNoOneRefersTo(Set<Long> snapshots) {
    dsl.deleteFrom(SNAPSHOT)
        .where(SNAPSHOT.ID.in(snapshots))
        .andNotExists(
            dsl.selectOne()
                .from(FILE_CHANGE)
                .where(
                    FILE_CHANGE
                        .BEFORE_SNAPSHOT_ID
                        .eq(SNAPSHOT.ID)
                        .or(FILE_CHANGE.AFTER_SNAPSHOT_ID.eq(SNAPSHOT.ID))))
        .andNotExists(
            dsl.selectOne()
                .from(FILE_CHANGE_TOOL_CALL)
                .where(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID.eq(SNAPSHOT.ID)))
        .andNotExists(
            dsl.selectOne()
                .from(REWIND_ENTRY)
                .where(
                    REWIND_ENTRY
                        .TARGET_SNAPSHOT_ID
                        .eq(SNAPSHOT.ID)
                        .or(REWIND_ENTRY.EXPECTED_SNAPSHOT_ID.eq(SNAPSHOT.ID))))
        .execute();
  }

  /** The turns a group's removal took, and the blobs their rows referred to. */
  public record Removal(List<RemovedTurn> turns, Set<String> blobs) {}

  /**
   * Removes those of {@code shas} that no row refers to, that no delta is stored against, and that
   * were stored or looked up before {@code storedBefore} (epoch ms), with their chunks: the blobs a
   * removal let go, without a pass over every blob.
   */
  public BlobBatch removeUnreferencedBlobsAmong(Collection<String> shas, long storedBefore) {
    return removeBlobs(
        dsl.select(BLOB.SHA256, storedBytes().as("bytes"), BLOB.BASE_SHA256)
            .from(BLOB)
            .where(
                BLOB.SHA256
                    .in(shas)
                    .and(BLOB.STORED_AT.lt(storedBefore))
                    .and(unreferenced(BLOB.SHA256)))
            .orderBy(BLOB.SHA256)
            .fetch());
  }

  /** The bytes of the pages that hold something, as this transaction sees them. */
  public long bytesInUse() {
    if (dsl.dialect() == SQLDialect.POSTGRES) {
      return dsl.select(
              DSL.function(
                  "pg_database_size", Long.class, DSL.function("current_database", String.class)))
          .fetchSingle()
          .value1();
    }
    // SQLite's own pragmas: jOOQ has no DSL for them
    long pages = ((Number) dsl.fetchValue("PRAGMA page_count")).longValue();
    return (pages - freePages()) * ((Number) dsl.fetchValue("PRAGMA page_size")).longValue();
  }

  /**
   * Gives at most {@code pages} free pages back to the file system (the file shrinks when this
   * transaction's pages reach it at the next checkpoint); returns how many are still free.
   */
  public long givePagesBack(int pages) {
    // SQLite's own pragma: each step of incremental_vacuum frees one page and yields an empty row,
    // so it is asked for one page at a time, as many times as wanted
    for (int i = 0; i < pages && freePages() > 0; i++) {
      dsl.execute("PRAGMA incremental_vacuum(1)");
    }
    return freePages();
  }

  private long freePages() {
    return ((Number) dsl.fetchValue("PRAGMA freelist_count")).longValue();
  }

  /**
   * No row refers to the blob (its {@code sha256} column is {@code sha}), and no delta is stored
   * against it: a base goes only once the last delta on it has gone (the foreign key {@code
   * base_sha256} refuses it before).
   */
  private Condition unreferenced(Field<String> sha) {
    Blob delta = BLOB.as("delta");
    return DSL.notExists(dsl.selectOne().from(delta).where(delta.BASE_SHA256.eq(sha)))
        .and(
            DSL.notExists(dsl.selectOne().from(SNAPSHOT).where(SNAPSHOT.CONTENT_SHA256.eq(sha)))
                .and(
                    DSL.notExists(
                        dsl.selectOne().from(FILE_CHANGE).where(FILE_CHANGE.DIFF_SHA256.eq(sha))))
                .and(
                    DSL.notExists(
                        dsl.selectOne()
                            .from(INDEX_ENTRY)
                            .where(INDEX_ENTRY.CONTENT_SHA256.eq(sha))))
                .and(
                    DSL.notExists(
                        dsl.selectOne()
                            .from(REWIND_ENTRY)
                            .where(REWIND_ENTRY.MERGED_SHA256.eq(sha)))));
  }

  /**
   * {@code sha} and the bases its content is decoded from, down to a whole blob ({@code baseOf}:
   * each delta's base).
   */
  private static List<String> withBases(String sha, Map<String, String> baseOf) {
    List<String> chain = new ArrayList<>(List.of(sha));
    for (String base = baseOf.get(sha);
        base != null && !chain.contains(base);
        base = baseOf.get(base)) {
      chain.add(base);
    }
    return chain;
  }

  /** Stored bytes of a blob row: its data, plus its chunks' when it is stored in chunks. */
  private Field<Long> storedBytes() {
    return DSL.field("length({0})", Long.class, BLOB.DATA)
        .plus(
            DSL.coalesce(
                dsl.select(DSL.sum(DSL.field("length({0})", Long.class, CONTENT_CHUNK.DATA)))
                    .from(CHUNKED_CONTENT)
                    .join(CONTENT_CHUNK)
                    .on(CONTENT_CHUNK.CONTENT_ID.eq(CHUNKED_CONTENT.ID))
                    .where(CHUNKED_CONTENT.SHA256.eq(BLOB.SHA256))
                    .asField()
                    .cast(Long.class),
                DSL.inline(0L)));
  }

  /**
   * Blobs removed by one step of a collection, their stored bytes, the last key it looked at (the
   * next step goes on after it), and the bases of the deltas it removed that are still stored: each
   * may have lost the last delta that kept it.
   */
  public record BlobBatch(long blobs, long bytes, Optional<String> last, Set<String> bases) {}

  /**
   * Removes, among the blobs keyed after {@code after} in key order, the next {@code limit} that no
   * row refers to and that were stored or looked up before {@code storedBefore} (epoch ms), with
   * their chunks. Going on from the last key keeps a whole collection one pass over the blobs.
   */
  public BlobBatch removeUnreferencedBlobs(long storedBefore, String after, int limit) {
    Field<Long> bytes = storedBytes().as("bytes");
    var batch =
        dsl.select(BLOB.SHA256, bytes, BLOB.BASE_SHA256)
            .from(BLOB)
            .where(
                BLOB.SHA256
                    .gt(after)
                    .and(BLOB.STORED_AT.lt(storedBefore))
                    .and(unreferenced(BLOB.SHA256)))
            .orderBy(BLOB.SHA256)
            .limit(limit)
            .fetch();
    return removeBlobs(batch);
  }

  private BlobBatch removeBlobs(Result<Record3<String, Long, String>> batch) {
    if (batch.isEmpty()) {
      return new BlobBatch(0, 0, Optional.empty(), Set.of());
    }
    List<String> shas = batch.map(row -> row.value1());
    long freed = batch.stream().mapToLong(row -> row.value2()).sum();
    Set<String> bases = new HashSet<>();
    batch.forEach(
        row -> {
          if (row.value3() != null) {
            bases.add(row.value3());
          }
        });
    shas.forEach(bases::remove);
    var chunked =
        dsl.select(CHUNKED_CONTENT.ID).from(CHUNKED_CONTENT).where(CHUNKED_CONTENT.SHA256.in(shas));
    dsl.deleteFrom(CONTENT_CHUNK).where(CONTENT_CHUNK.CONTENT_ID.in(chunked)).execute();
    dsl.deleteFrom(CHUNKED_CONTENT).where(CHUNKED_CONTENT.SHA256.in(shas)).execute();
    dsl.deleteFrom(BLOB).where(BLOB.SHA256.in(shas)).execute();
    return new BlobBatch(shas.size(), freed, Optional.of(shas.getLast()), bases);
  }

  /**
   * The footprint of the blobs and of each workspace's sessions (only the workspace whose real or
   * given root is {@code root}, when given). File sizes are left at 0 for {@link
   * StoreUsage#measure} to fill.
   */
  StoreUsage usage(Optional<String> root) {
    StoredBlobs blobs = storedBlobs();
    Map<String, Set<Long>> sessionsOf = sessionsOfEachBlob(blobs);
    Set<String> indexed = blobsTheIndexHolds(blobs);
    Set<String> elsewhere = new HashSet<>(indexed);
    elsewhere.addAll(blobsRewindsMerged(blobs));
    // snapshots only a rewind entry refers to still hold their content (not shared: the rewind is
    // the session's own)
    Set<String> held = new HashSet<>(elsewhere);
    held.addAll(blobsOfRewindSnapshots(blobs));
    long unreferenced =
        blobs.bytesOf(
            blobs.stored().keySet().stream()
                .filter(sha -> !sessionsOf.containsKey(sha) && !held.contains(sha))
                .toList());
    List<WorkspaceDictionary> dictionaries = workspaceDictionaries();
    return new StoreUsage(
        0,
        0,
        blobs.stored().size(),
        blobs.bytesOf(blobs.stored().keySet()),
        unreferenced,
        blobs.bytesOf(indexed),
        dictionaries.stream().mapToLong(WorkspaceDictionary::bytes).sum(),
        workspaceUsage(
            root,
            blobs,
            sessionsOf,
            elsewhere,
            WorkspaceDictionary.bytesByRoot(dictionaries, root)));
  }

  /**
   * One workspace's compression dictionary: its size, and the roots the workspace is named by.
   *
   * @param rootGiven the root as given, by which {@link #workspaceUsage} groups its figures
   */
  private record WorkspaceDictionary(String rootGiven, String rootReal, long bytes) {

    /**
     * The bytes of the dictionaries of the workspaces {@code root} names (of every one when none is
     * given, as {@link #workspacesNamed} selects them), by the root as given.
     */
    static Map<String, Long> bytesByRoot(
        List<WorkspaceDictionary> dictionaries, Optional<String> root) {
      Map<String, Long> bytes = new HashMap<>();
      dictionaries.stream()
          .filter(
              each ->
                  root.isEmpty()
                      || root.get().equals(each.rootReal())
                      || root.get().equals(each.rootGiven()))
          .forEach(each -> bytes.merge(each.rootGiven(), each.bytes(), Long::sum));
      return bytes;
    }
  }

  /** Every workspace's compression dictionary, in one query: the store's total and each's own. */
  private List<WorkspaceDictionary> workspaceDictionaries() {
    return dsl.select(
            WORKSPACE.ROOT_GIVEN,
            WORKSPACE.ROOT_REAL,
            DSL.field("length({0})", Long.class, CONTENT_DICTIONARY.DATA))
        .from(CONTENT_DICTIONARY)
        .join(WORKSPACE)
        .on(WORKSPACE.ID.eq(CONTENT_DICTIONARY.WORKSPACE_ID))
        .fetch(row -> new WorkspaceDictionary(row.value1(), row.value2(), row.value3()));
  }

  /** The workspaces whose real or given root is {@code root}; every one when none is given. */
  private static Condition workspacesNamed(Optional<String> root) {
    return root.map(given -> WORKSPACE.ROOT_REAL.eq(given).or(WORKSPACE.ROOT_GIVEN.eq(given)))
        .orElse(DSL.trueCondition());
  }

  /**
   * Every blob's stored bytes, and each delta's base.
   *
   * @param stored each blob's stored bytes, by its SHA-256
   * @param baseOf each delta's base, by the delta's SHA-256
   */
  private record StoredBlobs(Map<String, Long> stored, Map<String, String> baseOf) {

    long bytesOf(Collection<String> shas) {
      return shas.stream().mapToLong(sha -> stored.getOrDefault(sha, 0L)).sum();
    }

    List<String> withBases(String sha) {
      return Retention.withBases(sha, baseOf);
    }
  }

  private StoredBlobs storedBlobs() {
    Map<String, Long> stored = new HashMap<>();
    Map<String, String> baseOf = new HashMap<>();
    dsl.select(BLOB.SHA256, storedBytes(), BLOB.BASE_SHA256)
        .from(BLOB)
        .forEach(
            row -> {
              stored.put(row.value1(), row.value2());
              if (row.value3() != null) {
                baseOf.put(row.value1(), row.value3());
              }
            });
    return new StoredBlobs(stored, baseOf);
  }

  /**
   * Which sessions need each blob: those whose snapshots and diffs refer to it, or to a delta
   * stored against it (a base goes only with its last delta).
   */
  private Map<String, Set<Long>> sessionsOfEachBlob(StoredBlobs blobs) {
    Map<String, Set<Long>> sessionsOf = new HashMap<>();
    var content =
        dsl.select(TURN.SESSION_ID, SNAPSHOT.CONTENT_SHA256)
            .from(FILE_CHANGE)
            .join(TURN)
            .on(TURN.ID.eq(FILE_CHANGE.TURN_ID))
            .join(SNAPSHOT)
            .on(
                SNAPSHOT
                    .ID
                    .eq(FILE_CHANGE.BEFORE_SNAPSHOT_ID)
                    .or(SNAPSHOT.ID.eq(FILE_CHANGE.AFTER_SNAPSHOT_ID)))
            .where(SNAPSHOT.CONTENT_SHA256.isNotNull())
            .union(
                dsl.select(TURN.SESSION_ID, SNAPSHOT.CONTENT_SHA256)
                    .from(FILE_CHANGE_TOOL_CALL)
                    .join(FILE_CHANGE)
                    .on(FILE_CHANGE.ID.eq(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID))
                    .join(TURN)
                    .on(TURN.ID.eq(FILE_CHANGE.TURN_ID))
                    .join(SNAPSHOT)
                    .on(SNAPSHOT.ID.eq(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID))
                    .where(SNAPSHOT.CONTENT_SHA256.isNotNull()))
            .union(
                dsl.select(TURN.SESSION_ID, FILE_CHANGE.DIFF_SHA256)
                    .from(FILE_CHANGE)
                    .join(TURN)
                    .on(TURN.ID.eq(FILE_CHANGE.TURN_ID))
                    .where(FILE_CHANGE.DIFF_SHA256.isNotNull()));
    content.forEach(
        row ->
            blobs
                .withBases(row.value2())
                .forEach(
                    sha ->
                        sessionsOf.computeIfAbsent(sha, s -> new HashSet<>()).add(row.value1())));
    return sessionsOf;
  }

  /** The blobs the git index entries hold, with their bases. */
  private Set<String> blobsTheIndexHolds(StoredBlobs blobs) {
    Set<String> indexed = new HashSet<>();
    dsl.selectDistinct(INDEX_ENTRY.CONTENT_SHA256)
        .from(INDEX_ENTRY)
        .where(INDEX_ENTRY.CONTENT_SHA256.isNotNull())
        .forEach(row -> indexed.addAll(blobs.withBases(row.value1())));
    return indexed;
  }

  /** The blobs rewinds merged into, with their bases. */
  private Set<String> blobsRewindsMerged(StoredBlobs blobs) {
    Set<String> merged = new HashSet<>();
    dsl.selectDistinct(REWIND_ENTRY.MERGED_SHA256)
        .from(REWIND_ENTRY)
        .where(REWIND_ENTRY.MERGED_SHA256.isNotNull())
        .forEach(row -> merged.addAll(blobs.withBases(row.value1())));
    return merged;
  }

  /** The content of the snapshots rewind entries expect or put back, with their bases. */
  private Set<String> blobsOfRewindSnapshots(StoredBlobs blobs) {
    Set<String> held = new HashSet<>();
    dsl.select(SNAPSHOT.CONTENT_SHA256)
        .from(REWIND_ENTRY)
        .join(SNAPSHOT)
        .on(
            SNAPSHOT
                .ID
                .eq(REWIND_ENTRY.TARGET_SNAPSHOT_ID)
                .or(SNAPSHOT.ID.eq(REWIND_ENTRY.EXPECTED_SNAPSHOT_ID)))
        .where(SNAPSHOT.CONTENT_SHA256.isNotNull())
        .forEach(row -> held.addAll(blobs.withBases(row.value1())));
    return held;
  }

  /**
   * Each workspace's sessions (the one {@code root} names, when given) with their turns, records
   * and blobs: a blob is shared when another session or the index or a rewind ({@code elsewhere})
   * needs it too.
   */
  private List<StoreUsage.WorkspaceUsage> workspaceUsage(
      Optional<String> root,
      StoredBlobs blobs,
      Map<String, Set<Long>> sessionsOf,
      Set<String> elsewhere,
      Map<String, Long> dictionaries) {
    Map<Long, Set<String>> blobsOf = new HashMap<>();
    sessionsOf.forEach(
        (sha, sessions) ->
            sessions.forEach(
                session -> blobsOf.computeIfAbsent(session, s -> new HashSet<>()).add(sha)));
    var open = DSL.count(TURN.ID).filterWhere(TURN.STATE.eq(TurnState.OPEN.code()));
    var turns = DSL.countDistinct(TURN.ID);
    var records =
        dsl.select(DSL.count())
            .from(FILE_CHANGE)
            .join(TURN)
            .on(TURN.ID.eq(FILE_CHANGE.TURN_ID))
            .where(TURN.SESSION_ID.eq(SESSION.ID))
            .asField()
            .cast(Long.class);
    Condition workspace = workspacesNamed(root);
    Map<String, List<StoreUsage.SessionUsage>> byWorkspace = new LinkedHashMap<>();
    dsl.select(WORKSPACE.ROOT_GIVEN, SESSION.ID, SESSION.EXTERNAL_ID, turns, open, records)
        .from(SESSION)
        .join(WORKSPACE)
        .on(WORKSPACE.ID.eq(SESSION.WORKSPACE_ID))
        .leftJoin(TURN)
        .on(TURN.SESSION_ID.eq(SESSION.ID))
        .where(workspace)
        .groupBy(WORKSPACE.ROOT_GIVEN, SESSION.ID, SESSION.EXTERNAL_ID)
        .orderBy(WORKSPACE.ROOT_GIVEN, SESSION.ID)
        .forEach(
            row -> {
              Set<String> shas = blobsOf.getOrDefault(row.value2(), Set.of());
              byWorkspace
                  .computeIfAbsent(row.value1(), given -> new ArrayList<>())
                  .add(
                      new StoreUsage.SessionUsage(
                          row.value3(),
                          row.value4(),
                          row.value5(),
                          row.value6() == null ? 0 : row.value6(),
                          shas.size(),
                          blobs.bytesOf(shas),
                          blobs.bytesOf(
                              shas.stream()
                                  .filter(
                                      sha ->
                                          sessionsOf.get(sha).size() > 1 || elsewhere.contains(sha))
                                  .toList())));
            });
    List<StoreUsage.WorkspaceUsage> workspaces = new ArrayList<>();
    byWorkspace.forEach(
        (given, sessions) ->
            workspaces.add(
                new StoreUsage.WorkspaceUsage(
                    given, dictionaries.getOrDefault(given, 0L), sessions)));
    return workspaces;
  }
}
