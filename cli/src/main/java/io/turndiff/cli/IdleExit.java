package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.server.HttpService;
import java.io.PrintStream;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code serve --exit-when-idle}: ends a service nobody uses, as the one {@code turndiff open}
 * starts for a panel must (it would otherwise run on for days after the tab was closed, and hold
 * the store so that no other service may take it). Idle means no request and no panel's event
 * stream open ({@link HttpService#idleFor}): a panel left open keeps the service, as it should,
 * since the page is live. It also ends when the store's file is deleted: a service on an unlinked
 * SQLite file would record turns into a file nobody can open again. The exit goes through the
 * shutdown hook, as a SIGTERM would: the record is withdrawn first, requests in flight finish.
 */
final class IdleExit {

  /** How often to look, at most: the exit comes within this of the idle time passing. */
  private static final Duration LOOK_EVERY = Duration.ofSeconds(1);

  private IdleExit() {}

  static void watch(HttpService service, Optional<Path> storeFile, Duration idle, PrintStream log) {
    Duration period = idle.dividedBy(4).compareTo(LOOK_EVERY) < 0 ? idle.dividedBy(4) : LOOK_EVERY;
    // counted from now, when the service is published, not from when it began to listen: the
    // command that started it is only now able to find it, and its first request is on its way
    Instant watched = Instant.now();
    Thread.ofPlatform()
        .daemon()
        .name("turndiff-idle-exit")
        .start(
            () -> {
              while (true) {
                try {
                  Thread.sleep(period);
                } catch (InterruptedException e) {
                  return;
                }
                Optional<String> why = reasonToExit(service, storeFile, idle, watched);
                if (why.isPresent()) {
                  log.println("turndiff serve: " + why.get() + "; stopping");
                  log.flush();
                  System.exit(ExitCode.OK.code());
                }
              }
            });
  }

  private static Optional<String> reasonToExit(
      HttpService service, Optional<Path> storeFile, Duration idle, Instant watched) {
    if (storeFile.isPresent() && !OwnFile.of(storeFile.get()).exists(LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of("the store " + storeFile.get() + " was deleted");
    }
    Instant now = Instant.now();
    Duration sinceWatched = Duration.between(watched, now);
    Duration unused = service.idleFor(now);
    if (sinceWatched.compareTo(unused) < 0) {
      unused = sinceWatched;
    }
    if (unused.compareTo(idle) >= 0) {
      return Optional.of(
          "no request and no panel open for " + unused.toSeconds() + " s (--exit-when-idle)");
    }
    return Optional.empty();
  }
}
