package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Turndiff;
import io.turndiff.model.RequestException;
import io.turndiff.model.TestHook;
import io.turndiff.store.StoreException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExecutionException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * The {@code turndiff} command. Machine commands print JSON on stdout, errors go to stderr, and the
 * exit code is one of the documented {@link ExitCode}s. No error prints a stack trace: every one is
 * a line naming what failed.
 */
@Command(
    name = "turndiff",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    version = "turndiff " + Main.VERSION,
    description = "Per-turn file snapshots, diffs and safe rewinds for AI coding-agent runtimes.")
public final class Main {

  /**
   * The commands, in the order {@code --help} lists them. A call builds only the one its arguments
   * name ({@link CommandChoice}): picocli reflects over every command it is given, about half a
   * second for all of them at every start.
   */
  static final List<Class<?>> COMMANDS =
      List.of(
          TurnCommand.class,
          SnapshotCommand.class,
          ShowCommand.class,
          DiffCommand.class,
          TurnsCommand.class,
          LogCommand.class,
          BlameCommand.class,
          RewindCommand.class,
          UndoCommand.class,
          ExportCommand.class,
          TrackCommand.class,
          StatusCommand.class,
          DuCommand.class,
          GcCommand.class,
          ConfigCommand.class,
          ServeCommand.class,
          ServiceCommand.class,
          HooksCommand.class,
          OpenCommand.class,
          UninstallCommand.class,
          DoctorCommand.class,
          McpCommand.class,
          BenchPlaceholder.class,
          DemoCommand.class);

  /** The version {@code --version} prints and the per-user service reports. */
  public static final String VERSION = "0.1.0";

  /**
   * {@code --db} and the other store options, inherited by every command (see {@link
   * StoreOptions}).
   */
  @Mixin StoreOptions storeOptions;

  /**
   * Whether the command writes to the process's own standard streams ({@link #launch}), which alone
   * can be a terminal.
   */
  private boolean processStreams;

  /** Where the output goes, once a command asked ({@link #terminal(CommandSpec)}). */
  private Terminal terminal;

  /** The standard output as bytes, for a command whose output is a protocol ({@code mcp}). */
  private PrintStream out;

  /**
   * The directory a command without {@code --workspace} works in: the process's, or the client's
   * for a command the service runs ({@link ServedCommands}).
   */
  private Path workingDirectory;

  /** The working directory of the command line {@code command} belongs to (absolute). */
  static Path currentDirectory(CommandSpec command) {
    Main main = (Main) command.root().userObject();
    return main.workingDirectory != null ? main.workingDirectory : Path.of("").toAbsolutePath();
  }

  /**
   * The terminal of the command line {@code command} belongs to: {@link Terminal#NONE} unless the
   * process's own streams are one. Looked at only by the commands with a human view, so the others
   * start without asking.
   */
  static Terminal terminal(CommandSpec command) {
    Main main = (Main) command.root().userObject();
    if (main.terminal == null) {
      main.terminal = main.processStreams ? Terminal.ofProcess(System.getenv()) : Terminal.NONE;
    }
    return main.terminal;
  }

  /**
   * The standard output of the command line {@code command} belongs to, as bytes, and whether it is
   * the process's own ({@code turndiff mcp} writes the protocol there and nothing else).
   */
  static Output output(CommandSpec command) {
    Main main = (Main) command.root().userObject();
    return new Output(main.out, main.processStreams);
  }

  /** {@link #output(CommandSpec)}: the stream, and whether it is the process's standard output. */
  record Output(PrintStream stream, boolean process) {}

  public static void main(String[] args) {
    launch(args, commands -> {});
  }

