package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.wire.WireGcRun;
import io.turndiff.api.wire.WireHookFailure;
import io.turndiff.api.wire.WireOpenTurn;
import io.turndiff.api.wire.WireReplacedService;
import io.turndiff.api.wire.WireServedBy;
import io.turndiff.api.wire.WireServiceConnections;
import io.turndiff.api.wire.WireServiceGc;
import io.turndiff.api.wire.WireServiceStarted;
import io.turndiff.api.wire.WireServiceState;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.api.wire.WireServiceWatch;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.service.Discovery;
import io.turndiff.service.Program;
import io.turndiff.service.ServiceControl;
import io.turndiff.service.ServiceFiles;
import io.turndiff.service.ServiceProbe;
import io.turndiff.service.StartClaim;
import io.turndiff.service.StoreService;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff service start|stop|status}: the per-user daemon of one store, found through its
 * discovery file and trusted only once it proved it holds the token (docs/runtime-hooks.md).
 */
@Command(
    name = "service",
    description = "The per-user service of the store: start (idempotent), stop (graceful), status.",
    subcommands = {
      ServiceCommand.Start.class,
      ServiceCommand.Daemon.class,
      ServiceCommand.Stop.class,
      ServiceCommand.Status.class
    })
final class ServiceCommand {

  static ServiceFiles files(CommandSpec spec) {
    return ServiceFiles.of(StoreOptions.of(spec).givenLocation(), System.getenv());
  }

  static String started(
      boolean started, Discovery discovery, ServiceFiles files, WireReplacedService replaced) {
    return Json.write(
        new WireServiceStarted(
            true,
            started,
            discovery.pid(),
            discovery.port(),
            files.store(),
            files.discovery().toString(),
            replaced),
        false);
  }

  @Command(
      name = "start",
      description =
          "Start the service of the store in the background, unless it runs already (exit 0 "
              + "either way); a service running another version or installation of turndiff is "
              + "stopped and started again on this one. Prints one JSON line.")
  static final class Start implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(
        names = "--wait",
        paramLabel = "SECONDS",
        defaultValue = "30",
        description = "How long to wait for the service to come up (default ${DEFAULT-VALUE}).")
    long waitSeconds;

