package io.turndiff.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.capture.BeganTurn;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.PathInput;
import io.turndiff.store.StoreAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff mcp} in-process: the server on a thread, a client over two pipes, a real store
 * and real files. The agent's session has a finished turn that changed {@code src/app.txt} and
 * added {@code src/new.txt}, and an open turn (the one the agent is in when it calls a tool);
 * another session of the same workspace has a finished turn of its own.
 */
class TurndiffMcpServerTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private StoreAddress address;
  private Turndiff turndiff;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private String session;
  private String turn;
  private String otherTurn;

  @BeforeEach
  void turns() throws IOException {
    workspace = TestWorkspace.in(temp.resolve("base")).file("src/app.txt", "v1\n");
    address = TestStore.freshAddressIn(temp);
    turndiff = Turndiff.builder(address).open();
    BeganTurn other =
        turndiff.capture().beginTurn(workspace.root(), Optional.empty(), Optional.empty());
    otherTurn = other.turn();
    change(otherTurn, "other.txt", "theirs\n");
    turndiff.capture().finishTurn(otherTurn);

    BeganTurn first =
        turndiff.capture().beginTurn(workspace.root(), Optional.empty(), Optional.empty());
    session = first.session();
    turn = first.turn();
    change(turn, "src/app.txt", "v2\n");
    change(turn, "src/new.txt", "new\n");
    turndiff.capture().finishTurn(turn);
    // the agent's current turn, open while it calls the tools
    turndiff.capture().beginTurn(workspace.root(), Optional.of(session), Optional.empty());
  }

  @AfterEach
  void canary() {
    turndiff.close();
    workspace.assertOutsideUnchanged();
    if (!TestStore.onPostgres()) {
      workspace.canary().assertNotInStoreFiles(TestStore.fileIn(temp));
    }
    workspace.canary().assertNotIn("the server's log", log.toString(StandardCharsets.UTF_8));
  }

  private void change(String turnId, String path, String content) throws IOException {
    turndiff.capture().snapshot(turnId, Optional.empty(), List.of(PathInput.text(path)));
    Path file = workspace.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  private McpClientOverPipes client() throws IOException {
    TurndiffMcpServer server =
        new TurndiffMcpServer(
            () -> Turndiff.builder(address).open(),
            Optional.empty(),
            workspace.root(),
            new PrintStream(log, true, StandardCharsets.UTF_8));
    return new McpClientOverPipes(server);
  }

  private static ObjectNode turnArgument(String turn) {
    return Json.object().put("turn", turn);
  }

  @Test
  void listsShowsAndDiffsTheAgentsOwnSessionsTurns() throws IOException {
    try (McpClientOverPipes mcp = client()) {
      assertEquals(List.of("list_turns", "show_turn", "diff", "rewind"), mcp.toolNames());

      JsonNode page = mcp.answered("list_turns", Json.object()).json();
      assertEquals(session, page.path("session").asText(), page.toString());
      assertEquals(2, page.path("turns").size(), page.toString());
      assertEquals(turn, page.path("turns").get(0).path("turn").asText(), page.toString());
      assertFalse(page.toString().contains(otherTurn), "another session's turn is not listed");

      String shown = mcp.answered("show_turn", turnArgument(turn)).text();
      assertTrue(shown.contains("src/app.txt") && shown.contains("src/new.txt"), shown);

      String patch = mcp.answered("diff", turnArgument(turn)).text();
      assertTrue(patch.contains("-v1") && patch.contains("+v2"), patch);
      String onePath =
          mcp.answered("diff", turnArgument(turn).set("paths", Json.array().add("src/new.txt")))
              .text();
      assertTrue(onePath.contains("+new") && !onePath.contains("+v2"), onePath);

      // a path that leaves the workspace is refused, naming it, and nothing outside is read
      String out =
          mcp.refused(
              "diff", turnArgument(turn).set("paths", Json.array().add("../outside/secret.txt")));
      assertTrue(out.contains("secret.txt"), out);
      for (String line : mcp.lines()) {
        workspace.canary().assertNotIn("the protocol's output", line);
      }
    }
  }

  @Test
  void aPlansTokenAppliesItAndTheRewindIsUndoneTheSameWay() throws IOException {
    try (McpClientOverPipes mcp = client()) {
      JsonNode plan = mcp.answered("rewind", turnArgument(turn)).json();
      assertTrue(plan.path("report").path("dry_run").asBoolean(), plan.toString());
      assertEquals(
          "[\"src/app.txt\",\"src/new.txt\"]", plan.path("report").path("restored").toString());
      // the plan wrote nothing
      assertEquals("v2\n", workspace.readText("src/app.txt"));
      assertTrue(Files.exists(workspace.resolve("src/new.txt")));

      String token = plan.path("token").asText();
      JsonNode applied = mcp.answered("rewind", turnArgument(turn).put("token", token)).json();
      assertFalse(applied.path("report").path("dry_run").asBoolean(), applied.toString());
      assertEquals("v1\n", workspace.readText("src/app.txt"));
      assertFalse(Files.exists(workspace.resolve("src/new.txt")));

      // undoable: the rewind is a turn of this session, rewound by plan and token too
      String rewindTurn = applied.path("report").path("rewind_turn").asText();
      assertTrue(applied.path("next").asText().contains(rewindTurn), applied.toString());
      JsonNode undoPlan = mcp.answered("rewind", turnArgument(rewindTurn)).json();
      mcp.answered(
          "rewind", turnArgument(rewindTurn).put("token", undoPlan.path("token").asText()));
      assertEquals("v2\n", workspace.readText("src/app.txt"));
      assertEquals("new\n", workspace.readText("src/new.txt"));

      // a token applied once does not apply twice
      String again = mcp.refused("rewind", turnArgument(turn).put("token", token));
      assertTrue(again.contains(turn), again);
    }
  }

  @Test
  void aStaleTokenIsRefusedAndTheFileChangedSinceThePlanIsKept() throws IOException {
    try (McpClientOverPipes mcp = client()) {
      String token = mcp.answered("rewind", turnArgument(turn)).json().path("token").asText();
      Files.writeString(workspace.resolve("src/app.txt"), "the user's edit\n");

      String stale = mcp.refused("rewind", turnArgument(turn).put("token", token));
      assertTrue(stale.contains("no longer as planned"), stale);
      assertEquals("the user's edit\n", workspace.readText("src/app.txt"));
      assertTrue(Files.exists(workspace.resolve("src/new.txt")), "nothing was written");

      // the plan now leaves the edited file (never forced) and has another token
      JsonNode replanned = mcp.answered("rewind", turnArgument(turn)).json();
      assertNotEquals(token, replanned.path("token").asText());
      assertEquals(
          "src/app.txt",
          replanned.path("report").path("skipped").get(0).path("path").asText(),
          replanned.toString());
      mcp.answered("rewind", turnArgument(turn).put("token", replanned.path("token").asText()));
      assertEquals("the user's edit\n", workspace.readText("src/app.txt"));
      assertFalse(Files.exists(workspace.resolve("src/new.txt")));
    }
  }

  @Test
  void anotherSessionsTurnAForceAndBadArgumentsAreRefusedNamingThem() throws IOException {
    try (McpClientOverPipes mcp = client()) {
      String other = mcp.refused("rewind", turnArgument(otherTurn));
      assertTrue(other.contains(otherTurn) && other.contains("not of this agent's session"), other);
      String otherShown = mcp.refused("show_turn", turnArgument(otherTurn));
      assertTrue(otherShown.contains("not of this agent's session"), otherShown);
      assertEquals("theirs\n", workspace.readText("other.txt"));

      String forced = mcp.refused("rewind", turnArgument(turn).put("force", true));
      assertTrue(forced.contains("does not take force"), forced);
      String misspelt = mcp.refused("rewind", turnArgument(turn).put("dryrun", true));
      assertTrue(misspelt.contains("dryrun"), misspelt);
      String wrongType = mcp.refused("rewind", turnArgument(turn).put("to", "yes"));
      assertTrue(wrongType.contains("'to' must be true or false"), wrongType);
      String missing = mcp.refused("diff", Json.object());
      assertTrue(missing.contains("needs 'turn'"), missing);
      String unknown = mcp.refused("show_turn", turnArgument("turn-that-is-not-there"));
      assertTrue(unknown.contains("turn-that-is-not-there"), unknown);
      assertEquals("v2\n", workspace.readText("src/app.txt"));
    }
    assertEquals("", log.toString(StandardCharsets.UTF_8), "no internal error was logged");
  }
}
