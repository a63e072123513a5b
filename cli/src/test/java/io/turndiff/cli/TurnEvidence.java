package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.Sha256;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.review.ListedTurn;
import io.turndiff.review.ReviewQueries;
import io.turndiff.review.TurnRecords;
import io.turndiff.service.ServiceFiles;
import io.turndiff.store.Store;
import io.turndiff.store.StoredDirectoryChange;
import io.turndiff.store.TurnListing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.StreamSupport;

/**
 * What the store of a real runtime's end-to-end test holds, read through the CLI ({@code show},
 * {@code diff}) and the store itself, and held against the trees the test took on disk before and
 * after each prompt: the runtime tests ({@code GeminiHooksIT}, {@code ClaudeCodeHooksIT}, {@code
 * CodexHooksIT}) assert the same things the same way.
 */
final class TurnEvidence {

  private final Map<String, String> env;
  private final Path database;
  private final Path temp;
  private final Canary canary;

  /**
   * @param env the CLI's environment (the test's store, run directory and home)
   * @param temp where copies of trees and patches go
   * @param canary the outside secret, looked for in every output read here
   */
  TurnEvidence(Map<String, String> env, Path database, Path temp, Canary canary) {
    this.env = env;
    this.database = database;
    this.temp = temp;
    this.canary = canary;
  }

  /**
   * The external ids of the session's turns, oldest first, after checking that there are {@code
   * count} of them, agent turns, all finished.
   */
  /**
   * The titles of the session's turns, oldest first, as {@code turns} lists them: each the first
   * line of the prompt its runtime's prompt hook carried (issue 22 item 5).
   */
  List<String> titles(String sessionId) throws Exception {
    CommandRun listed = CliProcess.run(env, "turns", "--session", sessionId).expect(0);
    List<String> titles = new ArrayList<>();
    listed.json().get("turns").forEach(turn -> titles.add(turn.path("title").asText("(none)")));
    return titles;
  }

  List<String> finishedTurns(String sessionId, int count) throws Exception {
    List<String> turns = new ArrayList<>();
    try (Store store = Store.open(database)) {
      assertTrue(
          store.read(tx -> tx.sessions().byExternalId(sessionId)).isPresent(),
          "the hooks made the session " + sessionId + diagnostics());
      List<TurnListing> listing =
          new ReviewQueries(store)
              .turns(sessionId, 0, 100).turns().stream().map(ListedTurn::listing).toList();
      assertEquals(count, listing.size(), "one turn per prompt: " + listing + diagnostics());
      for (TurnListing turn : listing) {
        assertEquals(TurnKind.AGENT, turn.turn().kind(), turn.toString());
        assertEquals(TurnState.FINISHED, turn.turn().state(), turn.toString());
        turns.add(turn.turn().externalId());
      }
    }
    return turns;
  }

  /**
   * One prompt's whole check: the session has one finished turn; it recorded exactly the entries
   * that differ between the trees {@code before} and {@code after} the prompt, each inside,
   * restorable, found as {@code detectedBy} says, with the trees' before and after; and its rewind
   * (exit 0, nothing skipped) gives back {@code before} byte for byte.
   */
  void assertOneTurnRewoundExactly(
      String sessionId,
      Path root,
      Map<String, String> before,
      Map<String, String> after,
      Map<String, String> detectedBy)
      throws Exception {
    String turn = finishedTurns(sessionId, 1).getFirst();
    Map<String, JsonNode> records = records(turn);
    assertEquals(detectedBy.keySet(), changedEntries(before, after), "what the runtime changed");
    assertEquals(detectedBy.keySet(), records.keySet(), "what the turn recorded");
    for (Map.Entry<String, String> path : detectedBy.entrySet()) {
      String change =
          before.get(path.getKey()) == null
              ? "added"
              : after.get(path.getKey()) == null ? "deleted" : "modified";
      assertRecord(records, path.getKey(), change, path.getValue(), before, after);
    }
    rewind(turn, detectedBy.keySet(), Set.of(), Set.of());
    assertEquals(before, TreeContent.of(root), "the tree before the prompt, byte for byte");
  }

