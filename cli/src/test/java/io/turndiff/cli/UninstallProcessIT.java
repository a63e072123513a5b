package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.service.ProcessStart;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff uninstall} as a real process on real settings files, with real services: the
 * hooks come out of every file the record lists (the bytes that were there before install, or no
 * file), every service of the user is stopped, the stores stay unless {@code --purge}; when a hook
 * cannot be taken out nothing else is touched. The program here is the checkout, which stays (the
 * installed layouts are removed in the dist module's tests).
 */
class UninstallProcessIT {

  @TempDir Path temp;

  private UserSandbox user;
  private Path workspace;

  @BeforeEach
  void setUp() throws Exception {
    user = UserSandbox.in(temp);
    workspace = Files.createDirectories(temp.resolve("ws"));
  }

  @AfterEach
  void tearDown() {
    user.killServices();
  }

  private CommandRun turndiff(String... args) throws Exception {
    return user.run(null, args);
  }

  private void installClaudeHooks() throws Exception {
    user.installWorkspaceHooks("claude-code", workspace).expect(0);
  }

  /** The settings the user had before turndiff's hooks came in. */
  private static final byte[] CLAUDE_SETTINGS =
      "{\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}".getBytes(StandardCharsets.UTF_8);

  private Path claudeSettings() throws Exception {
    Path file = workspace.resolve(".claude/settings.local.json");
    Files.createDirectories(file.getParent());
    Files.write(file, CLAUDE_SETTINGS);
    return file;
  }

  @Test
  void takesOutEveryRecordedHookStopsEveryServiceAndKeepsTheStores() throws Exception {
    Path claude = claudeSettings();
    Path gemini = user.home().resolve(".gemini/settings.json");
    installClaudeHooks();
    turndiff("hooks", "install", "--runtime", "gemini", "--user").expect(0);
    assertTrue(Files.readString(claude).contains("turndiff-hook"), Files.readString(claude));
    assertTrue(Files.exists(gemini));
    long service = user.startService();
    Path other = temp.resolve("elsewhere/other.db");
    long otherService = user.startService("--db", other.toString());

    CommandRun uninstall = turndiff("uninstall").expect(0);

    assertArrayEquals(CLAUDE_SETTINGS, Files.readAllBytes(claude), "the settings as they were");
    assertFalse(Files.exists(gemini), gemini + " was made by install: gone");
    assertEquals(
        0,
        Json.mapper()
            .readTree(Files.readAllBytes(temp.resolve("state/turndiff/hooks-installed.json")))
            .get("installations")
            .size());
    assertFalse(ProcessStart.running(service), uninstall.out());
    assertFalse(
        ProcessStart.running(otherService), "the other store's service: " + uninstall.out());
    assertTrue(Files.exists(user.data().resolve("turndiff/turndiff.db")), "the store stays");
    assertTrue(Files.exists(other), "the other store stays");
    assertTrue(
        uninstall
            .out()
            .contains("the program stays: " + UserSandbox.checkout() + " was not installed"),
        uninstall.out());
    // the order: hooks, then services, then the program
    String out = uninstall.out();
    assertTrue(
        out.indexOf("restored " + claude) < out.indexOf("stopped the service")
            && out.indexOf("stopped the service") < out.indexOf("the program stays"),
        out);
  }

  @Test
  void aHookThatCannotBeTakenOutStopsEverythingElse() throws Exception {
    Path claude = claudeSettings();
    installClaudeHooks();
    // the user broke the file since: it is not JSON any more, so turndiff's part cannot be found
    String broken = Files.readString(claude) + "\n// a comment JSON does not allow\n";
    Files.writeString(claude, broken);
    long service = user.startService();

    CommandRun uninstall = turndiff("uninstall");

    assertEquals(1, uninstall.exitCode(), uninstall.out() + uninstall.err());
    assertTrue(uninstall.err().contains(claude.toString()), uninstall.err());
    assertTrue(uninstall.err().contains("Nothing else was removed"), uninstall.err());
    assertEquals(broken, Files.readString(claude));
    assertTrue(ProcessStart.running(service), "the service was stopped");
  }

  @Test
  void purgeDeletesTurndiffsOwnFoldersAndNamesAStoreElsewhere() throws Exception {
    Path workspaceStore = user.data().resolve("turndiff/turndiff.db");
    turndiff("turn", "begin", "--workspace", workspace.toString()).expect(0);
    assertTrue(Files.exists(workspaceStore));
    Path elsewhere = temp.resolve("elsewhere/kept.db");
    // a store named by --db, made by the command in this JVM (StoreCommands): the purge is the
    // process this test is about
    StoreCommands.run(elsewhere, "turn", "begin", "--workspace", workspace.toString()).expect(0);
    turndiff("hooks", "install", "--runtime", "gemini", "--user").expect(0);

    CommandRun purged = turndiff("--db", elsewhere.toString(), "uninstall", "--purge").expect(0);

    assertFalse(Files.exists(user.data().resolve("turndiff")), purged.out());
    assertFalse(Files.exists(temp.resolve("state/turndiff")), purged.out());
    assertFalse(Files.exists(temp.resolve("run/turndiff")), purged.out());
    assertTrue(Files.exists(elsewhere), "a store outside turndiff's folder stays");
    assertTrue(
        purged.out().contains("the store " + elsewhere + " is not in turndiff's own folder"),
        purged.out());
  }
}
