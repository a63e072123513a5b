package io.turndiff.cli;

import io.turndiff.api.Turndiff;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.server.OneShotCommands;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The read-only commands the service runs for the command client (docs/service.md, "Commands
 * through the service"): {@code turns}, {@code show}, {@code diff}, {@code log} and {@code status},
 * run by {@link Main} exactly as in a process of their own, on the client's terminal, in its
 * working directory, over the service's open store (so {@code status} answers from the service's
 * watcher).
 *
 * <p>It declines, and the client then runs the command in a JVM of its own, whenever the service
 * could answer anything but what that JVM would print: another store than the service's (by the
 * file, whatever path names it), an option that changes how the store is opened or read ({@code
 * --db-password-file}, {@code --size-limit}, {@code --full-hash}, {@code --boundary}), a relative
 * {@code --workspace} (it would be resolved against the service's directory, and is echoed as
 * given), a damaged store (the command would warn on opening it), and on a terminal a time zone or
 * a pager command the service cannot pass on as they are. A command line picocli refuses is run:
 * its error and exit code are the same wherever it runs.
 */
final class ServedCommands implements OneShotCommands {

  static final Set<String> COMMANDS = Set.of("turns", "show", "diff", "log", "status");

  private static final List<String> OPENING_OPTIONS =
      List.of("--db-password-file", "--size-limit", "--full-hash", "--boundary");

  @Override
  public Outcome run(Invocation invocation, Turndiff turndiff) {
    Optional<String> declined = declinedHere(invocation, turndiff);
    if (declined.isPresent()) {
      return new Outcome.Declined(declined.get());
    }
    // parsed once: checked, then run as parsed
    Main.Parsed parsed = Main.parsed(invocation.arguments().toArray(String[]::new));
    declined = declinedCommandLine(invocation, parsed, turndiff.store().localFile().orElseThrow());
    if (declined.isPresent()) {
      return new Outcome.Declined(declined.get());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Terminal terminal =
        Terminal.ofClient(invocation.environment(), invocation.terminal(), out::size);
    int exitCode;
    try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exitCode =
          Main.runServed(
              parsed, outStream, errStream, terminal, invocation.workingDirectory(), turndiff);
    }
    return new Outcome.Ran(
        exitCode,
        out.toByteArray(),
        err.toByteArray(),
        terminal.paging().map(paging -> new Paged(paging.command(), paging.from())));
  }

  /**
   * Why the service leaves {@code invocation} to the client's JVM whatever its command line: its
   * store, or its terminal; empty when the command line decides.
   */
  private static Optional<String> declinedHere(Invocation invocation, Turndiff turndiff) {
    if (turndiff.store().damage().isPresent()) {
      return Optional.of("the store is damaged");
    }
    Optional<Path> own = turndiff.store().localFile();
    if (own.isEmpty() || !sameFile(invocation.store(), own.get())) {
      return Optional.of("not this service's store");
    }
    if (invocation.terminal()) {
      return terminalDeclined(invocation.environment());
    }
    return Optional.empty();
  }

  /**
   * Why the service leaves the command line {@code parsed} to the client's JVM, {@code own} being
   * the service's store file; empty when it runs it.
   */
  private static Optional<String> declinedCommandLine(
      Invocation invocation, Main.Parsed parsed, Path own) {
    Optional<CommandLine.ParameterException> refused = parsed.refused();
    if (refused.isPresent()) {
      CommandLine where = refused.get().getCommandLine();
      return where.getParent() != null && COMMANDS.contains(where.getCommandName())
          ? Optional.empty()
          : Optional.of("not a command the service runs");
    }
    ParseResult root = parsed.result().orElseThrow();
    ParseResult command = root.subcommand();
    if (command == null || !COMMANDS.contains(command.commandSpec().name())) {
      return Optional.of("not a command the service runs");
    }
    for (String option : OPENING_OPTIONS) {
      if (root.hasMatchedOption(option) || command.hasMatchedOption(option)) {
        return Optional.of(option + " is for the command's own process");
      }
    }
    String database = parsed.storeOptions().database;
    if (database != null
        && (database.startsWith("jdbc:")
            || !sameFile(invocation.workingDirectory().resolve(database), own))) {
      return Optional.of("--db names another store");
    }
    if (command.hasMatchedOption("--workspace")
        && !command.<Path>matchedOptionValue("--workspace", null).isAbsolute()) {
      return Optional.of("a relative --workspace");
    }
    return Optional.empty();
  }

  /**
   * Why a terminal's view cannot be rendered here: the dates it shows are in the time zone of the
   * process ({@code TZ}, else the system's), and the pager's command goes back in a header.
   */
  private static Optional<String> terminalDeclined(Map<String, String> environment) {
    if (!Objects.equals(environment.get("TZ"), System.getenv("TZ"))) {
      return Optional.of("another time zone");
    }
    for (String variable : List.of("TURNDIFF_PAGER", "PAGER")) {
      String value = environment.getOrDefault(variable, "");
      if (!value.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
        return Optional.of(variable + " is not printable ASCII");
      }
    }
    return Optional.empty();
  }

  private static boolean sameFile(Path one, Path other) {
    try {
      return OwnFile.of(one).isSameFile(other);
    } catch (IOException e) {
      return false;
    }
  }
}
