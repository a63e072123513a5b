package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.mcp.TurndiffMcpServer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff mcp [--workspace DIR] [--session ID]}: the MCP server a runtime starts ({@code
 * hooks install} registers it), on standard input and output until the input ends. The output is
 * the protocol's: in the process, {@code System.out} is pointed at standard error while it runs, so
 * that nothing else (a library's print) can land in it.
 */
@Command(
    name = "mcp",
    description =
        "Serve the Model Context Protocol on standard input and output, for the agent itself: "
            + "list, show, diff and rewind (plan, then apply with the plan's token) the turns of "
            + "its own session. A runtime starts it (hooks install registers it); logs go to "
            + "standard error.")
final class McpCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Option(
      names = "--session",
      paramLabel = "ID",
      description =
          "Serve this session (default: the one whose turn is open in the workspace when the "
              + "agent first calls a tool).")
  String session;

  @Override
  public Integer call() throws InterruptedException {
    StoreOptions stores = StoreOptions.of(spec);
    Main.Output output = Main.output(spec);
    PrintStream log = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    TurndiffMcpServer server =
        new TurndiffMcpServer(
            stores::open, Optional.ofNullable(session), workspace.orCurrentDirectory(), log);
    if (!output.process()) {
      server.serve(System.in, output.stream(), Main.VERSION);
      return ExitCode.OK.code();
    }
    PrintStream protocol = System.out;
    System.setOut(System.err);
    try {
      server.serve(System.in, protocol, Main.VERSION);
    } finally {
      System.setOut(protocol);
    }
    return ExitCode.OK.code();
  }
}