  /**
   * Runs one command line on the process's standard output and error, and exits with its code.
   *
   * @param adapt changes the commands first (the bench jar puts its {@code bench} in place of the
   *     placeholder)
   */
  public static void launch(String[] args, Consumer<CommandLine> adapt) {
    PrintStream out = StandardStreams.out();
    PrintStream err = StandardStreams.err();
    // a failure on another thread (the service's shutdown, a worker) is reported as a line too
    Thread.setDefaultUncaughtExceptionHandler(
        (thread, failure) ->
            err.println(
                "turndiff: unexpected error in " + thread.getName() + ": " + describe(failure)));
    System.exit(run(args, out, err, adapt, true));
  }

  /**
   * Has the commands of {@code commandLine} open their stores with {@code hook} (a test's: the
   * product never sets one).
   */
  static void hook(CommandLine commandLine, TestHook hook) {
    StoreOptions.of(commandLine.getCommandSpec()).hook = hook;
  }

  /** Runs one command line with the given streams; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, commands -> {});
  }

  /**
   * As {@link #run(String[], PrintStream, PrintStream)}, with the commands changed by {@code adapt}
   * first.
   */
  public static int run(
      String[] args, PrintStream out, PrintStream err, Consumer<CommandLine> adapt) {
    return run(args, out, err, adapt, false);
  }

  private static int run(
      String[] args,
      PrintStream out,
      PrintStream err,
      Consumer<CommandLine> adapt,
      boolean processStreams) {
    Main main = new Main();
    main.processStreams = processStreams;
    return main.execute(args, out, err, adapt);
  }

  /**
   * A command line parsed and not yet run: what {@link ServedCommands} checks before it runs one
   * ({@link #runServed}), parsed once for both. Either picocli took it, and the options' values are
   * in its commands' objects ({@code result}), or it refused it ({@code refused}: run, it prints
   * picocli's message and exits 2, wherever it runs).
   */
  static final class Parsed {
    private final Main main;
    private final CommandLine commandLine;
    private final String[] args;
    private final ParseResult result;
    private final ParameterException refused;

    private Parsed(String[] args) {
      this.main = new Main();
      this.args = args.clone();
      this.commandLine = commandLine(main, args);
      ParseResult taken = null;
      ParameterException error = null;
      try {
        taken = commandLine.parseArgs(args);
      } catch (ParameterException e) {
        error = e;
      }
      this.result = taken;
      this.refused = error;
    }

    /** What picocli made of the command line; empty when it refused it. */
    Optional<ParseResult> result() {
      return Optional.ofNullable(result);
    }

    /** Why picocli refused the command line; empty when it took it. */
    Optional<ParameterException> refused() {
      return Optional.ofNullable(refused);
    }

    /** The store options the command line gave (the root's, inherited by every command). */
    StoreOptions storeOptions() {
      return main.storeOptions;
    }
  }

  /** Parses {@code args} without running them (see {@link Parsed}). */
  static Parsed parsed(String[] args) {
    return new Parsed(args);
  }

  /**
   * Runs a parsed command line for a client of the service ({@link ServedCommands}): on its
   * terminal and in its working directory, over {@code turndiff}, the service's open store, which
   * the command leaves open. Each {@link Parsed} runs at most once: its commands' objects hold the
   * options' values of this one run.
   */
  static int runServed(
      Parsed parsed,
      PrintStream out,
      PrintStream err,
      Terminal terminal,
      Path workingDirectory,
      Turndiff turndiff) {
    Main main = parsed.main;
    main.terminal = terminal;
    main.workingDirectory = workingDirectory;
    CommandLine commandLine = parsed.commandLine;
    StoreOptions.of(commandLine.getCommandSpec()).serve(turndiff);
    main.prepare(commandLine, out, err);
    try {
      if (parsed.refused != null) {
        return commandLine
            .getParameterExceptionHandler()
            .handleParseException(parsed.refused, parsed.args);
      }
      return executeParsed(commandLine, parsed.result, parsed.args);
    } catch (Exception | Error failure) {
      return report(failure, err).code();
    }
  }

