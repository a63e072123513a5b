package io.turndiff.service;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.wire.WireReplacedService;
import io.turndiff.api.wire.WireServiceStopped;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Starts and stops the per-user service of one store (docs/runtime-hooks.md): a start is
 * idempotent, decided under the store's start lock, and replaces a service that runs another
 * turndiff; a stop is graceful (SIGTERM, a wait), with {@code force} a kill. Only a service that
 * proved it holds the token is trusted; one that holds the store without proving it is refused, or
 * with {@code force} killed.
 */
public final class ServiceControl {

  /** How long {@code service stop} waits by default, and a replacing start always. */
  public static final long STOP_WAIT_SECONDS = 35;

  /** What a start found or made: the service that runs now, and the one it replaced, if any. */
  public record Started(boolean started, Discovery discovery, WireReplacedService replaced) {}

  private ServiceControl() {}

  /**
   * Starts the service of {@code files} on {@code program} unless that very program runs it
   * already, and waits at most {@code waitSeconds} for it to prove itself.
   *
   * @param notes told each line worth the user's attention (a stale discovery file replaced, a
   *     service of another program restarted)
   */
  public static Started start(
      ServiceFiles files,
      Program program,
      long waitSeconds,
      Map<String, String> environment,
      Consumer<String> notes)
      throws IOException, InterruptedException {
    try (StartClaim claim = StartClaim.take(files, program, notes)) {
      if (claim.running().isPresent()) {
        return new Started(false, claim.running().get(), null);
      }
      WireReplacedService replaced = claim.replaced();
      Process child = DaemonLauncher.spawn(files, environment);
      // what proving the daemon needs is made while it starts, not after it published
      ServiceProbe.prepareClient();
      Instant deadline = Instant.now().plus(Duration.ofSeconds(waitSeconds));
      while (Instant.now().isBefore(deadline)) {
        if (ServiceProbe.probe(files) instanceof ServiceProbe.Running running) {
          return new Started(true, running.discovery(), replaced);
        }
        // a launcher that forks (setsid as a group leader) exits 0: keep waiting for the file
        if (!child.isAlive() && child.exitValue() != 0) {
          break;
        }
        TimeUnit.MILLISECONDS.sleep(50);
      }
      throw new CliException(
          ExitCode.ERROR,
          "the service did not come up"
              + (child.isAlive() ? " within " + waitSeconds + " s" : "")
              + "; see its log "
              + files.log());
    }
  }

  /**
   * One service per store: a {@code serve} that holds the store without being its per-user service
   * (one {@code turndiff open} started, or one run by hand) is stopped gracefully, so that the
   * service the hooks reach serves the store alone; its panel's stream ends and {@code turndiff
   * open} opens the panel again on the per-user service. Refusing instead would leave every hook
   * call undelivered for as long as that serve runs. One that holds the store and does not prove
   * itself is not ours to stop: refused, named.
   */
  static WireReplacedService takeOver(StoreService store, Consumer<String> notes)
      throws IOException {
    switch (store.find()) {
      case ServiceProbe.Running running -> {
        Discovery other = running.discovery();
        notes.accept(
            "the store is served by another turndiff serve ("
                + StoreService.describe(other)
                + "); stopping it: the per-user service serves the store alone (turndiff open"
                + " opens the panel on it)");
        ProcessHandle.of(other.pid()).ifPresent(ProcessHandle::destroy);
        if (!waitFor(other.pid(), STOP_WAIT_SECONDS)) {
          throw new CliException(
              ExitCode.ERROR,
              "the turndiff serve of the store (pid "
                  + other.pid()
                  + ") did not stop within "
                  + STOP_WAIT_SECONDS
                  + " s; not starting a second service");
        }
        return new WireReplacedService(other.pid(), other.version(), other.program());
      }
      case ServiceProbe.Unproven unproven ->
          throw new CliException(
              ExitCode.ERROR, unproven.reason() + "; not starting a second service");
      case ServiceProbe.Nothing _, ServiceProbe.Stale _ -> {
        return null;
      }
    }
  }

  /**
   * Stops a service that runs another turndiff (an upgrade installed this one since it started),
   * gracefully, so that {@code program} starts in its place.
   */
  static WireReplacedService replace(
      Discovery running, ServiceFiles files, Program program, Consumer<String> notes)
      throws IOException {
    Program theirs = Program.of(running);
    notes.accept(
        "the service (pid " + running.pid() + ") runs " + theirs + "; restarting it on " + program);
    stop(files, STOP_WAIT_SECONDS, false);
    return new WireReplacedService(running.pid(), theirs.version(), theirs.jar());
  }

  /**
   * Stops the service of {@code files}, if one runs: SIGTERM, a wait of at most {@code waitSeconds}
   * for it to end, then with {@code force} SIGKILL (also for a process that holds the store and
   * does not prove itself); its files are removed. What {@code service stop} prints.
   */
  public static WireServiceStopped stop(ServiceFiles files, long waitSeconds, boolean force)
      throws IOException {
    Discovery discovery;
    switch (ServiceProbe.probe(files)) {
      case ServiceProbe.Running running -> discovery = running.discovery();
      case ServiceProbe.Unproven unproven -> {
        if (!force) {
          throw new CliException(
              ExitCode.ERROR,
              unproven.reason() + "; --force kills it (pid " + unproven.discovery().pid() + ")");
        }
        discovery = unproven.discovery();
      }
      case ServiceProbe.Stale _ -> {
        files.removeServiceFiles();
        return new WireServiceStopped(false, false, null);
      }
      case ServiceProbe.Nothing _ -> {
        return new WireServiceStopped(false, false, null);
      }
    }
    ProcessHandle process =
        ProcessHandle.of(discovery.pid()).filter(ProcessHandle::isAlive).orElse(null);
    if (process != null) {
      Optional<String> user = process.info().user();
      if (user.isPresent() && !user.get().equals(System.getProperty("user.name"))) {
        throw new CliException(
            ExitCode.ERROR,
            "pid " + discovery.pid() + " belongs to " + user.get() + "; not signalling it");
      }
      process.destroy();
      if (!waitFor(discovery.pid(), waitSeconds)) {
        if (!force) {
          throw new CliException(
              ExitCode.ERROR,
              "the service (pid "
                  + discovery.pid()
                  + ") did not end within "
                  + waitSeconds
                  + " s; --force kills it");
        }
        process.destroyForcibly();
        waitFor(discovery.pid(), 10);
      }
    }
    files.removeServiceFiles();
    return new WireServiceStopped(false, true, discovery.pid());
  }

  /** Waits until {@code pid} has ended (an unreaped zombie counts as ended). */
  private static boolean waitFor(long pid, long seconds) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
    while (ProcessStart.running(pid)) {
      if (Instant.now().isAfter(deadline)) {
        return false;
      }
      try {
        TimeUnit.MILLISECONDS.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !ProcessStart.running(pid);
      }
    }
    return true;
  }
}
