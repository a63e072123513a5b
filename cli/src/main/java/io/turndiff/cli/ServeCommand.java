package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireServeStarted;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.TestHook;
import io.turndiff.ownfiles.LockFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.server.HttpService;
import io.turndiff.server.ServiceHeap;
import io.turndiff.server.ServiceOptions;
import io.turndiff.service.DaemonFiles;
import io.turndiff.service.Program;
import io.turndiff.service.ServiceProbe;
import io.turndiff.service.StoreService;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff serve}: the long-lived local HTTP service, one per store ({@link StoreService}):
 * it holds the store's lock for its life and publishes its record beside the store, so that {@code
 * turndiff open} finds it and a second {@code serve} is refused naming it. Prints one JSON line
 * with its URL and the token file, then serves until SIGTERM or SIGINT (or {@code
 * --exit-when-idle}), when a garbage collection under way ends after its step, requests in flight
 * finish and the store is closed.
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
          "Where to write the token (default: <store>.token beside the store, mode 0600).")
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
      names = "--exit-when-idle",
      paramLabel = "DURATION",
      converter = DurationArgument.class,
      defaultValue = "0s",
      description =
          "Stop after this long without a request and without a panel open on the service, and "
              + "when the store's file is deleted; 0s: run until stopped (default: ${DEFAULT-VALUE}; "
              + "`turndiff open` starts serve with its own --exit-when-idle, 10m).")
  Duration exitWhenIdle;

  @Option(
      names = "--daemon",
      description =
          "Run as the per-user service of the store (what `turndiff service start` spawns): take "
              + "the hook calls kept while none ran, write --discovery last.")
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

  /**
   * Told once the daemon's discovery file is written ({@code --daemon}): {@code service daemon},
   * which runs this command in its own process, lets its start lock go then, so that a starter
   * waiting on it finds this service, without watching the file for it.
   */
  Runnable published = () -> {};

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (daemon != (discovery != null)) {
      throw new CliException(ExitCode.USAGE, "--daemon and --discovery go together");
    }
    if (exitWhenIdle.isNegative()) {
      throw new CliException(
          ExitCode.USAGE, "--exit-when-idle must not be negative, not " + exitWhenIdle);
    }
    // this JVM is the service from here on: its heap options, whatever launched it
    ServiceHeap.settle(System.err);
    String token = token();
    Path database = StoreOptions.of(spec).location();
    // the store's folder first, as the store makes it (0700): the lock beside the store comes
    // before the store is opened, and the identity is the folder's real path once it exists
    OwnDirectory.of(database.toAbsolutePath().getParent()).makePrivate();
    StoreService served = StoreService.of(database);
    Path tokenPath = tokenFile != null ? tokenFile.toAbsolutePath() : served.defaultToken();
    LockFile storeLock = lockStore(served);
    String instance = randomHex(16);
    ServiceOptions options = serviceOptions(token, instance);
    WorkspacePolicy policy = workspacePolicy();
    // the store opens while Jetty starts: each costs a cold JVM a few tenths of a second, and the
    // server only needs the store for its first answer (docs/service.md, "Cold start")
    CompletableFuture<Turndiff> opening = openStore(policy);
    HttpService.Listening listening = listen(options, opening);
    Turndiff turndiff = opened(opening, listening);
    HttpService service = listening.serve(turndiff);
    TokenFile.writePrivately(tokenPath, token);
    Program program = Program.current(Main.VERSION);
    List<DaemonFiles> published = new ArrayList<>();
    if (daemon) {
      // the calls kept while no service ran go first: no live call can come before publish
      SpooledHookCalls spooled =
          new SpooledHookCalls(discovery.toAbsolutePath(), service, System.err);
      spooled.takeAll();
      DaemonFiles files = new DaemonFiles(discovery.toAbsolutePath(), tokenPath, instance);
      files.publish(token, service.port(), database, Path.of(database + ".service.log"), program);
      this.published.run();
      published.add(files);
      spooled.keepLooking();
    }
    DaemonFiles record = new DaemonFiles(served.record(), tokenPath, instance);
    record.publish(token, service.port(), database, log(database), program);
    published.add(record);
    CountDownLatch stopped = stopOnShutdown(service, turndiff, published, storeLock);
    published.forEach(files -> files.watch(() -> System.exit(ExitCode.OK.code())));
    if (!exitWhenIdle.isZero()) {
      IdleExit.watch(service, turndiff.store().localFile(), exitWhenIdle, System.err);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        Json.write(
            WireServeStarted.of(service.url(), tokenPath, database, ProcessHandle.current().pid()),
            false));
    out.flush();
    stopped.await();
    return ExitCode.OK.code();
  }

  /**
   * Where this serve's output goes, as its record tells {@code turndiff open} and {@code service
   * status}: the per-user service's log, or the one {@code open} starts a serve with.
   */
  private Path log(Path database) {
    return daemon ? Path.of(database + ".service.log") : DetachedServe.log(database);
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

  /**
   * The store's lock, held for the service's life: one service per store, whoever started it. When
   * another holds it, the refusal names that service (from its record) and how to reach it.
   */
  private static LockFile lockStore(StoreService served) throws IOException {
    Optional<LockFile> held = LockFile.tryAcquire(served.lock());
    if (held.isPresent()) {
      return held.get();
    }
    String holder =
        switch (served.find()) {
          case ServiceProbe.Running running ->
              "by its service ("
                  + StoreService.describe(running.discovery())
                  + "); `turndiff open` opens the panel on it";
          case ServiceProbe.Unproven unproven -> "(" + unproven.reason() + ")";
          case ServiceProbe.Nothing _, ServiceProbe.Stale _ -> "(" + served.lock() + ")";
        };
    throw new CliException(
        ExitCode.ERROR,
        "the store "
            + served.identity()
            + " is served already "
            + holder
            + "; not starting a"
            + " second service");
  }

  private static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }

  /** The service's options from the command's; a bad one is a usage error naming it. */
  private ServiceOptions serviceOptions(String token, String instance) {
    try {
      ServiceOptions.Builder builder =
          ServiceOptions.builder(token).version(Main.VERSION).instance(instance);
      if (allowedWorkspaces.isEmpty()) {
        // the commands open their workspaces as any process of the command line does: a service
        // that may only open some leaves them to that process
        builder.commands(new ServedCommands());
      }
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

  /**
   * The store, opened on a thread of its own ({@link TestHook.Point#SERVICE_STORE_OPENING} first).
   */
  private CompletableFuture<Turndiff> openStore(WorkspacePolicy policy) {
    StoreOptions store = StoreOptions.of(spec);
    CompletableFuture<Turndiff> opening = new CompletableFuture<>();
    Thread.ofPlatform()
        .name("turndiff-store-open")
        .start(
            () -> {
              try {
                store.hook.reached(TestHook.Point.SERVICE_STORE_OPENING);
                opening.complete(
                    store.open(
                        policy, openWorkspaces, noWatch ? WatchOptions.OFF : WatchOptions.SERVICE));
              } catch (RuntimeException | Error e) {
                opening.completeExceptionally(e);
              }
            });
    return opening;
  }

  /**
   * The store {@code opening} opens, or its failure as the open threw it, the server {@code
   * listening} stopped first.
   */
  private static Turndiff opened(
      CompletableFuture<Turndiff> opening, HttpService.Listening listening) {
    try {
      return opening.join();
    } catch (CompletionException e) {
      listening.abandon();
      if (e.getCause() instanceof Error failure) {
        throw failure;
      }
      throw e.getCause() instanceof RuntimeException failure ? failure : e;
    }
  }

  /**
   * The HTTP server on its port, accepting while the store opens; when it cannot listen, the store
   * is closed once it has opened.
   */
  private HttpService.Listening listen(
      ServiceOptions options, CompletableFuture<Turndiff> opening) {
    try {
      return HttpService.listen(options);
    } catch (IOException e) {
      opening.thenAccept(Turndiff::close).exceptionally(failure -> null).join();
      throw new CliException(
          ExitCode.ERROR, "cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
    }
  }

  /**
   * Stops the service on SIGTERM or SIGINT: clients stop finding it before its port closes, then
   * the store is closed, the token removed and the store's lock let go. The latch opens when done.
   */
  private static CountDownLatch stopOnShutdown(
      HttpService service, Turndiff turndiff, List<DaemonFiles> published, LockFile held) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  published.forEach(DaemonFiles::withdraw);
                  service.stop();
                  turndiff.close();
                  published.forEach(DaemonFiles::removeToken);
                  held.close();
                  stopped.countDown();
                },
                "turndiff-shutdown"));
    return stopped;
  }
}
