package io.turndiff.store;

import static io.turndiff.store.CapturedFiles.TAKEN_AT;
import static io.turndiff.store.CapturedFiles.file;
import static io.turndiff.store.DialectStores.number;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rows a finish of many files writes in multi-row statements of 64 rows, in both dialects and
 * at the statement's bound (63, 64, 65 and 129 rows: one statement short of full, full, one row
 * over, two full and one row): the before log folded into tool calls, snapshots, file changes and
 * links; the after-states' contents (new, held already, named twice, a delta of a stored content
 * and a delta of a content stored in the same call); the after-snapshots, each key the key of its
 * own row; the completions. Each checked in a store opened again, against the rows themselves.
 */
class FinishRowsTest {

  @TempDir Path temp;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A source file's content, long enough that a small edit compresses better as a delta. */
  private static byte[] source(int i, String edit) {
    StringBuilder text = new StringBuilder();
    for (int line = 0; line < 200; line++) {
      text.append("file ").append(i).append(" line ").append(line).append(" of the source\n");
    }
    return bytes(text.append(edit).toString());
  }

  @ParameterizedTest
  @CsvSource({
    "sqlite, 63", "sqlite, 64", "sqlite, 65", "sqlite, 129",
    "postgres, 63", "postgres, 64", "postgres, 65", "postgres, 129"
  })
  void aFinishOfManyFilesLandsEveryRowOnceWithItsOwnKeys(String dialect, int files)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    long turn;
    try (Store store = Store.open(address)) {
      turn = DialectStores.agentTurn(store);
      // p1 was recorded before the log (its first state wins); every path is logged by a call of
      // its own, p2 by a second call as well
      store.write(
          tx -> {
            tx.blobs().put(source(1, "held"));
            long call = tx.toolCalls().record(turn, "early");
            long before = tx.snapshots().insert(file("p1", source(1, "held")));
            long change =
                tx.fileChanges()
                    .begin(
                        turn,
                        WorkspacePath.of("p1"),
                        Optional.empty(),
                        DetectedBy.SNAPSHOT,
                        before);
            return tx.fileChanges().linkToolCall(change, call);
          });
      List<BeforeLog.Entry> logged = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        logged.add(entry(turn, "call-" + i, "p" + i, source(i, "")));
      }
      logged.add(entry(turn, "call-again", "p2", source(2, "edited between the calls")));
      store.writeInGroup(
          tx -> {
            tx.beforeLog().appendAll(logged);
            return null;
          });
    }

    List<StoredFileChange> folded;
    try (Store store = Store.open(address)) {
      folded = store.read(tx -> tx.fileChanges().ofTurn(turn));
    }
    assertEquals(0, number(address, "SELECT count(*) FROM before_log"));
    assertEquals(files, folded.size(), "a change per path");
    assertEquals(files + 2, number(address, "SELECT count(*) FROM tool_call"));
    assertEquals(files + 2, number(address, "SELECT count(*) FROM file_change_tool_call"));
    Map<WorkspacePath, StoredFileChange> byPath =
        folded.stream().collect(Collectors.toMap(StoredFileChange::path, Function.identity()));
    for (int i = 0; i < files; i++) {
      StoredFileChange change = byPath.get(WorkspacePath.of("p" + i));
      byte[] first = i == 1 ? source(1, "held") : source(i, "");
      assertEquals(Sha256.of(first), change.before().storedContent().orElseThrow(), "p" + i);
      List<String> calls = i == 1 ? List.of("early", "call-1") : List.of("call-" + i);
      assertEquals(
          i == 2 ? List.of("call-2", "call-again") : calls, change.toolCalls(), "p" + i + " calls");
    }
    try (Store store = Store.open(address)) {
      StoredFileChange p2 = byPath.get(WorkspacePath.of("p2"));
      List<StoredCallBefore> p2Calls =
          store.read(tx -> tx.fileChanges().callsBefore(List.of(p2.id()))).get(p2.id());
      assertEquals(
          Sha256.of(source(2, "edited between the calls")),
          p2Calls.get(1).before().orElseThrow().storedContent().orElseThrow(),
          "the later call's own before-state, kept on its link");

      // the finish: every after-state's content (one held already, one named twice, deltas of
      // the before-states and one of a content stored in the same call), snapshots, completions
      List<EncodedBlob> contents = new ArrayList<>();
      List<Snapshot> afters = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        byte[] before = i == 1 ? source(1, "held") : source(i, "");
        byte[] after = source(i, "edited in the turn");
        Sha256 afterSha = Sha256.of(after);
        contents.add(
            BlobEncoder.encode(
                afterSha, after, Optional.of(new DeltaBase(Sha256.of(before), before))));
        afters.add(file("p" + i, after));
      }
      byte[] last = source(files - 1, "edited in the turn");
      byte[] derived = source(files - 1, "edited in the turn, and again");
      contents.add(
          BlobEncoder.encode(
              Sha256.of(derived), derived, Optional.of(new DeltaBase(Sha256.of(last), last))));
      contents.add(contents.getFirst());
      contents.add(BlobEncoder.encode(Sha256.of(source(3, "")), source(3, "")));
      store.write(
          tx -> {
            tx.blobs().putAll(contents);
            long[] rows = tx.snapshots().insertAll(afters);
            List<FileChanges.Completion> completions = new ArrayList<>();
            for (int i = 0; i < files; i++) {
              StoredFileChange change = byPath.get(WorkspacePath.of("p" + i));
              completions.add(
                  i % 2 == 0
                      ? new FileChanges.Completion(
                          change.id(), rows[i], ChangeKind.MODIFIED, 0, 0, Optional.empty(), true)
                      : new FileChanges.Completion(
                          change.id(),
                          rows[i],
                          ChangeKind.MODIFIED,
                          i,
                          1,
                          Optional.of(Sha256.of(source(3, ""))),
                          false));
            }
            tx.fileChanges().completeAll(completions);
            return null;
          });
    }

    // the content rows: a before and an after per path, p1's first and p2's later before-state,
    // the derived one; nothing twice
    assertEquals(2L * files + 3, number(address, "SELECT count(*) FROM blob"));
    assertEquals(
        0,
        number(
            address,
            "SELECT count(*) FROM blob WHERE (encoding = 'delta') <> (base_sha256 IS NOT NULL)"
                + " OR (encoding = 'delta') <> (depth > 0)"));
    assertTrue(
        number(address, "SELECT count(*) FROM blob WHERE encoding = 'delta' AND depth = 2") >= 1,
        "the derived content, a delta of a delta stored in the same call");
    try (Store store = Store.open(address)) {
      Map<WorkspacePath, StoredFileChange> completed =
          store.read(tx -> tx.fileChanges().ofTurn(turn)).stream()
              .collect(Collectors.toMap(StoredFileChange::path, Function.identity()));
      assertEquals(files, completed.size());
      for (int i = 0; i < files; i++) {
        StoredFileChange change = completed.get(WorkspacePath.of("p" + i));
        Snapshot after = change.after().orElseThrow();
        assertEquals(change.path(), after.path(), "the after-snapshot's key is its own row's");
        byte[] content = source(i, "edited in the turn");
        assertEquals(Sha256.of(content), after.storedContent().orElseThrow());
        assertArrayEquals(content, store.read(tx -> tx.blobs().require(Sha256.of(content))));
        assertEquals(Optional.of(ChangeKind.MODIFIED), change.change());
        assertEquals(i % 2 == 0, change.diffPending(), change.path() + " pending");
        assertEquals(i % 2 == 0 ? 0 : i, change.linesAdded());
      }
      assertArrayEquals(
          source(files - 1, "edited in the turn, and again"),
          store.read(
              tx ->
                  tx.blobs()
                      .require(Sha256.of(source(files - 1, "edited in the turn, and again")))));
    }
  }

  private static BeforeLog.Entry entry(long turn, String call, String path, byte[] content) {
    return new BeforeLog.Entry(
        turn,
        call,
        Optional.of("Edit"),
        TAKEN_AT.toEpochMilli(),
        file(path, content),
        Optional.empty(),
        Optional.of(BlobEncoder.encode(Sha256.of(content), content)));
  }
}
