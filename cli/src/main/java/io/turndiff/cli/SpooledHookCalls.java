package io.turndiff.cli;

import io.turndiff.api.RequestBodies;
import io.turndiff.hooks.HookOutcome;
import io.turndiff.hooks.HookQuery;
import io.turndiff.server.HttpService;
import io.turndiff.service.HookSpool;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The per-user service's side of the hook script's spool (docs/runtime-hooks.md, "When the service
 * is not running"): the calls kept while no service ran are taken, in the order they were made,
 * once before the service publishes its discovery file (so no call delivered live can overtake
 * them), then every {@value #LOOK_EVERY_MS} ms for a call kept while the service was coming up.
 * Each is acted on late ({@link HttpService#takeLateHook}); what it did, or why it could not be
 * taken, is a line of the service's log.
 */
final class SpooledHookCalls {

  private static final long LOOK_EVERY_MS = 2_000;

  private final HookSpool spool;
  private final HttpService service;
  private final PrintStream log;

  SpooledHookCalls(Path discovery, HttpService service, PrintStream log) {
    this.spool = HookSpool.besideDiscovery(discovery, RequestBodies.PAYLOAD_LIMIT_BYTES);
    this.service = service;
    this.log = log;
  }

  /** Takes every call in the spool now. */
  void takeAll() {
    try {
      int taken = spool.drain(this::take);
      if (taken > 0) {
        log.println(
            "turndiff serve: took "
                + taken
                + " hook calls the hook script kept in "
                + spool.directory()
                + " while no service ran");
      }
    } catch (IOException e) {
      log.println("turndiff serve: cannot read the hook spool " + spool.directory() + ": " + e);
    }
    spool.ignored().forEach(line -> log.println("turndiff serve: hook spool: " + line));
  }

  /** Looks at the spool again every {@value #LOOK_EVERY_MS} ms, on a daemon thread. */
  void keepLooking() {
    ScheduledExecutorService looking =
        Executors.newSingleThreadScheduledExecutor(
            task -> Thread.ofPlatform().daemon().name("turndiff-hook-spool").unstarted(task));
    ScheduledFuture<?> unused =
        looking.scheduleWithFixedDelay(
            this::takeAll, LOOK_EVERY_MS, LOOK_EVERY_MS, TimeUnit.MILLISECONDS);
  }

  private void take(HookSpool.Call call) {
    try {
      HookOutcome outcome =
          service.takeLateHook(
              call.runtime(),
              call.body(),
              new HookQuery(call.gitRoot(), call.autoTrack()),
              call.spooledAt());
      log.println(
          "turndiff serve: hook "
              + call.runtime()
              + " kept since "
              + call.spooledAt()
              + ", taken late: "
              + String.join(",", outcome.outcomes()));
    } catch (RuntimeException e) {
      // not a payload, an unknown runtime: removed, as the endpoint would have refused it
      log.println(
          "turndiff serve: hook "
              + call.runtime()
              + " kept since "
              + call.spooledAt()
              + " could not be taken: "
              + e.getMessage());
    }
  }
}
