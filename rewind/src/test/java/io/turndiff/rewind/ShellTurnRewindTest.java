package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.capture.track.IgnoredFiles;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.Reason;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A turn whose only changes are made by real shell commands, in a tracked workspace: every change
 * is recorded with a correct diff, and rewinding the turn gives back the tree exactly as it was.
 */
class ShellTurnRewindTest extends HarnessTest {

  private static final byte[] DOT_ENV =
      "API_KEY=sk-ignored-0123456789\nDEBUG=1\n\u00e9\n".getBytes(StandardCharsets.UTF_8);

  @Test
  void aTurnMadeOnlyOfShellCommandsIsRecordedAndRewoundExactly() throws Exception {
    h.workspace
        .file("src/app.py", "def f():\n    return 1\n")
        .file("src/old_name.py", "x = 1\n")
        .file("notes/todo.txt", "one\ntwo\n")
        .file("tool.sh", "echo hi\n")
        .file("same.txt", "AAAA\n")
        .file("gone/only.txt", "bye\n")
        .file(".gitignore", "*.pyc\n");
    h.capture
        .tracker()
        .track(h.workspace.root(), TrackingOptions.DEFAULTS.withIgnoredFiles(IgnoredFiles.SMALL));
    Map<String, String> before = TreeContent.of(h.workspace.root());

    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    sh(
        "sed -i 's/return 1/return 2/' src/app.py"
            + " && mv src/old_name.py src/new_name.py"
            + " && rm notes/todo.txt"
            + " && chmod +x tool.sh"
            + " && ln -s src/app.py app_link.py"
            + " && printf 'BBBB\\n' > same.txt"
            + " && rm -r gone"
            + " && echo cache > src/app.pyc");
    h.capture.finishTurn(turn);

    List<StoredFileChange> changes = h.queries.records(turn).changes();
    Map<String, ChangeKind> kinds =
        changes.stream()
            .collect(
                Collectors.toMap(
                    change -> change.path().display(), change -> change.change().orElseThrow()));
    assertEquals(
        Map.of(
            "src/app.py",
            ChangeKind.MODIFIED,
            "src/old_name.py",
            ChangeKind.DELETED,
            "src/new_name.py",
            ChangeKind.ADDED,
            "notes/todo.txt",
            ChangeKind.DELETED,
            "tool.sh",
            ChangeKind.MODIFIED,
            "app_link.py",
            ChangeKind.ADDED,
            "same.txt",
            ChangeKind.MODIFIED,
            "gone/only.txt",
            ChangeKind.DELETED,
            "src/app.pyc",
            ChangeKind.ADDED),
        kinds,
        "every shell change, the ignored .pyc too (a small ignored file is indexed, issue 24)");
    assertTrue(changes.stream().allMatch(change -> change.detectedBy() == DetectedBy.SCAN));
    String patch = h.queries.patch(turn, List.of());
    assertTrue(patch.contains("-    return 1\n+    return 2\n"), patch);
    assertTrue(patch.contains("old mode 100644\nnew mode 100755"), patch);
    assertTrue(patch.contains("-AAAA\n+BBBB\n"), patch);
    assertTrue(patch.contains("new file mode 120000"), patch);

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(
        before,
        TreeContent.of(h.workspace.root()),
        "the tree is back exactly as it was, without the .pyc the turn made");
  }