  /**
   * What {@link CommandLine#execute} does once it has parsed: the execution strategy (help, then
   * the command), a {@link ParameterException} the command throws to its handler (message and
   * usage, exit 2), a failure of the command to the execution exception handler.
   */
  private static int executeParsed(CommandLine commandLine, ParseResult result, String[] args)
      throws Exception {
    try {
      return commandLine.getExecutionStrategy().execute(result);
    } catch (ParameterException refused) {
      return commandLine.getParameterExceptionHandler().handleParseException(refused, args);
    } catch (ExecutionException failed) {
      Exception cause = failed.getCause() instanceof Exception e ? e : failed;
      return commandLine
          .getExecutionExceptionHandler()
          .handleExecutionException(cause, failed.getCommandLine(), result);
    }
  }

  private static CommandLine commandLine(Main main, String[] args) {
    CommandLine commandLine = new CommandLine(main);
    for (Class<?> command : CommandChoice.needed(commandLine.getCommandSpec(), COMMANDS, args)) {
      commandLine.addSubcommand(command);
    }
    return commandLine;
  }

  private int execute(
      String[] args, PrintStream out, PrintStream err, Consumer<CommandLine> adapt) {
    CommandLine commandLine = commandLine(this, args);
    // before the streams and the handler are set: they reach only the commands present when they
    // are set
    adapt.accept(commandLine);
    prepare(commandLine, out, err);
    try {
      return commandLine.execute(args);
    } catch (RuntimeException | Error failure) {
      // picocli hands only a command's exceptions to the handler; anything else (an Error) lands
      // here
      return report(failure, err).code();
    }
  }

  /** Points the commands of {@code commandLine} at the streams, and failures at {@link #report}. */
  private void prepare(CommandLine commandLine, PrintStream out, PrintStream err) {
    this.out = out;
    commandLine.setOut(new PrintWriter(new OutputStreamWriter(out, out.charset()), true));
    commandLine.setErr(new PrintWriter(new OutputStreamWriter(err, err.charset()), true));
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> report(exception, err).code());
  }

  /** Prints one line for {@code failure} and returns its exit code. */
  private static ExitCode report(Throwable failure, PrintStream err) {
    // a failure on a worker thread arrives wrapped (ExecutionException, CompletionException): the
    // cause speaks
    for (Throwable cause = failure; cause != null; cause = nextCause(cause)) {
      switch (cause) {
        case RequestException capture -> {
          err.println("turndiff: " + capture.getMessage());
          return capture.problem() == RequestException.Problem.BAD_INPUT
              ? ExitCode.USAGE
              : ExitCode.ERROR;
        }
        case StoreException store -> {
          err.println("turndiff: " + store.getMessage());
          return switch (store.problem()) {
            case DAMAGED, READ_ONLY -> ExitCode.STORE;
            case BUSY, OTHER -> ExitCode.ERROR;
          };
        }
        case CliException cli -> {
          err.println("turndiff: " + cli.getMessage());
          return cli.exitCode();
        }
        default -> {
          // look further down the chain
        }
      }
    }
    err.println("turndiff: unexpected error: " + describe(failure));
    return ExitCode.ERROR;
  }

  /**
   * The cause of {@code failure}, or null at the end of the chain (also where a throwable names
   * itself).
   */
  // identity, not equality: a throwable whose cause is the very same object ends the chain
  @SuppressWarnings("ReferenceEquality")
  private static Throwable nextCause(Throwable failure) {
    Throwable cause = failure.getCause();
    return cause == failure ? null : cause;
  }

  /** The failure and its causes as one line: their types and messages, without a stack trace. */
  static String describe(Throwable failure) {
    StringBuilder line = new StringBuilder();
    for (Throwable cause = failure; cause != null; cause = nextCause(cause)) {
      if (!line.isEmpty()) {
        line.append("; caused by ");
      }
      line.append(cause.getClass().getName());
      if (cause.getMessage() != null) {
        line.append(": ").append(cause.getMessage().strip().replaceAll("\\s*\\R\\s*", " "));
      }
    }
    return line.toString();
  }
}
