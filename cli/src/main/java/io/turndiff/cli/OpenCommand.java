package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.wire.WireLoginCode;
import io.turndiff.api.wire.WireOpened;
import io.turndiff.server.LoginCodeClient;
import io.turndiff.server.LoginCodeClient.Reply;
import io.turndiff.server.ServiceOptions;
import io.turndiff.service.TokenFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff open}: a login link for the review panel. Asks the store's service (on {@code
 * --port}, with the token beside the store) for a one-time login code; when no service answers
 * there, starts {@code turndiff serve} for the store first, detached, its output in {@code
 * turndiff-serve.log} beside the store. Prints one JSON line with the URL, and on a desktop ({@code
 * DISPLAY} or {@code WAYLAND_DISPLAY} set) opens it with {@code xdg-open}; without one, or when
 * that fails, the printed URL is all there is.
 */
@Command(
    name = "open",
    description =
        "Print (and on a desktop open) a one-time login URL for the review panel, starting "
            + "turndiff serve for the store when none is running.")
final class OpenCommand implements Callable<Integer> {

  private static final Duration START_WITHIN = Duration.ofSeconds(60);

  @Spec CommandSpec spec;

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "Open the panel on this workspace (default: the workspaces page).")
  Path workspace;

  @Option(
      names = "--port",
      paramLabel = "N",
      defaultValue = "" + ServiceOptions.DEFAULT_PORT,
      description = "The service's loopback port (default ${DEFAULT-VALUE}).")
  int port;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (port < 1 || port > 65535) {
      throw new CliException(ExitCode.USAGE, "--port must be within 1..65535, not " + port);
    }
    Optional<String> root = Optional.empty();
    if (workspace != null) {
      // the service checks it as any workspace a client names
      root = Optional.of(workspace.toAbsolutePath().normalize().toString());
    }
    Path database = StoreOptions.of(spec).location();
    Path tokenFile = database.resolveSibling("turndiff.token");
    Reply answer = askForCode(tokenFile, root);
    Process started = null;
    if (answer.status() == 0) {
      started = DetachedServe.start(database, port);
      Instant deadline = Instant.now().plus(START_WITHIN);
      // the token file is rewritten once the new service listens; until then the old one gets 401
      while ((answer = askForCode(tokenFile, root)).status() == 0 || answer.status() == 401) {
        if (!started.isAlive() || Instant.now().isAfter(deadline)) {
          throw new CliException(
              ExitCode.ERROR,
              "turndiff serve did not start on port "
                  + port
                  + " (see "
                  + DetachedServe.log(database)
                  + ")");
        }
        Thread.sleep(200);
      }
    }
    if (answer.status() != 201) {
      throw new CliException(
          answer.status() == 400 || answer.status() == 403 ? ExitCode.USAGE : ExitCode.ERROR,
          answer.status() == 401
              ? "the service on port " + port + " is not this store's (its token differs)"
              : "the service refused a login code: " + answer.body());
    }
    WireLoginCode code = answer.code();
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        Json.write(
            new WireOpened(
                code.url(),
                code.expiresAt(),
                "http://127.0.0.1:" + port,
                started != null,
                started == null ? null : started.pid(),
                started == null ? null : DetachedServe.log(database).toString()),
            false));
    out.flush();
    openOnDesktop(code.url());
    return ExitCode.OK.code();
  }

  /** {@code POST /v1/login-codes} with the store's token; status 0 when nothing answers. */
  private Reply askForCode(Path tokenFile, Optional<String> root)
      throws IOException, InterruptedException {
    Optional<String> token = TokenFile.read(tokenFile);
    return token.isEmpty() ? Reply.NO_SERVICE : LoginCodeClient.request(port, token.get(), root);
  }

  /** {@code xdg-open URL} on a desktop; never fails the command (the URL is printed already). */
  private void openOnDesktop(String url) {
    if (System.getenv("DISPLAY") == null && System.getenv("WAYLAND_DISPLAY") == null) {
      return;
    }
    try {
      new ProcessBuilder("xdg-open", url)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException noOpener) {
      spec.commandLine()
          .getErr()
          .println(
              "turndiff: could not run xdg-open (" + noOpener.getMessage() + "); open the URL");
    }
  }
}
