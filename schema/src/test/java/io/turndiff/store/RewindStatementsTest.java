package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The statements of a rewind's journal, prepared once per connection ({@link RewindOperations},
 * {@link RewindDirectories}): each answers for the values bound at each run, on the writer and on a
 * read connection, and the statements prepared for a list of ids a power of two long, the rest of
 * the list the first id again, change the entries named and no other, at counts that are not a
 * power of two (3, 5, 65: a full list of 64 and one of one). What they wrote is read back in a
 * store opened again. Both dialects.
 */
class RewindStatementsTest {

  @TempDir Path temp;

  private static final Instant TAKEN_AT = Instant.ofEpochMilli(1_700_000_000_123L);

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void operationsReadBackWithTheirTurnsAndPaths(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    try (Store store = Store.open(address)) {
      Map<String, Long> turns = new HashMap<>();
      long[] workspaceAndSession = new long[2];
      store.write(
          tx -> {
            StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
            StoredSession session = tx.sessions().create("s", workspace.id());
            workspaceAndSession[0] = workspace.id();
            workspaceAndSession[1] = session.id();
            for (String turn : List.of("t1", "t2", "r1", "r2", "r3")) {
              turns.put(turn, tx.turns().begin(turn, session, TurnKind.AGENT).id());
            }
            return null;
          });
      long workspace = workspaceAndSession[0];
      long session = workspaceAndSession[1];
      // three operations, each kept out of one look-up by one thing of its own: some paths only,
      // the whole of a turn, the changes from a tool call on
      StoredRewindOperation ofPaths =
          create(
              store,
              new StoredRewindOperation(
                  0,
                  "of-paths",
                  session,
                  "t1",
                  "turn",
                  true,
                  false,
                  turns.get("r1"),
                  "r1",
                  List.of("t1"),
                  List.of(WorkspacePath.of("b/x"), WorkspacePath.of("a/y")),
                  Optional.empty(),
                  Optional.empty()),
              turns);
      StoredRewindOperation whole =
          create(
              store,
              new StoredRewindOperation(
                  0,
                  "whole",
                  session,
                  "t2",
                  "turn",
                  false,
                  false,
                  turns.get("r2"),
                  "r2",
                  List.of("t2"),
                  List.of(),
                  Optional.empty(),
                  Optional.empty()),
              turns);
      StoredRewindOperation toCall =
          create(
              store,
              new StoredRewindOperation(
                  0,
                  "to-call",
                  session,
                  "t1",
                  "to",
                  false,
                  false,
                  turns.get("r3"),
                  "r3",
                  List.of("t1", "t2"),
                  List.of(),
                  Optional.of("call-7"),
                  Optional.of(2)),
              turns);
      assertEquals(
          List.of(WorkspacePath.of("a/y"), WorkspacePath.of("b/x")),
          ofPaths.paths(),
          "the paths in path order");
      assertEquals(List.of("t2", "t1"), toCall.turns(), "the turns newest first");

      for (ConnectionUnderTest on : ConnectionUnderTest.writerThenReader(store)) {
        assertEquals(
            List.of(
                Optional.of(whole), Optional.of(toCall), Optional.of(ofPaths), Optional.empty()),
            on.apply(
                tx ->
                    List.of("whole", "to-call", "of-paths", "unknown").stream()
                        .map(id -> tx.rewinds().byExternalId(id))
                        .toList()),
            on.name() + ": each by its id, every column read back, none for an id never used");
        assertEquals(
            List.of(ofPaths, whole, toCall),
            on.apply(tx -> tx.rewinds().applyingIn(session)),
            on.name() + ": all applying, oldest first");
        assertEquals(
            List.of(turns.get("r1"), turns.get("r2")),
            on.apply(
                tx ->
                    List.copyOf(
                        tx.rewinds()
                            .recordedBy(List.of(turns.get("r2"), turns.get("r1"), turns.get("t1")))
                            .keySet())),
            on.name()
                + ": each rewind turn's operation, oldest first; none for a turn that rewound"
                + " nothing");
        assertEquals(
            List.of(Optional.of(whole), Optional.empty()),
            on.apply(
                tx ->
                    List.of(turns.get("t2"), turns.get("t1")).stream()
                        .map(turn -> tx.rewinds().thatRewound(turn))
                        .toList()),
            on.name() + ": t2 rewound whole by one; t1 only through some paths, or from a call on");
      }

      store.write(
          tx -> {
            tx.rewinds().setRunner(whole.id(), "100:5");
            tx.rewinds().setRunner(ofPaths.id(), "200:6");
            tx.rewinds().clearRunner(ofPaths.id(), "someone else");
            tx.rewinds().clearRunner(whole.id(), "100:5");
            tx.rewinds().runningInBoot(whole.id(), Optional.of("boot-a"));
            tx.rewinds().runningInBoot(ofPaths.id(), Optional.empty());
            tx.rewinds().markDone(whole.id());
            tx.rewinds().markDone(ofPaths.id());
            return null;
          });
      for (ConnectionUnderTest on : ConnectionUnderTest.writerThenReader(store)) {
        assertEquals(
            List.of(
                Optional.empty(), Optional.of("200:6"), Optional.of("boot-a"), Optional.empty()),
            on.apply(
                tx ->
                    List.of(
                        tx.rewinds().runner(whole.id()),
                        tx.rewinds().runner(ofPaths.id()),
                        tx.rewinds().bootId(whole.id()),
                        tx.rewinds().bootId(ofPaths.id()))),
            on.name() + ": a runner cleared only by itself; each operation's boot");
        assertEquals(
            List.of(toCall),
            on.apply(tx -> tx.rewinds().applyingIn(session)),
            on.name() + ": those done are no longer applying");
        assertEquals(
            List.of(ofPaths.id(), whole.id()),
            operationIds(on.apply(tx -> tx.rewinds().doneUnsyncedIn(workspace))),
            on.name() + ": done, not synced");
        assertEquals(
            List.of(List.of(ofPaths.id()), List.of()),
            on.apply(
                tx ->
                    List.of(
                        operationIds(tx.rewinds().pathRewindsDoneOf(turns.get("t1"))),
                        operationIds(tx.rewinds().pathRewindsDoneOf(turns.get("t2"))))),
            on.name() + ": t1's rewind of some paths, done; t2 rewound whole, not by paths");
      }
      store.write(
          tx -> {
            tx.rewinds().markSynced(whole.id());
            return null;
          });
      assertEquals(
          List.of(ofPaths.id()),
          operationIds(store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace))));
    }

    try (Store store = Store.open(address)) {
      StoredRewindOperation whole =
          store.read(tx -> tx.rewinds().byExternalId("whole")).orElseThrow();
      assertTrue(whole.done(), "done, read in a store opened again");
      assertEquals(List.of("t2"), whole.turns());
    }
  }

  /**
   * Creates the operation {@code wanted} describes (its turns and rewind turn by their external ids
   * in {@code turns}), checks that what {@code create} returns is it, and returns that.
   */
  private static StoredRewindOperation create(
      Store store, StoredRewindOperation wanted, Map<String, Long> turns) {
    StoredRewindOperation created =
        store.write(
            tx ->
                tx.rewinds()
                    .create(
                        wanted.externalId(),
                        wanted.sessionId(),
                        turns.get(wanted.targetTurn()),
                        wanted.scope(),
                        wanted.force(),
                        wanted.rewindTurnId(),
                        wanted.turns().stream().map(turns::get).toList(),
                        wanted.paths(),
                        wanted.beforeToolCall(),
                        wanted.hunk()));
    List<WorkspacePath> sorted = wanted.paths().stream().sorted().toList();
    List<String> newestFirst = wanted.turns().reversed();
    assertEquals(
        new StoredRewindOperation(
            created.id(),
            wanted.externalId(),
            wanted.sessionId(),
            wanted.targetTurn(),
            wanted.scope(),
            wanted.force(),
            false,
            wanted.rewindTurnId(),
            wanted.rewindTurn(),
            newestFirst,
            sorted,
            wanted.beforeToolCall(),
            wanted.hunk()),
        created,
        "every column of " + wanted.externalId());
    return created;
  }

  @SuppressWarnings("unchecked")
  private static List<Long> operationIds(Object operations) {
    return ((List<StoredRewindOperation>) operations)
        .stream().map(StoredRewindOperation::id).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void entriesMarkedInListsOfEveryLengthChangeThoseNamedOnly(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    int count = 140;
    try (Store store = Store.open(address)) {
      long operation = operationWithEntries(store, count);
      List<Long> ids = store.read(tx -> entryIds(tx.rewinds().entries(operation)));
      assertEquals(count, ids.size());

      // three marks in one call, of 3, 5 and 67 entries: lists of 4, 8, then 64 and 4; then a
      // second call of 6 (a list of 8 again: the statement of the 5 run again with other values)
      Map<Long, RewindOperations.Mark> marks = new LinkedHashMap<>();
      RewindOperations.Mark restored =
          new RewindOperations.Mark(
              RewindStatus.RESTORED, Optional.empty(), Optional.empty(), Optional.empty());
      RewindOperations.Mark skipped =
          new RewindOperations.Mark(
              RewindStatus.SKIPPED,
              Optional.of("changed-since"),
              Optional.of("edited after the turn"),
              Optional.empty());
      RewindOperations.Mark merged =
          new RewindOperations.Mark(
              RewindStatus.MERGED,
              Optional.empty(),
              Optional.empty(),
              Optional.of(Sha256.of(new byte[] {1})));
      List.of(7, 9, 11).forEach(i -> marks.put(ids.get(i), restored));
      List.of(20, 30, 40, 50, 60).forEach(i -> marks.put(ids.get(i), skipped));
      IntStream.range(70, 137).forEach(i -> marks.put(ids.get(i), merged));
      Map<Long, String> names = new LinkedHashMap<>();
      List.of(3, 5, 8, 13, 21).forEach(i -> names.put(ids.get(i), "stage-" + i));
      store.write(
          tx -> {
            tx.blobs().put(new byte[] {1}); // the merged content the marks name
            tx.rewinds().mark(marks);
            tx.rewinds().journalTemporaryNames(names);
            return null;
          });
      RewindOperations.Mark started =
          new RewindOperations.Mark(
              RewindStatus.STARTED, Optional.empty(), Optional.empty(), Optional.empty());
      Map<Long, RewindOperations.Mark> later = new LinkedHashMap<>();
      List.of(0, 1, 2, 137, 138, 139).forEach(i -> later.put(ids.get(i), started));
      Map<Long, String> laterNames = new LinkedHashMap<>();
      IntStream.range(100, 106).forEach(i -> laterNames.put(ids.get(i), "stage-" + i));
      store.write(
          tx -> {
            tx.rewinds().mark(later);
            tx.rewinds().journalTemporaryNames(laterNames);
            return null;
          });
      marks.putAll(later);
      names.putAll(laterNames);

      for (ConnectionUnderTest on : ConnectionUnderTest.writerThenReader(store)) {
        @SuppressWarnings("unchecked")
        List<StoredRewindEntry> entries =
            (List<StoredRewindEntry>) on.apply(tx -> tx.rewinds().entries(operation));
        for (int i = 0; i < count; i++) {
          StoredRewindEntry entry = entries.get(i);
          RewindOperations.Mark expected =
              marks.getOrDefault(
                  entry.id(),
                  new RewindOperations.Mark(
                      RewindStatus.PLANNED, Optional.empty(), Optional.empty(), Optional.empty()));
          assertEquals(
              expected,
              new RewindOperations.Mark(
                  entry.status(), entry.reason(), entry.detail(), entry.merged()),
              on.name() + ": entry " + i + " as marked, or as planned when not named");
          assertEquals(
              Optional.ofNullable(names.get(entry.id())),
              entry.temporaryName(),
              on.name() + ": entry " + i + "'s temporary name, its own or none");
          assertEquals(WorkspacePath.of("f/" + i), entry.path());
        }
        assertEquals(
            List.of(true, true),
            on.apply(
                tx ->
                    List.of(
                        tx.rewinds().putAnythingBack(operation),
                        !tx.rewinds().complete(operation))),
            on.name() + ": restored some, skipped some");
      }
    }
    try (Store store = Store.open(address)) {
      long operation = store.read(tx -> tx.rewinds().byExternalId("op")).orElseThrow().id();
      assertEquals(
          List.of(
              RewindStatus.PLANNED,
              RewindStatus.RESTORED,
              RewindStatus.SKIPPED,
              RewindStatus.STARTED),
          store.read(
              tx -> {
                List<StoredRewindEntry> entries = tx.rewinds().entries(operation);
                return List.of(
                    entries.get(3).status(),
                    entries.get(7).status(),
                    entries.get(20).status(),
                    entries.get(0).status());
              }),
          "the marks, read in a store opened again");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void directoriesPlannedOnceMarkedAndReadInPathOrder(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    try (Store store = Store.open(address)) {
      long operation = operationWithEntries(store, 1);
      assertEquals(false, store.read(tx -> tx.rewinds().putAnythingBack(operation)));
      long[] rows = new long[3];
      store.write(
          tx -> {
            RewindDirectories directories = tx.rewindDirectories();
            rows[0] =
                directories.plan(
                    operation,
                    WorkspacePath.of("b"),
                    StoredRewindDirectory.Action.CREATE,
                    OptionalInt.of(0750));
            rows[1] =
                directories.plan(
                    operation,
                    WorkspacePath.of("a"),
                    StoredRewindDirectory.Action.REMOVE,
                    OptionalInt.empty());
            rows[2] =
                directories.plan(
                    operation,
                    WorkspacePath.of("b"),
                    StoredRewindDirectory.Action.REMOVE,
                    OptionalInt.empty());
            directories.mark(
                rows[1],
                StoredRewindDirectory.Status.SKIPPED,
                Optional.of("not-empty"),
                Optional.of("holds c"));
            directories.mark(
                rows[0], StoredRewindDirectory.Status.DONE, Optional.empty(), Optional.empty());
            return null;
          });
      assertEquals(rows[0], rows[2], "a directory planned again keeps its row and its plan");
      for (ConnectionUnderTest on : ConnectionUnderTest.writerThenReader(store)) {
        assertEquals(
            List.of(
                new StoredRewindDirectory(
                    rows[1],
                    WorkspacePath.of("a"),
                    StoredRewindDirectory.Action.REMOVE,
                    OptionalInt.empty(),
                    StoredRewindDirectory.Status.SKIPPED,
                    Optional.of("not-empty"),
                    Optional.of("holds c")),
                new StoredRewindDirectory(
                    rows[0],
                    WorkspacePath.of("b"),
                    StoredRewindDirectory.Action.CREATE,
                    OptionalInt.of(0750),
                    StoredRewindDirectory.Status.DONE,
                    Optional.empty(),
                    Optional.empty())),
            on.apply(tx -> tx.rewindDirectories().of(operation)),
            on.name() + ": both, by path");
        assertEquals(
            List.of(true, false),
            on.apply(
                tx ->
                    List.of(
                        tx.rewinds().putAnythingBack(operation), tx.rewinds().complete(operation))),
            on.name() + ": a directory made is something put back; one skipped leaves it short");
      }
    }
  }

  /** An operation {@code op} with {@code count} planned entries, for paths {@code f/0} on. */
  private static long operationWithEntries(Store store, int count) {
    return store.write(
        tx -> {
          StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
          StoredSession session = tx.sessions().create("s", workspace.id());
          long turn = tx.turns().begin("t", session, TurnKind.AGENT).id();
          long rewindTurn = tx.turns().begin("r", session, TurnKind.AGENT).id();
          long operation =
              tx.rewinds()
                  .create(
                      "op",
                      session.id(),
                      turn,
                      "turn",
                      false,
                      rewindTurn,
                      List.of(turn),
                      List.of(),
                      Optional.empty(),
                      Optional.empty())
                  .id();
          List<RewindOperations.NewEntry> entries = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            WorkspacePath path = WorkspacePath.of("f/" + i);
            long target =
                tx.snapshots().insert(Snapshot.absent(path, BoundaryKind.OPENAT2, TAKEN_AT));
            entries.add(
                new RewindOperations.NewEntry(
                    path,
                    target,
                    Optional.empty(),
                    RewindStatus.PLANNED,
                    Optional.empty(),
                    Optional.empty()));
          }
          tx.rewinds().addEntries(operation, entries);
          return operation;
        });
  }

  private static List<Long> entryIds(List<StoredRewindEntry> entries) {
    return entries.stream().map(StoredRewindEntry::id).toList();
  }
}
