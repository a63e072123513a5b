package io.turndiff.service;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * What a {@code serve} publishes and takes back when it stops, in the run directory (the per-user
 * service, for the hook clients) and beside the store ({@link StoreService#record()}, every serve):
 * the header file, then the discovery file (last: its existence means the rest is ready); on stop
 * the discovery file and the proof marker first, before the port closes, and the token and header
 * after — only while the discovery file still names this instance, so a newer daemon's files are
 * never touched.
 */
public final class DaemonFiles {

  private static final Duration WATCH_PERIOD = Duration.ofSeconds(5);

  private final Path discovery;
  private final Path token;
  private final Path header;
  private final Path verified;
  private final String instance;
  private volatile boolean owned;

  /**
   * Set by {@link #withdraw} before it deletes anything: the record is then gone because this
   * instance took it back, which the watch must not take for a newer daemon's doing.
   */
  private volatile boolean withdrawing;

  public DaemonFiles(Path discovery, Path token, String instance) {
    String base = discovery.getFileName().toString().replaceFirst("\\.json$", "");
    this.discovery = discovery;
    this.token = token;
    this.header = discovery.resolveSibling(base + ".header");
    this.verified = discovery.resolveSibling(base + ".verified");
    this.instance = instance;
  }

  /**
   * Writes the header file, then the discovery file naming this process, {@code port}, {@code
   * store} and {@code log} (where the service's output goes).
   */
  public void publish(String bearer, int port, Path store, Path log, Program program)
      throws IOException {
    ServiceFiles.writePrivately(header, "Authorization: Bearer " + bearer + "\r\n");
    ServiceFiles.deleteEach(verified);
    long pid = ProcessHandle.current().pid();
    new Discovery(
            instance,
            pid,
            ProcessStart.ticks(pid),
            port,
            store.toString(),
            token,
            header,
            log,
            program.version(),
            program.jar(),
            Instant.now().toString())
        .write(discovery);
    owned = true;
  }

  private boolean stillNamesUs() {
    try {
      return Discovery.read(discovery).map(d -> d.instance().equals(instance)).orElse(false);
    } catch (IOException e) {
      return false;
    }
  }

  /** Removes the discovery file and the proof marker, when they are still this instance's. */
  public void withdraw() {
    withdrawing = true;
    if (owned && stillNamesUs()) {
      ServiceFiles.deleteEach(discovery, verified);
    } else {
      owned = false;
    }
  }

  /** Removes the token and header files, when no newer daemon has replaced this one. */
  public void removeToken() {
    if (owned) {
      ServiceFiles.deleteEach(token, header);
    }
  }

  /**
   * Every 5 s, checks that the discovery file still names this instance; when it does not (the run
   * directory was emptied at logout, or a newer daemon replaced it) nobody can find this service:
   * it lets the files go (a newer daemon's are not this one's to delete) and runs {@code stop} (a
   * serve: {@code System.exit}, a graceful stop through its shutdown hook). A record this instance
   * withdrew itself, stopping (its shutdown hook runs while this thread still does), is not that:
   * the files stay this instance's, so that the hook still removes its token after the port closed.
   */
  public void watch(Runnable stop) {
    Thread.ofPlatform()
        .daemon()
        .name("turndiff-discovery-watch")
        .start(
            () -> {
              while (true) {
                try {
                  Thread.sleep(WATCH_PERIOD);
                } catch (InterruptedException e) {
                  return;
                }
                if (withdrawing) {
                  return; // stopping: nothing is left to watch
                }
                // withdrawing is set before withdraw deletes the record: a record seen gone is
                // this instance's own withdrawal if the flag is set once it was seen gone
                if (!stillNamesUs() && !withdrawing) {
                  owned = false;
                  System.err.println(
                      "turndiff service: "
                          + discovery
                          + " no longer names this instance; stopping");
                  stop.run();
                  return;
                }
              }
            });
  }
}