  /**
   * The turn of the first prompt every runtime's end-to-end test scripts, in a workspace holding
   * {@code notes.txt} and {@code src/app.txt}: the file tool adds {@code hello.txt} and {@code
   * sub/rel.txt} and changes {@code notes.txt} (snapshots), the shell changes {@code src/app.txt}
   * (the finish scan); {@code sub/} is the one directory created; each before and after as the
   * trees taken before and after the prompt have them.
   */
  void assertFirstPromptTurn(String turn, Map<String, String> before, Map<String, String> after)
      throws Exception {
    Map<String, JsonNode> records = records(turn);
    assertEquals(Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"), records.keySet());
    assertEquals(changedEntries(before, after), records.keySet());
    assertRecord(records, "hello.txt", "added", "snapshot", before, after);
    assertRecord(records, "sub/rel.txt", "added", "snapshot", before, after);
    assertRecord(records, "notes.txt", "modified", "snapshot", before, after);
    assertRecord(records, "src/app.txt", "modified", "scan", before, after);
    assertDirectories(turn, Map.of("sub", "created"));
  }

  /**
   * The records of what the shell did in the second prompt every runtime's end-to-end test scripts,
   * all found by the finish scan: {@code old.txt} moved to {@code renamed.txt}, {@code trash.txt}
   * removed, {@code from-shell.txt} written and made executable, the link {@code outside-dir}
   * repointed.
   */
  void assertSecondPromptShellRecords(
      Map<String, JsonNode> records, Map<String, String> before, Map<String, String> after)
      throws Exception {
    assertRecord(records, "old.txt", "deleted", "scan", before, after);
    assertRecord(records, "trash.txt", "deleted", "scan", before, after);
    assertRecord(records, "renamed.txt", "added", "scan", before, after);
    assertRecord(records, "from-shell.txt", "added", "scan", before, after);
    assertRecord(records, "outside-dir", "modified", "scan", before, after);
  }

  /** {@code turndiff show --turn T}, by path. */
  Map<String, JsonNode> records(String turn) throws Exception {
    CommandRun show = CliProcess.run(env, "show", "--turn", turn).expect(0);
    canary.assertNotIn("turndiff show", show.out());
    Map<String, JsonNode> records = new TreeMap<>();
    for (JsonNode record : show.json()) {
      records.put(record.get("path").asText(), record);
    }
    return records;
  }

  /**
   * The record of {@code path}: its change, how it was found, restorable, and its before and after
   * equal to the path's entry in the trees taken before and after (content from the store's blobs).
   */
  void assertRecord(
      Map<String, JsonNode> records,
      String path,
      String change,
      String detectedBy,
      Map<String, String> before,
      Map<String, String> after)
      throws Exception {
    JsonNode record = records.get(path);
    assertTrue(record != null, path + " is recorded: " + records.keySet());
    assertEquals(change, record.get("change").asText(), record.toString());
    assertEquals(detectedBy, record.get("detected_by").asText(), record.toString());
    assertEquals("inside", record.get("containment").asText(), record.toString());
    assertTrue(record.get("restorable").asBoolean(), record.toString());
    assertEquals(before.get(path), entry(record.get("before")), path + " before: " + record);
    assertEquals(after.get(path), entry(record.get("after")), path + " after: " + record);
  }

  /**
   * The record of a path through a link out of the workspace, named by a hook: metadata only, an
   * {@code unknown} change, {@code escaped}, not restorable, nothing read on either side; the
   * before {@code escapes_workspace}, the after for {@code afterReason}.
   */
  void assertEscaped(
      Map<String, JsonNode> records, String path, String detectedBy, String afterReason) {
    JsonNode record = records.get(path);
    assertTrue(record != null, path + " is recorded: " + records.keySet());
    assertEquals("unknown", record.get("change").asText(), record.toString());
    assertEquals("escaped", record.get("containment").asText(), record.toString());
    assertFalse(record.get("restorable").asBoolean(), record.toString());
    assertEquals(detectedBy, record.get("detected_by").asText(), record.toString());
    Map<String, String> reasons = Map.of("before", "escapes_workspace", "after", afterReason);
    for (String side : List.of("before", "after")) {
      JsonNode state = record.get(side);
      assertFalse(state.get("captured").asBoolean(), side + ": " + record);
      assertEquals(reasons.get(side), state.get("reason").asText(), side + ": " + record);
      assertTrue(state.get("sha256").isNull(), "the outside was never read: " + record);
    }
  }

  /**
   * The record of a write through a directory link out of the workspace: unknown, escaped, not
   * restorable; before {@code escapes_workspace}, not captured; after, absent by its exact name (a
   * path under a link holds nothing with nothing followed); the outside read on neither side.
   */
  void assertEscapedThenAbsentByItsExactName(Map<String, JsonNode> records, String path) {
    JsonNode record = records.get(path);
    assertTrue(record != null, path + " is recorded: " + records.keySet());
    assertEquals("unknown", record.get("change").asText(), record.toString());
    assertEquals("escaped", record.get("containment").asText(), record.toString());
    assertFalse(record.get("restorable").asBoolean(), record.toString());
    JsonNode before = record.get("before");
    assertFalse(before.get("captured").asBoolean(), record.toString());
    assertEquals("escapes_workspace", before.get("reason").asText(), record.toString());
    JsonNode after = record.get("after");
    assertFalse(after.get("exists").asBoolean(), record.toString());
    for (String side : List.of("before", "after")) {
      assertTrue(record.get(side).get("sha256").isNull(), "the outside was never read: " + record);
    }
  }

  /**
   * A recorded state written as {@link TreeContent} writes an entry ({@code null} when absent), the
   * content read back from the store's blob.
   */
  private String entry(JsonNode state) throws Exception {
    assertTrue(state.get("captured").asBoolean(), state.toString());
    if (!state.get("exists").asBoolean()) {
      return null;
    }
    String type = state.get("type").asText();
    if (type.equals("symlink")) {
      return "link -> " + state.get("link_target").asText();
    }
    assertEquals("regular", type, state.toString());
    byte[] content;
    try (Store store = Store.open(database)) {
      content = store.read(tx -> tx.blobs().require(new Sha256(state.get("sha256").asText())));
    }
    return "file "
        + permissions(Integer.parseInt(state.get("mode").asText(), 8))
        + " "
        + HexFormat.of().formatHex(content);
  }

  /** The directories the turn recorded that it created ({@code created}) or removed. */
  void assertDirectories(String turn, Map<String, String> expected) {
    try (Store store = Store.open(database)) {
      TurnRecords records = new ReviewQueries(store).records(turn);
      List<StoredDirectoryChange> directories =
          store.read(tx -> tx.directoryChanges().ofTurn(records.turn().id()));
      Map<String, String> changed = new TreeMap<>();
      for (StoredDirectoryChange directory : directories) {
        boolean was = directory.before().present();
        boolean is = directory.after().map(DirectoryState::present).orElse(false);
        if (was != is) {
          changed.put(directory.path().display(), is ? "created" : "removed");
        }
      }
      assertEquals(expected, changed, directories.toString());
    }
  }

  /** {@code turndiff diff --turn T}: the turn as a patch. */
  String patch(String turn) throws Exception {
    CommandRun diff = CliProcess.run(env, "diff", "--turn", turn).expect(0);
    canary.assertNotIn("turndiff diff", diff.out() + diff.err());
    return diff.out();
  }

  /**
   * The turn's patch ({@code turndiff diff --turn T}) is the real change: {@code git apply} of it
   * to {@code copy}, a copy of the tree taken before the turn, gives {@code after}. Returns the
   * patch.
   */
  String assertPatchApplies(String turn, Path copy, Map<String, String> after) throws Exception {
    String patch = patch(turn);
    assertEquals(after, applied(patch, copy), "git apply of the patch of " + turn);
    return patch;
  }

  /** The tree {@code copy} holds once {@code git apply} applied {@code patch} to it. */
  private Map<String, String> applied(String patch, Path copy) throws Exception {
    Path file = temp.resolve(copy.getFileName() + ".patch");
    Files.writeString(file, patch);
    ProcessBuilder git =
        new ProcessBuilder("git", "apply", "--verbose", file.toString()).directory(copy.toFile());
    git.environment().put("GIT_CEILING_DIRECTORIES", temp.toString());
    CommandRun run = CommandRun.ofProcess(git);
    assertEquals(0, run.exitCode(), "git apply: " + run + "\n" + patch);
    return TreeContent.of(copy);
  }

  /**
   * {@code turndiff rewind --turn T}: exits {@code exit}, restores exactly {@code restored},
   * removes exactly the directories {@code removed}, skips exactly {@code skipped} for escaping the
   * workspace; its report holds no byte of the secret.
   */
  void rewind(String turn, Set<String> restored, Set<String> removed, Set<String> skipped)
      throws Exception {
    CommandRun rewind = CliProcess.run(env, "rewind", "--turn", turn);
    assertEquals(skipped.isEmpty() ? 0 : 3, rewind.exitCode(), "rewind: " + rewind);
    canary.assertNotIn("the rewind report", rewind.out() + rewind.err());
    JsonNode report = rewind.json();
    assertEquals(restored, texts(report.get("restored")), rewind.out());
    assertEquals(removed, texts(report.path("removed_directories")), rewind.out());
    Set<String> skippedPaths = new TreeSet<>();
    for (JsonNode skip : report.get("skipped")) {
      skippedPaths.add(skip.get("path").asText());
      assertEquals("escapes_workspace", skip.get("reason").asText(), rewind.out());
    }
    assertEquals(skipped, skippedPaths, rewind.out());
  }

  /**
   * The canary after the test: the secret's bytes in no store file, no blob, and, once the service
   * stopped, in neither the database files ({@code -wal} included) nor the service log.
   */
  void assertSecretNowhere() throws Exception {
    try (Store store = Store.open(database)) {
      canary.assertNotInStore(store);
    }
    CliProcess.run(env, "service", "stop", "--wait", "30").expect(0);
    canary.assertNotInStoreFiles(database);
    canary.assertNotIn("the service log", read(Path.of(database + ".service.log")));
    String key = ServiceFiles.key(database.toString());
    Path runDirectory = Path.of(env.get("XDG_RUNTIME_DIR"), "turndiff");
    canary.assertNotIn("the hook log", read(runDirectory.resolve(key + ".hook.log")));
  }

  /**
   * The service's hook counters for {@code runtime} since it started ({@code received}, {@code
   * begun}, {@code snapshotted}, {@code finished}, {@code noop}, {@code failed}, ...), from {@code
   * service status --json}.
   */
  JsonNode hookCounters(String runtime) throws Exception {
    CommandRun status = CliProcess.run(env, "service", "status", "--json").expect(0);
    return status.json().path("service").path("hooks").path(runtime);
  }

  /** What the service and the hook clients logged, for a failure message. */
  String diagnostics() throws Exception {
    String key = ServiceFiles.key(database.toString());
    Path runDirectory = Path.of(env.get("XDG_RUNTIME_DIR"), "turndiff");
    return "\n--- service status: "
        + CliProcess.run(env, "service", "status", "--json").out()
        + "\n--- hook log: "
        + read(runDirectory.resolve(key + ".hook.log"))
        + "\n--- service log: "
        + read(Path.of(database + ".service.log"));
  }

  // ---- trees

  /** A copy of the tree, links as links, modes kept. */
  Path copyOf(Path root, String name) {
    Path copy = temp.resolve(name);
    TestWorkspace.run("cp", "-a", root.toString(), copy.toString());
    return copy;
  }

  /** The entries that are not directories and differ between two trees. */
  static Set<String> changedEntries(Map<String, String> before, Map<String, String> after) {
    Set<String> changed = new TreeSet<>();
    Set<String> all = new TreeSet<>(before.keySet());
    all.addAll(after.keySet());
    for (String path : all) {
      String was = before.get(path);
      String is = after.get(path);
      boolean directory =
          (was == null || was.startsWith("dir ")) && (is == null || is.startsWith("dir "));
      if (!directory && !Objects.equals(was, is)) {
        changed.add(path);
      }
    }
    return changed;
  }

  static Set<String> texts(JsonNode array) {
    Set<String> texts = new TreeSet<>();
    StreamSupport.stream(array.spliterator(), false).forEach(node -> texts.add(node.asText()));
    return texts;
  }

  private static String permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << (bits.length - 1 - i))) != 0) {
        permissions.add(bits[i]);
      }
    }
    return PosixFilePermissions.toString(permissions);
  }

  static String read(Path file) throws Exception {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }
}
