package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireServeStarted;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.ownfiles.LockFile;
import io.turndiff.server.HttpService;
import io.turndiff.server.ServiceOptions;
import io.turndiff.service.DaemonFiles;
import io.turndiff.service.Program;
import io.turndiff.service.TokenFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff serve}: the long-lived local HTTP service. Prints one JSON line with its URL and
 * the token file, then serves until SIGTERM or SIGINT, when a garbage collection under way ends
 * after its step, requests in flight finish and the store is closed.
 */
@Command(
    name = "serve",
    description =
        "Run the local HTTP service (loopback only, bearer token); it collects the store's garbage "
            + "on its own, daily and when the store passes the max-size kept with it.")
final class ServeCommand implements Callable<Integer> {

  static final String TOKEN_VARIABLE = "TURNDIFF_TOKEN";

  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      paramLabel = "N",
      defaultValue = "7433",
      description = "The loopback port (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(
      names = "--no-watch",
      description =
          "Do not watch tracked workspaces with inotify: every finish walks the whole tree "
              + "(watching is on by default: a finish then looks only at what changed).")
  boolean noWatch;

  /** Accepted so that scripts written when watching was opt-in still start: it is the default. */
  @Option(names = "--watch", hidden = true)
  boolean watch;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "Where to write the token (default: turndiff.token beside the store, mode 0600).")
  Path tokenFile;

  @Option(
      names = "--allow-origin",
      paramLabel = "ORIGIN",
      description =
          "A browser origin allowed to call the service (CORS); repeatable. None by default.")
  List<String> allowedOrigins = new ArrayList<>();

  @Option(
      names = "--allow-workspace",
      paramLabel = "DIR",
      description =
          "Only workspaces within DIR (its real path) may be used; repeatable. Any by default.")
  List<Path> allowedWorkspaces = new ArrayList<>();

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      defaultValue = "" + ServiceOptions.DEFAULT_MAX_CONNECTIONS,
      description =
          "TCP connections open at once (a quarter of them at most without the token or the "
              + "panel's cookie); more wait (default ${DEFAULT-VALUE}).")
  int maxConnections;

  @Option(
      names = "--request-timeout",
      paramLabel = "SECONDS",
      defaultValue = "5",
      description =
          "Time a TCP connection has, from its opening, to show the token or the panel's cookie; "
              + "then it is closed (default ${DEFAULT-VALUE}).")
  long requestTimeout;

  @Option(
      names = "--open-workspaces",
      paramLabel = "N",
      defaultValue = "" + WorkspaceHandles.DEFAULT_CAPACITY,
      description =
          "Workspace root handles kept open at most; the least recently used is closed first "
              + "(default ${DEFAULT-VALUE}).")
  int openWorkspaces;

  @Option(
      names = "--gc-every",
      paramLabel = "DURATION",
      converter = DurationArgument.class,
      defaultValue = "1d",
      description =
          "Collect garbage this often, by the policy kept with the store (turndiff config), in "
              + "short steps; 0s: never on a schedule (default: ${DEFAULT-VALUE}).")
  Duration gcEvery;

  @Option(
      names = "--gc-size-check",
      paramLabel = "DURATION",
      converter = DurationArgument.class,
      defaultValue = "1m",
      description =
          "Look this often whether the store has passed the max-size kept with it, and collect "
              + "when it has; 0s: never (default: ${DEFAULT-VALUE}).")
  Duration gcSizeCheck;

  @Option(
      names = "--daemon",
      description =
          "Run as the per-user service of the store (what `turndiff service start` spawns): hold "
              + "<store>.service.lock, answer the identity challenge, write --discovery last.")
  boolean daemon;

  @Option(
      names = "--discovery",
      paramLabel = "FILE",
      description = "With --daemon: the discovery file (its .header sibling holds the header).")
  Path discovery;

  @Option(
      names = "--socket",
      paramLabel = "FILE",
      description =
          "Also listen on this Unix domain socket (made 0600; only this user's processes are "
              + "served on it, without the token). `turndiff service start` gives the run "
              + "directory's.")
  Path socket;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (daemon != (discovery != null)) {
      throw new CliException(ExitCode.USAGE, "--daemon and --discovery go together");
    }
    String token = token();
    Path database = StoreOptions.of(spec).location();
    Path tokenPath =
        tokenFile != null ? tokenFile.toAbsolutePath() : database.resolveSibling("turndiff.token");
    Optional<LockFile> storeLock = daemon ? Optional.of(lockStore(database)) : Optional.empty();
    Optional<String> instance = storeLock.map(held -> randomHex(16));
    ServiceOptions options = serviceOptions(token, instance);
    WorkspacePolicy policy = workspacePolicy();
    Turndiff turndiff =
        StoreOptions.of(spec)
            .open(policy, openWorkspaces, noWatch ? WatchOptions.OFF : WatchOptions.SERVICE);
    HttpService service = listen(turndiff, options);
    TokenFile.writePrivately(tokenPath, token);
    Optional<DaemonFiles> daemonFiles = Optional.empty();
    if (instance.isPresent()) {
      // the calls kept while no service ran go first: no live call can come before publish
      SpooledHookCalls spooled =
          new SpooledHookCalls(discovery.toAbsolutePath(), service, System.err);
      spooled.takeAll();
      DaemonFiles files = new DaemonFiles(discovery.toAbsolutePath(), tokenPath, instance.get());
      files.publish(token, service.port(), database, Program.current(Main.VERSION));
      daemonFiles = Optional.of(files);
      spooled.keepLooking();
    }
    CountDownLatch stopped = stopOnShutdown(service, turndiff, daemonFiles, storeLock);
    daemonFiles.ifPresent(DaemonFiles::watch);
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        Json.write(
            WireServeStarted.of(service.url(), tokenPath, database, ProcessHandle.current().pid()),
            false));
    out.flush();
    stopped.await();
    return ExitCode.OK.code();
  }

  /** {@value #TOKEN_VARIABLE}, at least 16 characters, else a new random one. */
  private static String token() {
    String token = System.getenv(TOKEN_VARIABLE);
    if (token == null || token.isBlank()) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
    if (token.strip().length() < 16) {
      throw new CliException(ExitCode.USAGE, TOKEN_VARIABLE + " must hold at least 16 characters");
    }
    return token.strip();
  }

  /** The per-user service's hold on the store: one service per store. */
  private static LockFile lockStore(Path database) throws IOException {
    return LockFile.tryAcquire(Path.of(database + ".service.lock"))
        .orElseThrow(
            () ->
                new CliException(
                    ExitCode.ERROR,
                    "another turndiff service holds the store "
                        + database
                        + " ("
                        + database
                        + ".service.lock)"));
  }

  private static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }

  /** The service's options from the command's; a bad one is a usage error naming it. */
  private ServiceOptions serviceOptions(String token, Optional<String> instance) {
    try {
      ServiceOptions.Builder builder = ServiceOptions.builder(token).version(Main.VERSION);
      instance.ifPresent(builder::instance);
      if (socket != null && ServiceOptions.socketPathFits(socket.toAbsolutePath())) {
        builder.socket(socket.toAbsolutePath());
      } else if (socket != null) {
        // the hook script then finds no socket and uses the port with the token
        System.err.println(
            "turndiff serve: "
                + socket.toAbsolutePath()
                + " is too long for a Unix socket's name (107 bytes); serving on the port only");
      }
      return builder
          .port(port)
          .allowedOrigins(Set.copyOf(allowedOrigins))
          .maxConnections(maxConnections)
          .requestDeadline(Duration.ofSeconds(requestTimeout))
          .gcEvery(gcEvery)
          .gcSizeCheck(gcSizeCheck)
          .build();
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
  }

  /** The workspaces the service may work in ({@code --allow-workspace}), any by default. */
  private WorkspacePolicy workspacePolicy() {
    try {
      WorkspacePolicy policy =
          allowedWorkspaces.isEmpty()
              ? WorkspacePolicy.anyDirectory()
              : WorkspacePolicy.within(allowedWorkspaces);
      if (openWorkspaces < 1) {
        throw new IllegalArgumentException(
            "--open-workspaces must be at least 1, not " + openWorkspaces);
      }
      return policy;
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
  }

  /** The HTTP service on its port; the store is closed again when it cannot listen. */
  private HttpService listen(Turndiff turndiff, ServiceOptions options) {
    try {
      return HttpService.start(turndiff, options);
    } catch (IOException e) {
      turndiff.close();
      throw new CliException(
          ExitCode.ERROR, "cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
    }
  }

  /**
   * Stops the service on SIGTERM or SIGINT: clients stop finding it before its port closes, then
   * the store is closed, the token removed and the store's lock let go. The latch opens when done.
   */
  private static CountDownLatch stopOnShutdown(
      HttpService service,
      Turndiff turndiff,
      Optional<DaemonFiles> published,
      Optional<LockFile> held) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  published.ifPresent(DaemonFiles::withdraw);
                  service.stop();
                  turndiff.close();
                  published.ifPresent(DaemonFiles::removeToken);
                  held.ifPresent(LockFile::close);
                  stopped.countDown();
                },
                "turndiff-shutdown"));
    return stopped;
  }
}
