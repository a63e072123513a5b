package io.turndiff.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.turndiff.api.InvalidRequest;
import io.turndiff.api.Turndiff;
import io.turndiff.model.RequestException;
import io.turndiff.store.StoreException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Phaser;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The MCP server of {@code turndiff mcp}: its four tools over the streams it is given (the
 * process's standard input and output), until the input ends.
 *
 * <p>Each call opens the store ({@code stores}), answers, and closes it. A refusal ({@link
 * ToolError}, a request or store error) is a tool result marked as an error whose text names the
 * problem; anything else is named by its class only, its trace written to {@code log} (standard
 * error), never to the protocol's stream.
 */
public final class TurndiffMcpServer {

  private final Supplier<Turndiff> stores;
  private final TurnTools tools;
  private final PrintStream log;

  /** The calls being answered: the server closes only once each has its answer. */
  private final Phaser calls = new Phaser(1);

  /**
   * A server over the stores {@code stores} opens, serving the session {@code session} names, or
   * else the one with an open turn in {@code workspace} ({@link AgentSession}).
   */
  public TurndiffMcpServer(
      Supplier<Turndiff> stores, Optional<String> session, Path workspace, PrintStream log) {
    this.stores = stores;
    this.tools = new TurnTools(new AgentSession(session, workspace));
    this.log = log;
  }

  /** Serves the protocol on {@code in} and {@code out} until {@code in} ends. */
  public void serve(InputStream in, OutputStream out, String version) throws InterruptedException {
    EndOfInput input = new EndOfInput(in);
    McpJsonMapper json = McpJsonDefaults.getMapper();
    McpSyncServer server =
        McpServer.sync(new StdioServerTransportProvider(json, input, out))
            .serverInfo("turndiff", version)
            .instructions(
                "turndiff records every turn of this session: what each tool call changed, file"
                    + " by file. list_turns, show_turn and diff read it; rewind puts a turn's files"
                    + " back, by a plan first and then the same call with the plan's token.")
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
            .validateToolInputs(false)
            .tools(specifications())
            .build();
    try {
      input.awaitEnd();
      // a runtime may close the input right after its last call: that call is still answered
      calls.arriveAndAwaitAdvance();
    } finally {
      server.closeGracefully();
    }
  }

  private List<SyncToolSpecification> specifications() {
    return List.of(
        tool(ToolSchemas.listTurns(), tools::listTurns),
        tool(ToolSchemas.showTurn(), tools::showTurn),
        tool(ToolSchemas.diff(), tools::diff),
        tool(ToolSchemas.rewind(), tools::rewind));
  }

  private SyncToolSpecification tool(
      McpSchema.Tool tool, BiFunction<Turndiff, Map<String, Object>, String> call) {
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> answer(tool.name(), call, request.arguments()))
        .build();
  }

  /** One call: the store opened for it, the answer as text, or the refusal as an error result. */
  private CallToolResult answer(
      String name,
      BiFunction<Turndiff, Map<String, Object>, String> call,
      Map<String, Object> arguments) {
    calls.register();
    try (Turndiff turndiff = stores.get()) {
      return CallToolResult.builder().addTextContent(call.apply(turndiff, arguments)).build();
    } catch (ToolError | InvalidRequest | RequestException | StoreException refused) {
      return error("turndiff: " + refused.getMessage());
    } catch (RuntimeException failure) {
      log.println("turndiff mcp: internal error in " + name + ": " + failure);
      failure.printStackTrace(log);
      return error("turndiff: internal error in " + name + ": " + failure.getClass().getName());
    } finally {
      calls.arriveAndDeregister();
    }
  }

  private static CallToolResult error(String text) {
    return CallToolResult.builder().addTextContent(text).isError(true).build();
  }
}
