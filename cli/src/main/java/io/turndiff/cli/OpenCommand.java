package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.wire.WireLoginCode;
import io.turndiff.api.wire.WireOpened;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.server.LoginCodeClient;
import io.turndiff.server.LoginCodeClient.Reply;
import io.turndiff.server.ServiceOptions;
import io.turndiff.service.ServiceProbe;
import io.turndiff.service.StoreService;
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
 * {@code turndiff open}: a login link for the review panel, on the store's one service. It finds
 * that service by the store's identity ({@link StoreService}): the per-user service the hooks use
 * when it serves the store, else a {@code serve} started earlier, whatever port either listens on.
 * When none serves the store, it starts {@code turndiff serve} for it on {@code --port}, detached,
 * with {@code --exit-when-idle}, its output in {@code <store>.serve.log}. Prints one JSON line with
 * the URL, and on a desktop ({@code DISPLAY} or {@code WAYLAND_DISPLAY} set) opens it with {@code
 * xdg-open}; without one, or when that fails, the printed URL is all there is.
 */
@Command(
    name = "open",
    description =
        "Print (and on a desktop open) a one-time login URL for the review panel on the store's "
            + "service, starting turndiff serve for the store when none serves it.")
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
      description =
          "The loopback port of the serve it starts when none serves the store (default "
              + "${DEFAULT-VALUE}); a running service is used on its own port.")
  int port;

  @Option(
      names = "--exit-when-idle",
      paramLabel = "DURATION",
      converter = DurationArgument.class,
      defaultValue = "10m",
      description =
          "The serve it starts stops after this long without a request and without a panel open "
              + "(and when the store is deleted); 0s: it runs until stopped (default: "
              + "${DEFAULT-VALUE}).")
  Duration exitWhenIdle;

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
    Process started = null;
    ServiceProbe.Running running;
    switch (StoreService.of(database).find()) {
      case ServiceProbe.Running found -> running = found;
      case ServiceProbe.Unproven unproven ->
          throw new CliException(
              ExitCode.ERROR, unproven.reason() + "; not starting a second service for it");
      case ServiceProbe.Nothing _, ServiceProbe.Stale _ -> {
        started = DetachedServe.start(database, port, exitWhenIdle);
        running = awaitStart(database, started);
      }
    }
    int servicePort = running.discovery().port();
    if (servicePort != port && spec.commandLine().getParseResult().hasMatchedOption("--port")) {
      spec.commandLine()
          .getErr()
          .println(
              "turndiff: the store's service listens on port "
                  + servicePort
                  + ", not "
                  + port
                  + " (one service per store): opening the panel there");
    }
    Reply answer = LoginCodeClient.request(servicePort, running.token(), root);
    if (answer.status() != 201) {
      throw new CliException(
          answer.status() == 400 || answer.status() == 403 ? ExitCode.USAGE : ExitCode.ERROR,
          "the service refused a login code: " + answer.body());
    }
    WireLoginCode code = answer.code();
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        Json.write(
            new WireOpened(
                code.url(),
                code.expiresAt(),
                running.discovery().url(),
                started != null,
                started == null ? null : started.pid(),
                started == null ? null : DetachedServe.log(database).toString()),
            false));
    out.flush();
    openOnDesktop(code.url());
    return ExitCode.OK.code();
  }

  /**
   * Waits for the serve just started to publish its record and prove itself. The store's identity
   * is resolved again each time: the serve may have made the store's folder meanwhile.
   */
  private ServiceProbe.Running awaitStart(Path database, Process started)
      throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(START_WITHIN);
    while (!(StoreService.of(database).find() instanceof ServiceProbe.Running running)) {
      if (!started.isAlive() || Instant.now().isAfter(deadline)) {
        Path log = DetachedServe.log(database);
        throw new CliException(
            ExitCode.ERROR,
            "turndiff serve did not start on port "
                + port
                + (started.isAlive() ? " within " + START_WITHIN.toSeconds() + " s" : "")
                + "; the end of its log "
                + log
                + ":\n"
                + String.join("\n", OwnFile.of(log).lastLines(5)));
      }
      Thread.sleep(200);
    }
    return running;
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