    @Override
    public Integer call() throws IOException, InterruptedException {
      ServiceFiles files = files(spec);
      ServiceControl.Started started =
          ServiceControl.start(
              files,
              Program.current(Main.VERSION),
              waitSeconds,
              System.getenv(),
              note -> spec.commandLine().getErr().println("turndiff: " + note));
      spec.commandLine()
          .getOut()
          .println(started(started.started(), started.discovery(), files, started.replaced()));
      return ExitCode.OK.code();
    }
  }

  /**
   * {@code service daemon}: the service itself, started directly by whoever found none (the hook
   * script, so the hook client too), in one JVM: it takes the start claim {@code service start}
   * takes before it spawns (the start lock, the probe, the take-over), serves the store as {@code
   * serve --daemon} in this process, and lets the start lock go once its discovery file is
   * published. The cold path thus pays one JVM, not a {@code service start} JVM and then the
   * daemon's (docs/service.md, "Cold start"). When the same program's service runs already, it
   * prints what {@code service start} prints (started false) and exits 0. Its starter gives it its
   * session, stdin, working directory and environment, as {@code DaemonLauncher} does; until the
   * store's folder and log are checked its errors go to the starter's stderr (the hook log), then
   * everything it writes goes to the service's log.
   */
  @Command(
      name = "daemon",
      hidden = true,
      description =
          "Run as the per-user service of the store, in this process (the hooks' cold start).")
  static final class Daemon implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      ServiceFiles files = files(spec);
      PrintWriter err = spec.commandLine().getErr();
      StartClaim claim =
          StartClaim.take(
              files, Program.current(Main.VERSION), note -> err.println("turndiff: " + note));
      try {
        Optional<Discovery> running = claim.running();
        if (running.isPresent()) {
          spec.commandLine().getOut().println(started(false, running.get(), files, null));
          return ExitCode.OK.code();
        }
        PrintStream log =
            new PrintStream(OwnFile.of(files.log()).appending(), true, StandardCharsets.UTF_8);
        System.setOut(log);
        System.setErr(log);
        Thread.setDefaultUncaughtExceptionHandler(
            (thread, failure) ->
                log.println("turndiff: unexpected error in " + thread.getName() + ": " + failure));
        if (claim.replaced() != null) {
          log.println(
              "turndiff: replaced the service (pid "
                  + claim.replaced().pid()
                  + ", "
                  + claim.replaced().version()
                  + ")");
        }
        // the start lock goes once the discovery file is written: the serve writes it last (after
        // the spool is taken), and a stale one was removed under the lock, so it is this service's
        // publication; a starter waiting on the lock then probes and finds this service
        return Main.run(
            files.serveArguments().toArray(String[]::new),
            log,
            log,
            commands -> serve(commands).published = claim::close);
      } finally {
        claim.close();
      }
    }

    private static ServeCommand serve(CommandLine commands) {
      return (ServeCommand) commands.getSubcommands().get("serve").getCommand();
    }
  }

  @Command(
      name = "stop",
      description = "Stop the service of the store gracefully (exit 0 when none runs).")
  static final class Stop implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(
        names = "--wait",
        paramLabel = "SECONDS",
        defaultValue = "" + ServiceControl.STOP_WAIT_SECONDS,
        description =
            "How long to wait for requests in flight and the store to close (default "
                + "${DEFAULT-VALUE}).")
    long waitSeconds;

    @Option(
        names = "--force",
        description =
            "Kill the service (SIGKILL) when it does not end within --wait, or does not answer.")
    boolean force;

    @Override
    public Integer call() throws IOException {
      spec.commandLine()
          .getOut()
          .println(Json.write(ServiceControl.stop(files(spec), waitSeconds, force), false));
      return ExitCode.OK.code();
    }
  }

  @Command(
      name = "status",
      description =
          "Whether the service of the store runs: its store, uptime, turns in flight, its last "
              + "garbage collection and recent hook failures (exit 0 running, 1 not).")
  static final class Status implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      ServiceFiles files = files(spec);
      PrintWriter out = spec.commandLine().getOut();
      ServiceSeen seen = ServiceSeen.look(files);
      List<String> undelivered = seen.undelivered();
      if (seen.refused().isPresent()) {
        return refused(out, files, seen.refused().get(), undelivered);
      }
      List<String> hookFailures = files.hookFailures(5);
      int kept = seen.kept();
      Optional<WireServiceStatus> status = seen.status();
      String why =
          switch (seen.found()) {
            case ServiceProbe.Unproven unproven -> unproven.reason();
            case ServiceProbe.Stale stale -> "stale discovery file: " + stale.reason();
            case ServiceProbe.Running _ ->
                status.isEmpty() ? "it proved itself but did not answer its status" : null;
            case ServiceProbe.Nothing _ -> null;
          };
      Optional<WireServedBy> servedBy =
          status.isEmpty() ? servedBy(files.storePath()) : Optional.empty();
      if (json) {
        out.println(
            Json.write(
                new WireServiceState(
                    status.isPresent(),
                    files.store(),
                    files.discovery().toString(),
                    files.log().toString(),
                    why,
                    status.orElse(null),
                    concat(hookFailures, undelivered),
                    kept,
                    servedBy.orElse(null)),
                false));
        return status.isPresent() ? ExitCode.OK.code() : ExitCode.ERROR.code();
      }
      if (status.isEmpty()) {
        out.println("turndiff service: not running" + (why == null ? "" : " (" + why + ")"));
        out.println("store:       " + files.store());
        servedBy.ifPresent(other -> printServedBy(out, other));
        printKept(out, kept, false);
        printFailures(out, hookFailures, files);
        printUndelivered(out, undelivered, files);
        return ExitCode.ERROR.code();
      }
      WireServiceStatus answer = status.get();
      out.println(
          "turndiff service: running (pid "
              + answer.pid()
              + ", port "
              + answer.port()
              + ", up "
              + uptime(answer.uptimeS())
              + ", version "
              + answer.version()
              + ")");
      out.println("store:       " + answer.store());
      out.println("discovery:   " + files.discovery());
      out.println("log:         " + files.log());
      List<WireOpenTurn> open = answer.openTurns();
      out.println(
          "in flight:   " + open.size() + (open.size() == 1 ? " open turn" : " open turns"));
      for (WireOpenTurn turn : open) {
        out.println(
            "  "
                + turn.session()
                + " turn "
                + turn.turn()
                + " in "
                + turn.workspace()
                + ", begun "
                + turn.beganAt());
      }
      printConnections(out, answer.connections());
      printCollections(out, answer.gc());
      printHooks(out, answer);
      printWatch(out, answer.watch());
      printKept(out, kept, true);
      printFailures(out, hookFailures, files);
      printUndelivered(out, undelivered, files);
      return ExitCode.OK.code();
    }

    /**
     * What serves the store while the per-user service does not: the process its record beside the
     * store names ({@link StoreService}), a {@code turndiff serve} or one {@code turndiff open}
     * started, once its port proved itself; or one that holds the store's lock and does not prove
     * itself. The run directory knows only the per-user service, so without this a running {@code
     * serve} was invisible here.
     */
    private static Optional<WireServedBy> servedBy(Path store) throws IOException {
      return switch (StoreService.of(store).find()) {
        case ServiceProbe.Running running -> Optional.of(servedBy(running.discovery(), null));
        case ServiceProbe.Unproven unproven ->
            Optional.of(servedBy(unproven.discovery(), unproven.reason()));
        case ServiceProbe.Nothing _, ServiceProbe.Stale _ -> Optional.empty();
      };
    }

    private static WireServedBy servedBy(Discovery found, String problem) {
      return new WireServedBy(
          found.pid(),
          found.port(),
          found.url(),
          found.version(),
          found.startedAt(),
          found.logFile().toString(),
          problem);
    }

    /**
     * A {@code serve} on the store is not the per-user service: the hooks reach only the latter,
     * and the first hook call (or {@code service start}) stops the {@code serve} and starts it.
     */
    private static void printServedBy(PrintWriter out, WireServedBy other) {
      if (other.problem() != null) {
        out.println("served by:   " + other.problem() + " (its log " + other.log() + ")");
        return;
      }
      out.println(
          "served by:   a turndiff serve, not the per-user service (pid "
              + other.pid()
              + ", "
              + other.url()
              + ", since "
              + other.startedAt()
              + ", version "
              + other.version()
              + ", its log "
              + other.log()
              + ")");
      out.println(
          "             turndiff open opens the panel on it; the first hook call, or turndiff"
              + " service start, stops it and starts the per-user service");
    }

    /**
     * Where the service listens besides its port, and what its guards did: the TCP connections that
     * showed a credential, those cut without one, the socket's peers refused.
     */
    private static void printConnections(PrintWriter out, WireServiceConnections connections) {
      out.println(
          "socket:      "
              + (connections.socket() == null ? "none (TCP only)" : connections.socket()));
      out.println(
          "connections: "
              + connections.authenticated()
              + " authenticated, "
              + connections.unauthenticatedCut()
              + " cut without a token or cookie, "
              + connections.peerRefused()
              + " socket peers refused (another user); TCP "
              + connections.tcpOpen()
              + " open, at most "
              + connections.tcpMostOpen()
              + " at once");
    }

    /**
     * A refused run directory: nothing in it is read, no service is probed; why, what to do, and
     * the hook calls the script could not deliver because of it (exit 1).
     */
    private int refused(PrintWriter out, ServiceFiles files, String why, List<String> undelivered) {
      if (json) {
        out.println(
            Json.write(
                new WireServiceState(
                    false,
                    files.store(),
                    files.discovery().toString(),
                    files.log().toString(),
                    why,
                    null,
                    undelivered,
                    0,
                    null),
                false));
        return ExitCode.ERROR.code();
      }
      out.println("turndiff service: not usable: " + why);
      out.println("store:       " + files.store());
      printUndelivered(out, undelivered, files);
      return ExitCode.ERROR.code();
    }

    /**
     * The hook calls the hook script kept in its spool because no service ran: the service takes
     * them when it is up (a running one within seconds).
     */
    private static void printKept(PrintWriter out, int kept, boolean running) {
      if (kept == 0) {
        return;
      }
      out.println(
          "hook calls kept: "
              + kept
              + " waiting in the spool (no service ran when they were made); "
              + (running
                  ? "the service takes them within seconds"
                  : "the service takes them when it starts: turndiff service start"));
    }

    private static List<String> concat(List<String> first, List<String> second) {
      List<String> both = new ArrayList<>(first);
      both.addAll(second);
      return both;
    }

    private static void printUndelivered(
        PrintWriter out, List<String> undelivered, ServiceFiles files) {
      if (undelivered.isEmpty()) {
        return;
      }
      out.println(
          "hook clients: calls not delivered because the run directory was refused ("
              + files.refusedRunLog()
              + "):");
      undelivered.forEach(line -> out.println("  " + line));
    }

    /** When the service last collected garbage on its own, what it freed, and when it will next. */
    private static void printCollections(PrintWriter out, WireServiceGc gc) {
      if (gc == null) {
        return;
      }
      WireGcRun last = gc.last();
      if (last == null) {
        out.println("gc:          none yet");
      } else {
        String what =
            last.outcome().equals(WireGcRun.DONE)
                ? last.turnsRemoved()
                    + " turns and "
                    + last.blobsRemoved()
                    + " blobs removed ("
                    + last.blobBytesFreed()
                    + " stored bytes), file "
                    + last.fileBytesBefore()
                    + " -> "
                    + last.fileBytesAfter()
                    + " bytes"
                : last.outcome();
        out.println(
            "gc:          last " + last.finishedAt() + " (" + last.trigger() + "): " + what);
        if (last.note() != null) {
          out.println("             " + last.note());
        }
      }
      out.println(
          "             "
              + (gc.nextAt() == null
                  ? "no scheduled collection"
                  : "next scheduled " + gc.nextAt() + " (every " + uptime(gc.everyS()) + ")")
              + (gc.sizeCheckS() == 0
                  ? ""
                  : "; size against the kept max-size looked at every " + uptime(gc.sizeCheckS())));
    }

    /** What the watcher of tracked workspaces did since the service started. */
    private static void printWatch(PrintWriter out, WireServiceWatch watch) {
      if (watch == null) {
        return; // a service from before the watcher
      }
      if (!watch.enabled()) {
        out.println("watched: off (serve --no-watch): every finish walks the whole tree");
        return;
      }
      out.println(
          "watched: "
              + watch.workspaces()
              + " workspaces, "
              + watch.directories()
              + " directories; finishes that looked at changes only "
              + watch.watchedScans()
              + ", full scans "
              + watch.fullScans()
              + ", overflows "
              + watch.overflows()
              + ", checks "
              + watch.checks()
              + (watch.failedChecks() > 0 ? ", failed checks " + watch.failedChecks() : "")
              + (watch.awaitingEvents() > 0
                  ? ", awaiting their event " + watch.awaitingEvents()
                  : "")
              + ", disagreements "
              + watch.disagreements());
      // Why the tree was walked whole: a full scan's count alone does not tell a watcher that
      // stopped, whose every scan is whole until the service restarts, from a first scan.
      if (watch.fallbacks() != null && !watch.fallbacks().isEmpty()) {
        List<String> reasons = new ArrayList<>();
        watch.fallbacks().forEach((why, count) -> reasons.add(why + ": " + count));
        out.println("full scans by reason: " + String.join("; ", reasons));
      }
      if (watch.lastDisagreement() != null) {
        out.println("last disagreement: " + watch.lastDisagreement());
      }
      if (watch.lastFailedCheck() != null) {
        out.println("last failed check: " + watch.lastFailedCheck());
      }
    }

    /** The hook calls since the service started, by runtime, and the last that failed. */
    private static void printHooks(PrintWriter out, WireServiceStatus answer) {
      if (answer.hooks() == null) {
        return; // a service from before the hook endpoints
      }
      List<String> runtimes = new ArrayList<>();
      answer
          .hooks()
          .forEach(
              (runtime, counts) -> {
                List<String> outcomes = new ArrayList<>();
                Map<String, Long> by = new LinkedHashMap<>();
                by.put("begun", counts.begun());
                by.put("snapshotted", counts.snapshotted());
                by.put("finished", counts.finished());
                by.put("noop", counts.noop());
                by.put("ignored", counts.ignored());
                by.put("duplicate", counts.duplicate());
                by.put("failed", counts.failed());
                by.put("refused", counts.refused());
                // calls the hook script kept in its spool while no service ran, taken since
                by.put("late from the spool", counts.late());
                by.forEach(
                    (outcome, count) -> {
                      if (count > 0) {
                        outcomes.add(outcome + " " + count);
                      }
                    });
                runtimes.add(
                    runtime
                        + " "
                        + counts.received()
                        + (outcomes.isEmpty() ? "" : " (" + String.join(", ", outcomes) + ")"));
              });
      out.println("hooks since start: " + String.join(", ", runtimes));
      List<WireHookFailure> failures = answer.lastFailures();
      if (!failures.isEmpty()) {
        out.println("last failures:");
        for (WireHookFailure failure :
            failures.subList(Math.max(0, failures.size() - 5), failures.size())) {
          out.println(
              "  "
                  + failure.at()
                  + " "
                  + failure.runtime()
                  + " "
                  + failure.event()
                  + " "
                  + failure.session()
                  + ": "
                  + failure.message()
                  + " ("
                  + failure.error()
                  + ")");
        }
      }
    }

    private static void printFailures(PrintWriter out, List<String> failures, ServiceFiles files) {
      if (failures.isEmpty()) {
        return;
      }
      out.println("hook clients: recent failed deliveries (" + files.hookLog() + "):");
      failures.forEach(failure -> out.println("  " + failure));
    }

    static String uptime(long seconds) {
      if (seconds < 60) {
        return seconds + " s";
      }
      if (seconds < 3600) {
        return seconds / 60 + " min";
      }
      return seconds / 3600 + " h " + (seconds % 3600) / 60 + " min";
    }
  }
}