  @Test
  void aCommittedFileThatGitignoreMatchesIsRecordedAndRewound() throws Exception {
    assumeTrue(Portability.current().readsProc(), "the posix mode reads no git index");
    // Homebrew's bin/brew: committed, matched by /bin in .gitignore, edited by a shell command in a
    // turn
    h.workspace
        .file(".gitignore", "/bin\n")
        .file("bin/brew", "#!/bin/sh\nexec ruby brew.rb \"$@\"\n")
        .file("bin/cache.log", "untracked and ignored\n")
        .file("README.md", "brew\n");
    sh(
        "git init -q && git add . && git add -f bin/brew && git -c user.name=t -c user.email=t@example.com"
            + " commit -qm first");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    Map<String, String> before = TreeContent.of(h.workspace.root());

    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    sh("sed -i 's/ruby/ruby -W0/' bin/brew && echo more >> bin/cache.log");
    h.capture.finishTurn(turn);

    List<StoredFileChange> changes = h.queries.records(turn).changes();
    assertEquals(
        Map.of("bin/brew", ChangeKind.MODIFIED),
        changes.stream()
            .collect(
                Collectors.toMap(
                    change -> change.path().display(), change -> change.change().orElseThrow())),
        "the committed file is recorded, the untracked ignored one is not");
    String patch = h.queries.patch(turn, List.of());
    assertTrue(patch.contains("-exec ruby brew.rb \"$@\"\n+exec ruby -W0 brew.rb \"$@\"\n"), patch);

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    Map<String, String> after = TreeContent.of(h.workspace.root());
    assertEquals(before.get("bin/brew"), after.get("bin/brew"), "bin/brew is back");
    after.put("bin/cache.log", before.get("bin/cache.log"));
    assertEquals(
        before, after, "the tree is back as it was, but for the ignored file no turn recorded");
  }

  /**
   * The demo peers win on (issue 24 item 2): {@code rm -rf src .env}, and the rewind gives {@code
   * .env} back byte for byte, though git ignores it. On a shared PostgreSQL store the default keeps
   * ignored files' stat and hash only: the deletion is recorded, the secret's bytes are nowhere in
   * the store, and the rewind names {@code .env} as not restored.
   */
  @Test
  void rmRfSrcAndDotEnvIsRewound() throws Exception {
    h.workspace
        .file(".gitignore", ".env\nnode_modules/\n*.link\n")
        .file("src/app.py", "print(1)\n")
        .file("src/lib/util.py", "x = 1\n")
        .file(".env", DOT_ENV)
        .file("node_modules/pkg/index.js", "module.exports = 1\n")
        // ignored links to the outside secret: indexed as links, never followed
        .symlink("secret.link", h.workspace.secret().toString())
        .hardlink("hard.link", h.workspace.secret());
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    assertFalse(
        indexed().contains("node_modules/pkg/index.js"),
        "a directory git ignores as a whole is not walked: " + indexed());
    assertTrue(indexed().contains(".env"), "an ignored file beside the sources is: " + indexed());

    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    sh("rm -rf src .env node_modules");
    h.capture.finishTurn(turn);

    Map<String, StoredFileChange> changes =
        h.queries.records(turn).changes().stream()
            .collect(Collectors.toMap(change -> change.path().display(), change -> change));
    assertEquals(
        List.of(".env", "src/app.py", "src/lib/util.py"),
        changes.keySet().stream().sorted().toList(),
        "node_modules was never indexed, so its deletion is not the turn's record");
    assertEquals(ChangeKind.DELETED, changes.get(".env").change().orElseThrow());

    RewindReport report = h.rewindTurn(turn);
    assertArrayEquals(
        "x = 1\n".getBytes(StandardCharsets.UTF_8), h.workspace.read("src/lib/util.py"));
    if (TestStore.onPostgres()) {
      // a shared store keeps ignored files' stat and hash only, unless track --ignored-files small
      assertEquals(
          Reason.IGNORED_NOT_STORED.code(),
          changes.get(".env").before().reason().orElseThrow().code(),
          changes.get(".env").toString());
      assertFalse(Files.exists(h.workspace.resolve(".env")), "nothing to put back");
      assertTrue(
          report.skipped().stream()
              .anyMatch(skipped -> skipped.path().equals(WorkspacePath.of(".env"))),
          "the rewind names what it could not restore: " + report);
      Canary.of(new String(DOT_ENV, 0, 29, StandardCharsets.UTF_8)).assertNotInStore(h.store);
    } else {
      assertArrayEquals(DOT_ENV, h.workspace.read(".env"), ".env is back byte for byte");
      assertTrue(report.complete(), report.toString());
    }
  }

  private List<String> indexed() throws Exception {
    String root = h.workspace.root().toRealPath().toString();
    long workspace = h.store.read(tx -> tx.workspaces().byRealRoot(root)).orElseThrow().id();
    return h.store.read(tx -> tx.indexes().entries(workspace)).keySet().stream()
        .map(WorkspacePath::display)
        .sorted()
        .toList();
  }
}
