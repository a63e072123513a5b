package io.turndiff.cli;

import io.turndiff.capture.RequestException;
import io.turndiff.store.StoreException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code turndiff} command. Machine commands print JSON on stdout, errors go to stderr, and the exit
 * code is 0 on success, 2 for bad usage or input that can never be valid, 3 when a rewind skipped files,
 * and 1 for every other error.
 */
@Command(name = "turndiff", mixinStandardHelpOptions = true, scope = picocli.CommandLine.ScopeType.INHERIT,
    version = "turndiff 0.1.0",
    description = "Per-turn file snapshots, diffs and safe rewinds for AI coding-agent runtimes.",
    subcommands = {
        TurnCommand.class,
        SnapshotCommand.class,
        ShowCommand.class,
        DiffCommand.class,
        TurnsCommand.class,
        LogCommand.class,
        RewindCommand.class,
        TrackCommand.class,
        StatusCommand.class,
        ServeCommand.class,
        BenchCommand.class,
        DemoCommand.class
    })
public final class Main {

  public static final int EXIT_OK = 0;
  public static final int EXIT_ERROR = 1;
  public static final int EXIT_USAGE = 2;

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    System.exit(run(args, out, err));
  }

  /** Runs one command line with the given streams; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine commandLine = new CommandLine(new Main());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler((exception, line, parseResult) -> {
      if (exception instanceof RequestException capture) {
        err.println("turndiff: " + capture.getMessage());
        return capture.problem() == RequestException.Problem.BAD_INPUT ? EXIT_USAGE : EXIT_ERROR;
      }
      if (exception instanceof StoreException store) {
        err.println("turndiff: " + store.getMessage());
        return EXIT_ERROR;
      }
      if (exception instanceof CliException cli) {
        err.println("turndiff: " + cli.getMessage());
        return cli.exitCode();
      }
      err.println("turndiff: unexpected error: " + exception);
      exception.printStackTrace(err);
      return EXIT_ERROR;
    });
    return commandLine.execute(args);
  }
}
