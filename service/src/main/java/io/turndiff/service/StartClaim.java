package io.turndiff.service;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.wire.WireReplacedService;
import io.turndiff.ownfiles.LockFile;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The right to start the service of one store, decided under the store's start lock: what {@code
 * service start} does before it spawns the daemon, and what the daemon does itself when a hook
 * starts it directly ({@code service daemon}, one JVM on the cold path: docs/service.md, "Cold
 * start"). Taking it makes the run directory (0700) and the store's folder and log (0700, 0600),
 * waits for the start lock, and probes: the same program's service running already means there is
 * nothing to start ({@link #running()}); one of another program is stopped and replaced; a stale
 * discovery file is removed; a {@code serve} that holds the store is stopped. Whoever holds the
 * claim starts the service and lets it go ({@link #close()}) once the service published its
 * discovery file, so that a second starter waiting on the lock finds that service and starts none.
 */
public final class StartClaim implements AutoCloseable {

  private final LockFile lock;
  private final Discovery running;
  private final WireReplacedService replaced;

  private StartClaim(LockFile lock, Discovery running, WireReplacedService replaced) {
    this.lock = lock;
    this.running = running;
    this.replaced = replaced;
  }

  /**
   * Takes the start lock of {@code files} (waiting for a start under way) and decides.
   *
   * @param notes told each line worth the user's attention (the store's folder closed, a stale
   *     discovery file replaced, a service of another program restarted)
   */
  public static StartClaim take(ServiceFiles files, Program program, Consumer<String> notes)
      throws IOException {
    files.prepare();
    files.prepareStoreFolder().forEach(notes);
    LockFile lock = LockFile.acquire(files.startLock());
    try {
      WireReplacedService replaced = null;
      switch (ServiceProbe.probe(files)) {
        case ServiceProbe.Running found -> {
          if (Program.of(found.discovery()).isSame(program)) {
            return new StartClaim(lock, found.discovery(), null);
          }
          replaced = ServiceControl.replace(found.discovery(), files, program, notes);
        }
        case ServiceProbe.Unproven unproven ->
            throw new CliException(
                ExitCode.ERROR,
                unproven.reason()
                    + ", and it holds the store; not starting a second service "
                    + "(turndiff service stop --force ends it; its log: "
                    + files.log()
                    + ")");
        case ServiceProbe.Stale stale -> {
          notes.accept("replacing a stale discovery file: " + stale.reason());
          files.removeServiceFiles();
        }
        case ServiceProbe.Nothing _ -> {
          // start one
        }
      }
      if (replaced == null) {
        replaced = ServiceControl.takeOver(StoreService.of(files.storePath()), notes);
      }
      return new StartClaim(lock, null, replaced);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /** The same program's service, proven, found running: nothing is to be started. */
  public Optional<Discovery> running() {
    return Optional.ofNullable(running);
  }

  /** The service this start stopped to take its place (another program's, or a serve), if any. */
  public WireReplacedService replaced() {
    return replaced;
  }

  /** Lets the start lock go: the service published, or the start failed. */
  @Override
  public void close() {
    lock.close();
  }
}
