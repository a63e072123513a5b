package io.turndiff.store;

import static io.turndiff.store.CapturedFiles.TAKEN_AT;
import static io.turndiff.store.CapturedFiles.file;
import static io.turndiff.store.DialectStores.number;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.Sha256;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The before log's rows of a call that names many paths, in both dialects: appended in multi-row
 * statements of 64 rows (150 paths: two full statements and one of 22), each path's row landing
 * once and holding what the call read, kept by a store closed before any fold (a process killed
 * after its call), and folded by the next reader with the first before-state of a path winning.
 */
class BeforeLogRowsTest {

  private static final int PATHS = 150;

  @TempDir Path temp;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static BeforeLog.Entry entry(long turn, String call, String path, byte[] content) {
    Sha256 sha = Sha256.of(content);
    return new BeforeLog.Entry(
        turn,
        call,
        Optional.of("Edit"),
        TAKEN_AT.toEpochMilli(),
        file(path, content),
        Optional.empty(),
        Optional.of(BlobEncoder.encode(sha, content)));
  }

  /**
   * What a call of one path asks in one query ({@link BeforeLog#sightOf}): whether its turn holds
   * the path, folded or logged (another turn's does not count), and whether the store holds the
   * content, logged content not yet folded and no content at all both counting as not held.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aCallOfOnePathAsksWhetherItsTurnHoldsThePathAndTheStoreItsContent(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    byte[] folded = bytes("folded\n");
    byte[] logged = bytes("logged\n");
    try (Store store = Store.open(address)) {
      long[] turns =
          store.write(
              tx -> {
                StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
                StoredSession first = tx.sessions().create("s", workspace.id());
                StoredSession second = tx.sessions().create("r", workspace.id());
                return new long[] {
                  tx.turns().begin("t", first, TurnKind.AGENT).id(),
                  tx.turns().begin("u", second, TurnKind.AGENT).id()
                };
              });
      long turn = turns[0];
      long other = turns[1];
      store.writeInGroup(
          tx -> {
            tx.beforeLog().append(entry(turn, "one", "folded", folded));
            return null;
          });
      store.read(tx -> tx.fileChanges().ofTurn(turn)); // a reader folds the log
      List<BeforeLog.PathSight> sights =
          store.writeInGroup(
              tx -> {
                tx.beforeLog().append(entry(turn, "two", "logged", logged));
                tx.beforeLog().append(entry(other, "three", "others", bytes("others\n")));
                BeforeLog log = tx.beforeLog();
                return List.of(
                    log.sightOf(turn, WorkspacePath.of("folded"), Optional.of(Sha256.of(folded))),
                    log.sightOf(turn, WorkspacePath.of("logged"), Optional.of(Sha256.of(logged))),
                    log.sightOf(turn, WorkspacePath.of("others"), Optional.empty()),
                    log.sightOf(turn, WorkspacePath.of("new"), Optional.of(Sha256.of(folded))),
                    log.sightOf(other, WorkspacePath.of("folded"), Optional.empty()));
              });
      assertEquals(
          List.of(
              new BeforeLog.PathSight(true, true),
              new BeforeLog.PathSight(true, false),
              new BeforeLog.PathSight(false, false),
              new BeforeLog.PathSight(false, true),
              new BeforeLog.PathSight(false, false)),
          sights);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aCallOfManyPathsLandsEveryPathOnceSurvivesAClosedStoreAndTheFirstBeforeStateWins(
      String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    long turn;
    List<BeforeLog.Entry> call = new ArrayList<>();
    try (Store store = Store.open(address)) {
      turn = DialectStores.agentTurn(store);
      // an earlier call logged p7 as it was first
      store.writeInGroup(
          tx -> {
            tx.beforeLog().append(entry(turn, "first", "p7", bytes("p7 first\n")));
            return null;
          });
      for (int i = 0; i < PATHS; i++) {
        call.add(entry(turn, "many", "p" + i, bytes("p" + i + " now\n")));
      }
      Set<WorkspacePath> held =
          store.writeInGroup(
              tx -> {
                tx.beforeLog().appendAll(call);
                return tx.beforeLog()
                    .holding(turn, List.of(WorkspacePath.of("p0"), WorkspacePath.of("none")));
              });
      assertEquals(Set.of(WorkspacePath.of("p0")), held, "what the log holds, asked at once");
    }
    // the store closed before anything folded the log, as a killed process leaves it
    assertEquals(PATHS + 1, number(address, "SELECT count(*) FROM before_log"));
    assertEquals(
        PATHS + 1,
        number(
            address,
            "SELECT count(*) FROM (SELECT DISTINCT tool_call, path FROM before_log) AS rows"));
    assertEquals(0, number(address, "SELECT count(*) FROM file_change"));

    try (Store store = Store.open(address)) {
      // a reader folds the log first
      Map<WorkspacePath, Sha256> befores =
          store.read(tx -> tx.fileChanges().ofTurn(turn)).stream()
              .collect(
                  Collectors.toMap(
                      StoredFileChange::path,
                      change -> change.before().storedContent().orElseThrow()));
      assertEquals(PATHS, befores.size(), "every path once");
      assertEquals(Sha256.of(bytes("p7 first\n")), befores.get(WorkspacePath.of("p7")));
      for (int i = 0; i < PATHS; i++) {
        if (i != 7) {
          assertEquals(
              Sha256.of(bytes("p" + i + " now\n")), befores.get(WorkspacePath.of("p" + i)));
        }
      }
      assertEquals(0, number(address, "SELECT count(*) FROM before_log"));
      assertArrayEquals(
          bytes("p149 now\n"),
          store.read(tx -> tx.blobs().require(Sha256.of(bytes("p149 now\n")))));
      Set<WorkspacePath> recorded =
          store.read(
              tx ->
                  tx.fileChanges()
                      .recordedAmong(
                          turn, List.of(WorkspacePath.of("p149"), WorkspacePath.of("x"))));
      assertEquals(Set.of(WorkspacePath.of("p149")), recorded);
      Set<Sha256> contained =
          store.read(
              tx ->
                  tx.blobs()
                      .containedAmong(
                          List.of(Sha256.of(bytes("p3 now\n")), Sha256.of(bytes("nowhere")))));
      assertEquals(Set.of(Sha256.of(bytes("p3 now\n"))), contained);
    }
  }
}
