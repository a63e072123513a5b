package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A call builds only the command it names, and the command line means what it meant when picocli
 * was given every command: help lists them all, options before the command still apply.
 */
class CommandChoiceTest {

  private static List<Class<?>> needed(String... args) {
    CommandSpec root = new CommandLine(new Main()).getCommandSpec();
    return CommandChoice.needed(root, Main.COMMANDS, args);
  }

  @Test
  void theNamedCommandAloneIsBuilt() {
    assertEquals(List.of(ShowCommand.class), needed("show", "--turn", "t"));
    assertEquals(List.of(StatusCommand.class), needed("--db", "f.db", "status"));
    assertEquals(List.of(StatusCommand.class), needed("--db=f.db", "--full-hash", "status"));
  }

  @Test
  void anOptionsValueIsNotTakenForTheCommand() {
    // --db's value is "show": the command is status
    assertEquals(List.of(StatusCommand.class), needed("--db", "show", "status"));
    assertEquals(
        List.of(TurnsCommand.class), needed("--size-limit", "10", "--boundary", "gc", "turns"));
  }

  @Test
  void aBareVersionBuildsNoCommand() {
    assertEquals(List.of(), needed("--version"));
    assertEquals(List.of(), needed("--db", "f.db", "-V"));
  }

  @Test
  void helpAMissingOrUnknownCommandAndUnreadableArgumentsBuildEveryCommand() {
    assertEquals(Main.COMMANDS, needed());
    assertEquals(Main.COMMANDS, needed("--help"));
    assertEquals(Main.COMMANDS, needed("--version", "-h"));
    assertEquals(Main.COMMANDS, needed("--db", "f.db"));
    assertEquals(Main.COMMANDS, needed("shwo"));
    assertEquals(Main.COMMANDS, needed("-hV"));
    assertEquals(Main.COMMANDS, needed("--", "show"));
  }

  @Test
  void helpListsEveryCommand() {
    CommandRun help = CliRun.inProcess("--help").expect(0);
    for (Class<?> command : Main.COMMANDS) {
      Command annotation = command.getAnnotation(Command.class);
      if (!annotation.hidden()) {
        assertTrue(
            help.out().matches("(?s).*\\n  " + annotation.name() + "[ ,].*"),
            annotation.name() + " in " + help.out());
      }
    }
  }

  @Test
  void aMisspeltCommandIsStillNamedWithSuggestions() {
    CommandRun run = CliRun.inProcess("shwo").expect(2);
    assertTrue(run.err().contains("shwo"), run.err());
    assertTrue(run.err().contains("show"), run.err());
  }

  @Test
  void versionAndOptionsBeforeTheCommandStillWork(@TempDir Path dir) {
    assertEquals("turndiff " + Main.VERSION, CliRun.inProcess("--version").expect(0).out().strip());
    String db = dir.resolve("s.db").toString();
    Path workspace = dir.resolve("w");
    assertTrue(workspace.toFile().mkdir());
    CliRun.inProcess(
            "--db", db, "turn", "begin", "--workspace", workspace.toString(), "--session", "s1")
        .expect(0);
    // the store option before the command and after it names the same store
    CommandRun before = CliRun.inProcess("--db", db, "turns", "--workspace", workspace.toString());
    CommandRun after = CliRun.inProcess("turns", "--workspace", workspace.toString(), "--db", db);
    assertEquals(before.expect(0).out(), after.expect(0).out());
    assertTrue(before.out().contains("s1"), before.out());
  }
}
