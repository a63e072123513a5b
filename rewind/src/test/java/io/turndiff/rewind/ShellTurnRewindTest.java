package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn whose only changes are made by real shell commands, in a tracked workspace: every change
 * is recorded with a correct diff, and rewinding the turn gives back the tree exactly as it was.
 */
class ShellTurnRewindTest {

  @TempDir Path temp;

  private RewindHarness h;

  @BeforeEach
  void open() {
    h = new RewindHarness(temp);
  }

  @AfterEach
  void canary() {
    h.closeCheckingCanary();
  }

  private void sh(String script) throws Exception {
    Process process =
        new ProcessBuilder("sh", "-c", script)
            .directory(h.workspace.root().toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), script + ": " + output);
  }

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
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
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
            ChangeKind.DELETED),
        kinds,
        "every shell change, and not the ignored .pyc");
    assertTrue(changes.stream().allMatch(change -> change.detectedBy() == DetectedBy.SCAN));
    String patch = h.queries.patch(turn, List.of());
    assertTrue(patch.contains("-    return 1\n+    return 2\n"), patch);
    assertTrue(patch.contains("old mode 100644\nnew mode 100755"), patch);
    assertTrue(patch.contains("-AAAA\n+BBBB\n"), patch);
    assertTrue(patch.contains("new file mode 120000"), patch);

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    Map<String, String> after = TreeContent.of(h.workspace.root());
    after.remove("src/app.pyc");
    assertEquals(
        before, after, "the tree is back exactly as it was (the ignored .pyc was never recorded)");
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
}
