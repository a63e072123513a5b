package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.SmallSources;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff gc} and {@code du} in this JVM over a real store and workspace: what goes, what
 * stays, and that what stays is whole (no dangling reference, every kept turn still diffs).
 */
class GcCommandTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;

  @BeforeEach
  void setUp() {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
  }

  private CommandRun turndiff(String... args) {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    return CliRun.inProcess(withStore.toArray(String[]::new));
  }

  /** 64 KiB of text no other call gives (so that its blob is its own and hard to compress). */
  private static String randomText(long seed) {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < 64 * 1024) {
      text.append(Long.toHexString(random.nextLong())).append('\n');
    }
    return text.toString();
  }

  /** A finished turn {@code id} of session s1 that writes {@code content} into {@code file}. */
  private void turn(String id, String file, String content) {
    StoreCommands.beginTurn(database, workspace, "s1", id).expect(0);
    turndiff("snapshot", "--turn", id, file).expect(0);
    workspace.file(file, content);
    turndiff("turn", "finish", "--turn", id).expect(0);
  }

  private void assertWhole() {
    assertEquals(List.of(), query("PRAGMA foreign_key_check"), "no dangling reference");
    assertEquals(List.of("ok"), query("PRAGMA integrity_check"));
  }

  private List<String> query(String sql) {
    List<String> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        rows.add(result.getString(1));
      }
    } catch (SQLException e) {
      throw new AssertionError(sql + ": " + e.getMessage(), e);
    }
    return rows;
  }

  /** Runs {@code sqls} in order on one plain connection. */
  private void execute(String... sqls) {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement statement = connection.createStatement()) {
      for (String sql : sqls) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new AssertionError(String.join("; ", sqls) + ": " + e.getMessage(), e);
    }
  }

  private static List<String> turnIds(JsonNode report) {
    List<String> ids = new ArrayList<>();
    report.get("turns").forEach(turn -> ids.add(turn.get("turn").asText()));
    return ids;
  }

  @Test
  void oldTurnsGoWithTheirOwnBlobsWhileOpenTurnsKeptTurnsAndSharedContentStay() {
    workspace.file("a.txt", randomText(0));
    String first = randomText(0);
    turn("t1", "a.txt", randomText(1));
    turn("t2", "a.txt", randomText(2));
    turn("t3", "a.txt", randomText(3));
    // t4 puts back the content t1 started from: that blob is t4's too, and stays
    turn("t4", "a.txt", first);
    turndiff(
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            "s1",
            "--turn",
            "t5")
        .expect(0);
    turndiff("snapshot", "--turn", "t5", "a.txt").expect(0);
    Map<String, Long> before = StoreRows.count(database);

    JsonNode dry =
        turndiff("gc", "--keep-turns", "2", "--grace", "0s", "--dry-run").expect(0).json();
    assertTrue(dry.get("dry_run").asBoolean());
    assertEquals(List.of("t1", "t2", "t3"), turnIds(dry));
    assertTrue(dry.get("blob_bytes_freed").asLong() > 0, dry.toString());
    assertEquals(before, StoreRows.count(database), "a dry run changes nothing");

    JsonNode report = turndiff("gc", "--keep-turns", "2", "--grace", "0s").expect(0).json();
    assertEquals(List.of("t1", "t2", "t3"), turnIds(report), "oldest first; t4 and open t5 kept");
    assertEquals(
        dry.get("blob_bytes_freed"), report.get("blob_bytes_freed"), "as the dry run said");
    assertEquals(dry.get("blobs_removed"), report.get("blobs_removed"));
    assertEquals(
        List.of("t4", "t5"), query("SELECT external_id FROM turn ORDER BY seq"), "what is left");
    assertWhole();
    assertEquals(
        List.of("0"),
        query(
            "SELECT count(*) FROM blob WHERE NOT EXISTS (SELECT 1 FROM snapshot WHERE"
                + " content_sha256 = blob.sha256) AND NOT EXISTS (SELECT 1 FROM file_change WHERE"
                + " diff_sha256 = blob.sha256)"),
        "no blob nothing refers to is left");
    String shared = Sha256.of(first.getBytes(StandardCharsets.UTF_8)).hex();
    assertEquals(List.of("1"), query("SELECT count(*) FROM blob WHERE sha256 = '" + shared + "'"));
    assertTrue(turndiff("diff", "--turn", "t4").expect(0).out().contains("+++ b/a.txt"));
    workspace.file("a.txt", "the open turn goes on\n");
    turndiff("turn", "finish", "--turn", "t5").expect(0);
    assertTrue(
        report.get("file_bytes_after").asLong() < report.get("file_bytes_before").asLong(),
        "the space is given back: " + report);
    assertEquals(
        List.of("2"), query("PRAGMA auto_vacuum"), "a new store gives space back in steps");
  }

  @Test
  void withoutAPolicyNoTurnGoesAndTheGraceKeepsFreshBlobs() {
    workspace.file("a.txt", "a\n");
    turn("t1", "a.txt", randomText(1));
    execute(
        "INSERT INTO blob (sha256, size, encoding, data, stored_at) VALUES ('"
            + "0".repeat(64)
            + "', 1, 'raw', x'00', 0)");
    JsonNode fresh = turndiff("gc").expect(0).json();
    assertEquals(0, fresh.get("turns_removed").asInt());
    assertEquals(1, fresh.get("blobs_removed").asInt(), "the orphan stored long ago goes");
    assertEquals(List.of("1"), query("SELECT count(*) FROM turn"));
    execute(
        "INSERT INTO blob (sha256, size, encoding, data, stored_at) VALUES ('"
            + "1".repeat(64)
            + "', 1, 'raw', x'00', "
            + System.currentTimeMillis()
            + ")");
    assertEquals(0, turndiff("gc").expect(0).json().get("blobs_removed").asInt(), "within grace");
    assertEquals(1, turndiff("gc", "--grace", "0s").expect(0).json().get("blobs_removed").asInt());
    assertWhole();
  }

  @Test
  void aRewindGoesOnlyWithAllItsTurnsAndNeverWhileItApplies() {
    workspace.file("a.txt", "a\n");
    turn("t1", "a.txt", "changed\n");
    turndiff("rewind", "--turn", "t1").expect(0);
    turn("t2", "a.txt", "again\n");
    // t1, the rewind's own turn (seq 2), t2: keeping 2 keeps the rewind's turn, so t1 stays too
    JsonNode kept = turndiff("gc", "--keep-turns", "2", "--grace", "0s").expect(0).json();
    assertEquals(List.of(), turnIds(kept), "t1 is needed to undo the rewind that is kept");
    assertEquals(List.of("1"), query("SELECT count(*) FROM rewind_operation"));

    execute("UPDATE rewind_operation SET state = 'applying'");
    JsonNode applying = turndiff("gc", "--keep-turns", "0", "--grace", "0s").expect(0).json();
    assertEquals(List.of("t2"), turnIds(applying), "nothing an unfinished rewind refers to goes");
    assertEquals(List.of("2"), query("SELECT count(*) FROM turn"));

    execute("UPDATE rewind_operation SET state = 'done'");
    JsonNode all = turndiff("gc", "--keep-turns", "0", "--grace", "0s").expect(0).json();
    assertEquals(2, all.get("turns_removed").asInt(), all.toString());
    assertEquals(List.of("0"), query("SELECT count(*) FROM rewind_operation"));
    assertEquals(List.of("0"), query("SELECT count(*) FROM rewind_entry"));
    assertEquals(List.of("0"), query("SELECT count(*) FROM snapshot"));
    assertWhole();
  }

  @Test
  void olderThanCountsFromWhenATurnFinished() {
    workspace.file("a.txt", "a\n");
    turn("t1", "a.txt", "one\n");
    turn("t2", "a.txt", "two\n");
    execute("UPDATE turn SET finished_at = finished_at - 10 * 86400000 WHERE external_id = 't1'");
    JsonNode report = turndiff("gc", "--older-than", "7d").expect(0).json();
    assertEquals(List.of("t1"), turnIds(report));
    assertEquals(List.of(), turnIds(turndiff("gc", "--older-than", "7d").expect(0).json()));
    assertWhole();
  }

  @Test
  void theIndexOfATrackedWorkspaceKeepsItsBlobs() {
    workspace.file("a.txt", randomText(7)).file("b.txt", randomText(8));
    turndiff("track", "--workspace", workspace.root().toString()).expect(0);
    String indexed =
        "SELECT count(*) FROM blob JOIN index_entry ON index_entry.content_sha256 = blob.sha256";
    turn("t1", "a.txt", randomText(9));
    List<String> before = query(indexed);
    turndiff("gc", "--keep-turns", "0", "--grace", "0s").expect(0);
    assertEquals(List.of("0"), query("SELECT count(*) FROM turn"));
    assertEquals(before, query(indexed));
    assertFalse(before.equals(List.of("0")), "the index holds content");
    turndiff("status", "--workspace", workspace.root().toString()).expect(0);
    assertWhole();
  }

  @Test
  void aStoreMadeBeforeIncrementalVacuumIsConvertedByItsFirstCollection() {
    workspace.file("a.txt", "a\n");
    turn("t1", "a.txt", randomText(1));
    // as every store was made before this version: no auto-vacuum
    execute("PRAGMA auto_vacuum = NONE", "VACUUM");
    assertEquals(List.of("0"), query("PRAGMA auto_vacuum"));
    JsonNode report = turndiff("gc", "--keep-turns", "0", "--grace", "0s").expect(0).json();
    assertTrue(report.get("converted_to_incremental_vacuum").asBoolean(), report.toString());
    assertEquals(List.of("2"), query("PRAGMA auto_vacuum"));
    assertFalse(turndiff("gc").expect(0).json().get("converted_to_incremental_vacuum").asBoolean());
    assertWhole();
  }

  @Test
  void duShowsEachSessionAndWhatItShares() {
    workspace.file("a.txt", randomText(0));
    turn("t1", "a.txt", randomText(1));
    JsonNode usage = turndiff("du", "--json").expect(0).json();
    JsonNode session = usage.get("workspaces").get(0).get("sessions").get(0);
    assertEquals("s1", session.get("session").asText());
    assertEquals(1, session.get("turns").asInt());
    assertEquals(1, session.get("records").asInt());
    assertTrue(session.get("blob_bytes").asLong() > 0, usage.toString());
    assertEquals(0, session.get("shared_blob_bytes").asLong(), usage.toString());
    assertEquals(usage.get("blob_bytes"), session.get("blob_bytes"), "all of it is the session's");
    assertTrue(usage.get("file_bytes").asLong() > usage.get("blob_bytes").asLong());
    assertEquals(0, usage.get("dictionary_bytes").asLong(), "an untracked workspace has none");
    assertEquals(0, usage.get("workspaces").get(0).get("dictionary_bytes").asLong());
    String text = turndiff("du", "--workspace", workspace.root().toString()).expect(0).out();
    assertTrue(text.contains("s1: 1 turns (0 open), 1 records"), text);
    turndiff("du", "--workspace", temp.resolve("elsewhere").toString()).expect(1);
  }

  /**
   * A track of many small files trains the workspace's compression dictionary, which is neither a
   * blob nor ever collected: du counts it, in all and for its workspace, in JSON and in text.
   */
  @Test
  void duCountsATrackedWorkspacesCompressionDictionary() {
    SmallSources.write(workspace, 1_200, 0);
    turndiff("track", "--workspace", workspace.root().toString()).expect(0);
    turn("t1", "a.txt", "one\n");
    List<String> dictionaries = query("SELECT length(data) FROM content_dictionary");
    assertEquals(1, dictionaries.size(), "the track trained one");
    long stored = Long.parseLong(dictionaries.getFirst());

    JsonNode usage = turndiff("du", "--json").expect(0).json();
    assertEquals(stored, usage.get("dictionary_bytes").asLong(), usage.toString());
    assertEquals(
        stored, usage.get("workspaces").get(0).get("dictionary_bytes").asLong(), usage.toString());
    String text = turndiff("du").expect(0).out();
    assertTrue(text.contains("; " + stored + " bytes of compression dictionaries"), text);
    assertTrue(
        text.contains(workspace.root() + " (compression dictionary: " + stored + " bytes)"), text);
  }

  @Test
  void maxSizeRemovesTheOldestTurnsUntilTheStoreFitsButKeepsTheNewest() {
    workspace.file("a.txt", "a\n");
    for (int i = 1; i <= 6; i++) {
      turn("t" + i, "a.txt", randomText(i));
    }
    JsonNode fits = turndiff("gc", "--max-size", "1000000000", "--grace", "0s").expect(0).json();
    assertEquals(0, fits.get("turns_removed").asInt(), "a store under the size keeps everything");
    long inUse = fits.get("bytes_in_use").asLong();
    JsonNode shrunk =
        turndiff("gc", "--max-size", Long.toString(inUse - 1), "--grace", "0s").expect(0).json();
    assertEquals(List.of("t1"), turnIds(shrunk), "the oldest first, and only as many as needed");
    assertTrue(shrunk.get("bytes_in_use").asLong() < inUse, shrunk.toString());
    JsonNode floor =
        turndiff("gc", "--max-size", "0", "--keep-turns", "2", "--grace", "0s").expect(0).json();
    assertEquals(List.of("t2", "t3", "t4"), turnIds(floor), "--keep-turns is kept even so");
    assertEquals(List.of("t5", "t6"), query("SELECT external_id FROM turn ORDER BY seq"));
    assertWhole();
  }

  @Test
  void thePolicyKeptWithTheStoreAppliesWhenGcIsGivenNone() {
    workspace.file("a.txt", "a\n");
    turn("t1", "a.txt", "one\n");
    turn("t2", "a.txt", "two\n");
    turn("t3", "a.txt", "three\n");
    JsonNode defaults = turndiff("config").expect(0).json();
    assertEquals("PT720H", defaults.get("older_than").asText(), "a new store keeps the default");
    JsonNode set = turndiff("config", "--keep-turns", "1", "--older-than", "30d").expect(0).json();
    assertEquals("PT720H", set.get("older_than").asText());
    assertEquals(1, set.get("keep_turns").asInt());
    assertEquals(set, turndiff("config").expect(0).json(), "kept with the store");
    assertEquals(List.of(), turnIds(turndiff("gc", "--grace", "0s").expect(0).json()), "none old");

    JsonNode unset = turndiff("config", "--unset", "older-than").expect(0).json();
    assertTrue(unset.get("older_than").isNull(), unset.toString());
    assertEquals(1, unset.get("keep_turns").asInt());
    assertEquals(List.of("t1", "t2"), turnIds(turndiff("gc", "--grace", "0s").expect(0).json()));
    assertEquals(
        List.of(),
        turnIds(turndiff("gc", "--older-than", "30d", "--grace", "0s").expect(0).json()),
        "options on the command line replace the kept policy");

    assertEquals("keep", set.get("prompts").asText(), "a local store keeps prompts");
    JsonNode none = turndiff("config", "--prompts", "none").expect(0).json();
    assertEquals("none", none.get("prompts").asText());
    assertEquals(1, none.get("keep_turns").asInt(), "the policy stays as it was");
    turndiff("config", "--prompts", "keep").expect(0);
    turndiff("config", "--prompts", "some").expect(2);
    turndiff("config", "--unset", "nope").expect(2);
    turndiff("config", "--keep-turns", "-3").expect(2);
    assertEquals(unset, turndiff("config").expect(0).json(), "a refused change changes nothing");
    assertWhole();
  }

  /**
   * A new store is bounded by default (V14): {@code gc} without options, as the service's daily
   * collection, removes turns finished over 30 days ago, but never a session's newest 10, nor a
   * turn a kept rewind needs to be undone. The turns are aged as the store dates them (their
   * finished_at), as {@link #olderThanCountsFromWhenATurnFinished} does.
   */
  @Test
  void aNewStoreIsBoundedByTheDefaultPolicyButKeepsTheNewestTurnsAndWhatARewindNeeds() {
    JsonNode kept = turndiff("config").expect(0).json();
    assertEquals("PT720H", kept.get("older_than").asText(), kept.toString());
    assertEquals(10, kept.get("keep_turns").asInt(), kept.toString());
    assertEquals(2L * 1024 * 1024 * 1024, kept.get("max_size").asLong(), kept.toString());
    // config also says whether prompts are kept (a local store keeps them); du shows the policy
    assertEquals("keep", kept.get("prompts").asText(), kept.toString());
    ObjectNode policy = kept.deepCopy();
    policy.remove("prompts");
    assertEquals(policy, turndiff("du", "--json").expect(0).json().get("retention"));
    assertTrue(
        turndiff("du")
            .expect(0)
            .out()
            .contains(
                "retention: turns finished over 30d ago go; each session's newest 10 turns stay;"
                    + " past 2 GiB in use, more of the oldest go"));

    for (int i = 1; i <= 12; i++) {
      turn("t" + i, "f" + i + ".txt", randomText(i));
    }
    execute(
        "UPDATE turn SET began_at = began_at - 40 * 86400000,"
            + " finished_at = finished_at - 40 * 86400000");
    assertEquals(
        List.of("t1", "t2"),
        turnIds(turndiff("gc", "--grace", "0s", "--dry-run").expect(0).json()),
        "over 30 days old and not among the newest 10 (seq 3..12)");
    // t1 is rewound now: its rewind (seq 13) is recent and kept, so t1 stays to undo it
    JsonNode rewind = turndiff("rewind", "--turn", "t1").expect(0).json();
    String rewindTurn = rewind.get("rewind_turn").asText();

    JsonNode report = turndiff("gc", "--grace", "0s").expect(0).json();
    assertEquals(
        List.of("t2", "t3"),
        turnIds(report),
        "over 30 days old and not among the newest 10 (seq 4..13), less t1");
    assertEquals(
        List.of("t1", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", rewindTurn),
        query("SELECT external_id FROM turn ORDER BY seq"));
    assertEquals(List.of(), turnIds(turndiff("gc", "--grace", "0s").expect(0).json()));
    JsonNode undo = turndiff("rewind", "--turn", rewindTurn, "--dry-run").expect(0).json();
    assertEquals(List.of("f1.txt"), texts(undo.get("restored")), "the rewind is still undoable");
    assertWhole();
  }

  /**
   * A store upgraded with turns keeps no policy (StoreTest); {@code config} says so in words and
   * {@code --default-policy} adopts the default.
   */
  @Test
  void aStoreWithoutAPolicyIsToldSoAndAdoptsTheDefaultWithOneOption() {
    JsonNode none =
        turndiff("config", "--unset", "older-than", "--unset", "keep-turns", "--unset", "max-size")
            .expect(0)
            .json();
    assertTrue(
        none.get("older_than").isNull()
            && none.get("keep_turns").isNull()
            && none.get("max_size").isNull(),
        none.toString());
    assertTrue(turndiff("du").expect(0).out().contains("retention: none: no turn is ever removed"));
    JsonNode adopted = turndiff("config", "--default-policy").expect(0).json();
    assertEquals("PT720H", adopted.get("older_than").asText());
    assertEquals(10, adopted.get("keep_turns").asInt());
    JsonNode changed = turndiff("config", "--default-policy", "--keep-turns", "3").expect(0).json();
    assertEquals(
        3, changed.get("keep_turns").asInt(), "options change the default they start from");
    assertEquals("PT720H", changed.get("older_than").asText());
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(item -> texts.add(item.asText()));
    return texts;
  }

  @Test
  void aBadPolicyIsABadCommandLine() {
    assertTrue(turndiff("gc", "--older-than", "yesterday").expect(2).err().contains("yesterday"));
    assertTrue(turndiff("gc", "--keep-turns", "-1").expect(2).err().contains("--keep-turns"));
  }
}
