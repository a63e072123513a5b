package io.turndiff.server;

import io.turndiff.api.Turndiff;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The command line's read-only commands ({@code turns}, {@code show}, {@code diff}, {@code log},
 * {@code status}) run inside the service for a client that would otherwise start a JVM for one of
 * them (docs/service.md, "Commands through the service"). The service only carries the bytes: the
 * command line renders them, with the same code it runs in its own process, over the service's open
 * store.
 */
public interface OneShotCommands {

  /**
   * Runs {@code invocation} over {@code turndiff}, the service's store: what the command printed
   * and its exit code, or {@link Outcome.Declined} when the service cannot give exactly what the
   * command line would (another store, an option it does not serve): the client then runs it in a
   * JVM of its own.
   */
  Outcome run(Invocation invocation, Turndiff turndiff);

  /**
   * One command line as the client's process would run it.
   *
   * @param arguments the arguments after {@code turndiff}, as given
   * @param workingDirectory the client's working directory (absolute)
   * @param store the store the client's environment and {@code --db} name (absolute)
   * @param terminal whether the client's standard input and output are both a terminal
   * @param environment the client's variables that shape a terminal's output ({@code TERM}, {@code
   *     NO_COLOR}, the pager's, {@code TZ}): only those it has
   */
  record Invocation(
      List<String> arguments,
      Path workingDirectory,
      Path store,
      boolean terminal,
      Map<String, String> environment) {

    public Invocation {
      arguments = List.copyOf(arguments);
      environment = Map.copyOf(environment);
    }
  }

  /** What came of an {@link Invocation}. */
  sealed interface Outcome {

    /**
     * The command ran.
     *
     * @param out its standard output
     * @param err its standard error
     * @param pager the pager a terminal's view goes through, and from which byte of {@code out}
     */
    record Ran(int exitCode, byte[] out, byte[] err, Optional<Paged> pager) implements Outcome {}

    /** The command is left to the client's own JVM, for {@code reason}. */
    record Declined(String reason) implements Outcome {}
  }

  /** {@code out} from byte {@code from} on goes through {@code sh -c command}. */
  record Paged(String command, int from) {}
}
