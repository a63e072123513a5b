package io.turndiff.hooks.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.model.RequestException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A runtime's settings as a tree: turndiff's groups in and out, everything else kept. */
class RuntimeSettingsTest {

  private static final Path FILE = Path.of("/ws/.gemini/settings.json");
  private static final String COMMAND = "'/opt/turndiff/bin/turndiff-hook' gemini";

  private static RuntimeSettings parse(String text) {
    return RuntimeSettings.parse(FILE, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void mergeAppendsTurndiffsGroupAfterTheUsersAndKeepsKeyOrderAndNumbers() {
    RuntimeSettings settings =
        parse(
            "{\"z\": 1.50, \"hooks\": {\"BeforeTool\": [{\"matcher\": \"*\", \"hooks\": []}]},"
                + " \"a\": \"Grüße/☃\"}\n");
    RuntimeSettings.Merged merged = settings.merge(FILE, HookRuntime.GEMINI, COMMAND);
    assertEquals(1, merged.groupIndexes().get("BeforeTool"));
    assertEquals(0, merged.groupIndexes().get("BeforeAgent"));
    assertEquals(
        List.of("BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd"), merged.createdEvents());
    String text = settings.text();
    assertTrue(text.startsWith("{\n  \"z\": 1.50,\n  \"hooks\": {\n    \"BeforeTool\": [\n"), text);
    assertTrue(text.endsWith("  \"a\": \"Grüße/☃\"\n}\n"), text);
    assertTrue(text.contains("\"hooks\": []"), text);
    assertTrue(
        text.contains(
            "      {\n"
                + "        \"matcher\": \"^(write_file|replace|run_shell_command)$\",\n"
                + "        \"hooks\": [\n"
                + "          {\n"
                + "            \"name\": \"turndiff\",\n"
                + "            \"type\": \"command\",\n"
                + "            \"command\": \"'/opt/turndiff/bin/turndiff-hook' gemini\",\n"
                + "            \"timeout\": 30000\n"
                + "          }\n"
                + "        ]\n"
                + "      }\n"),
        text);
  }

  @Test
  void mergingTwiceIsMergingOnceAndAMovedCommandIsReplacedInPlace() {
    RuntimeSettings settings = parse("{}");
    settings.merge(FILE, HookRuntime.GEMINI, "'/old/bin/turndiff-hook' gemini");
    RuntimeSettings once = settings.copy();
    once.merge(FILE, HookRuntime.GEMINI, COMMAND);
    RuntimeSettings twice = once.copy();
    RuntimeSettings.Merged merged = twice.merge(FILE, HookRuntime.GEMINI, COMMAND);
    assertTrue(twice.sameTree(once));
    assertEquals(0, merged.groupIndexes().get("BeforeTool"));
    assertFalse(once.text().contains("/old/"), once.text());
    assertFalse(once.sameTree(settings));
  }

  @Test
  void removeTakesOutOnlyTurndiffsHandlersAndWhatInstallCreated() {
    String original =
        "{\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\n        \"matcher\": \"*\",\n"
            + "        \"hooks\": [\n          {\n            \"type\": \"command\",\n"
            + "            \"command\": \"mine\"\n          }\n        ]\n      }\n    ]\n  }\n}\n";
    RuntimeSettings settings = parse(original);
    RuntimeSettings.Merged merged = settings.merge(FILE, HookRuntime.GEMINI, COMMAND);
    int removed =
        settings.remove(
            HookRuntime.GEMINI, Set.copyOf(merged.createdEvents()), merged.createdHooks());
    assertEquals(5, removed, "BeforeAgent, BeforeTool, AfterTool, AfterAgent, SessionEnd");
    assertEquals(original, settings.text());
  }

  /**
   * An upgrade that registers a new event (the Post hook of a shell call) over an install without
   * it creates that event's array: merged again, it says so, so that the ledger keeps it and
   * uninstall takes it out (before, the update kept the first install's created events only, and
   * the array stayed behind, empty).
   */
  @Test
  void mergingOverAnInstallWithoutTheNewEventSaysItCreatedItsArray() throws Exception {
    String claude = "'/opt/turndiff/bin/turndiff-hook' claude-code";
    RuntimeSettings settings = parse("{}");
    RuntimeSettings.Merged first = settings.merge(FILE, HookRuntime.CLAUDE_CODE, claude);
    ObjectNode older = (ObjectNode) new ObjectMapper().readTree(settings.text());
    ((ObjectNode) older.get("hooks")).remove("PostToolUse");
    RuntimeSettings upgraded = parse(older.toString());
    RuntimeSettings.Merged update = upgraded.merge(FILE, HookRuntime.CLAUDE_CODE, claude);
    assertEquals(List.of("PostToolUse"), update.createdEvents());
    Set<String> recorded = new HashSet<>(first.createdEvents());
    recorded.addAll(update.createdEvents());
    upgraded.remove(HookRuntime.CLAUDE_CODE, recorded, first.createdHooks());
    assertTrue(upgraded.sameTree(parse("{}")), upgraded.text());
  }

  @Test
  void removeKeepsAHandlerTheUserPutIntoTurndiffsGroup() {
    RuntimeSettings settings = parse("{}");
    RuntimeSettings.Merged merged =
        settings.merge(FILE, HookRuntime.CODEX, "'/opt/turndiff/bin/turndiff-hook' codex");
    String withMine =
        settings
            .text()
            .replace(
                "\"timeout\": 3\n          }\n",
                "\"timeout\": 3\n          },\n          {\"type\": \"command\", \"command\": \"mine\"}\n");
    RuntimeSettings edited = parse(withMine);
    edited.remove(HookRuntime.CODEX, Set.copyOf(merged.createdEvents()), merged.createdHooks());
    assertEquals(
        "{\n  \"hooks\": {\n    \"SessionEnd\": [\n      {\n        \"hooks\": [\n          {\n"
            + "            \"type\": \"command\",\n            \"command\": \"mine\"\n"
            + "          }\n        ]\n      }\n    ]\n  }\n}",
        edited.text(),
        "no final newline, as in the file it came from");
  }

  @Test
  void whatIsNotOneJsonObjectIsRefusedAsBadInput() {
    for (String bad :
        new String[] {
          "{\"a\": 1,}",
          "// comment\n{}",
          "[1]",
          "{\"a\": 1} {\"b\": 2}",
          "{\"a\": 1, \"a\": 2}",
          "{\"hooks\": []}",
          "{\"hooks\": {\"BeforeTool\": {}}}"
        }) {
      RequestException refused =
          assertThrows(
              RequestException.class,
              () -> parse(bad).merge(FILE, HookRuntime.GEMINI, COMMAND),
              bad);
      assertEquals(RequestException.Problem.BAD_INPUT, refused.problem(), bad);
      assertTrue(
          refused.getMessage().startsWith("cannot install into " + FILE + ": "),
          refused.getMessage());
    }
    RequestException notUtf8 =
        assertThrows(
            RequestException.class,
            () -> RuntimeSettings.parse(FILE, new byte[] {'{', '"', (byte) 0xff, '"', '}'}));
    assertTrue(notUtf8.getMessage().contains("not UTF-8"), notUtf8.getMessage());
  }

  @Test
  void anEmptiedFileIsAnEmptyObject() {
    assertEquals("{}\n", parse("").text());
    assertEquals("{}\n", parse("  \n").text());
  }

  @Test
  void theTurndiffCommandIsRecognizedWhereverTheScriptIs() {
    assertTrue(HookRuntime.CODEX.isTurndiffCommand("'/a b/bin/turndiff-hook' codex"));
    assertTrue(HookRuntime.CODEX.isTurndiffCommand("/x/turndiff-hook codex --git-root"));
    assertFalse(HookRuntime.CODEX.isTurndiffCommand("'/x/bin/turndiff-hook' codexx"));
    assertFalse(HookRuntime.CODEX.isTurndiffCommand("'/x/bin/turndiff-hook' gemini"));
    assertTrue(HookRuntime.CODEX.isTurndiffCommand("'/a b/bin/turndiff-hook-client' codex"));
    assertTrue(HookRuntime.GEMINI.isTurndiffCommand("/x/turndiff-hook-client gemini --auto-track"));
    assertFalse(HookRuntime.CODEX.isTurndiffCommand("'/x/bin/turndiff-hook-client' gemini"));
    assertFalse(HookRuntime.CODEX.isTurndiffCommand("'/x/bin/turndiff-hook-clients' codex"));
  }

  private static final McpServer SERVER =
      new McpServer(Path.of("/opt/turndiff/turndiff"), Path.of("/ws"));

  @Test
  void theMcpServerGoesInBesideTheUsersAndComesOutLeavingTheFileAsItWas() {
    String original =
        "{\n  \"mcpServers\": {\n    \"db\": {\n      \"command\": \"pg-mcp\"\n    }\n  }\n}\n";
    RuntimeSettings settings = parse(original);
    assertEquals(List.of(), settings.mergeMcpServer(FILE, SERVER), "mcpServers was there");
    assertEquals(
        "{\n  \"mcpServers\": {\n    \"db\": {\n      \"command\": \"pg-mcp\"\n    },\n"
            + "    \"turndiff\": {\n      \"command\": \"/opt/turndiff/turndiff\",\n"
            + "      \"args\": [\n        \"mcp\",\n        \"--workspace\",\n        \"/ws\"\n"
            + "      ]\n    }\n  }\n}\n",
        settings.text());
    RuntimeSettings again = settings.copy();
    again.mergeMcpServer(FILE, SERVER);
    assertTrue(again.sameTree(settings), "merging twice is merging once");
    assertTrue(settings.removeMcpServer(Set.of()));
    assertEquals(original, settings.text());
    assertFalse(settings.removeMcpServer(null), "nothing of turndiff's left to take out");
  }

  @Test
  void theKeysTheMcpServerCreatedGoWithItAndAMovedCheckoutsEntryIsReplaced() {
    RuntimeSettings settings =
        parse(
            "{\"mcpServers\": {\"turndiff\": {\"command\":"
                + " \"/old/checkout/turndiff\", \"args\": [\"mcp\"]}}}\n");
    assertEquals(List.of(), settings.mergeMcpServer(FILE, SERVER));
    assertEquals(
        "/opt/turndiff/turndiff",
        settings.mcpServer().orElseThrow().path("command").asText(),
        "the old checkout's entry replaced in place");
    RuntimeSettings empty = parse("{}");
    assertEquals(List.of("mcpServers"), empty.mergeMcpServer(FILE, SERVER));
    assertEquals(List.of("enabledMcpjsonServers"), empty.approveMcpServer(FILE));
    assertTrue(empty.approvesMcpServer());
    assertTrue(empty.removeMcpServer(Set.of("mcpServers", "enabledMcpjsonServers")));
    assertEquals("{}", empty.text());
  }

  @Test
  void anMcpServerNamedTurndiffThatIsNotTurndiffsIsRefusedAndKept() {
    String text = "{\"mcpServers\": {\"turndiff\": {\"command\": \"npx\", \"args\": [\"x\"]}}}";
    RuntimeSettings settings = parse(text);
    RequestException refused =
        assertThrows(RequestException.class, () -> settings.mergeMcpServer(FILE, SERVER));
    assertTrue(refused.getMessage().contains("that is not turndiff's"), refused.getMessage());
    assertFalse(settings.removeMcpServer(null), "not turndiff's: uninstall leaves it");
    assertTrue(settings.mcpServer().isEmpty());
    assertEquals(parse(text).text(), settings.text());
  }
}
