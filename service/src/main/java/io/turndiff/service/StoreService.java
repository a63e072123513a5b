package io.turndiff.service;

import io.turndiff.ownfiles.LockFile;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one service of a store, found by the store's identity rather than by how a command happened
 * to name the store (docs/service.md, "One service per store"). Every {@code serve}, the per-user
 * service and one {@code turndiff open} started alike, holds {@code <store>.service.lock} for its
 * life and publishes {@code <store>.service.json} (a {@link Discovery}, 0600) once it listens;
 * {@code open}, a second {@code serve} and {@code service start} read it, and trust it only once
 * the port has proved it holds the token the record names ({@link ServiceProbe#challenge}).
 *
 * <p>The identity is the store file's real path: the same file reached through a linked folder, a
 * relative name or {@code $TURNDIFF_DB} spelled differently is one store, so its lock and record
 * are one file each, and {@code flock} on that one inode decides which service holds the store. A
 * store not created yet has the real path of its folder and its own name. The per-user service's
 * other files stay keyed by the path string the hook script hashes ({@link ServiceFiles}): the
 * shell client cannot resolve links cheaply, and needs not, since it only ever talks to the
 * per-user service.
 */
public final class StoreService {

  private final Path identity;

  private StoreService(Path identity) {
    this.identity = identity;
  }

  /** The service of the store at {@code database} (resolved now: its links, its folder's). */
  public static StoreService of(Path database) throws IOException {
    Path absolute = database.toAbsolutePath().normalize();
    OwnFile file = OwnFile.of(absolute);
    if (file.exists()) {
      return new StoreService(file.realPath());
    }
    Path folder = absolute.getParent();
    OwnFile folderFile = OwnFile.of(folder);
    Path realFolder = folderFile.isDirectory() ? folderFile.realPath() : folder;
    return new StoreService(realFolder.resolve(absolute.getFileName()));
  }

  /** The store's real path: what every name of the store resolves to. */
  public Path identity() {
    return identity;
  }

  /** Held by the store's service for its whole life, whoever started it. */
  public Path lock() {
    return Path.of(identity + ".service.lock");
  }

  /** Where the store's service says who it is and where it listens. */
  public Path record() {
    return Path.of(identity + ".service.json");
  }

  /**
   * The token of a {@code serve} started without {@code --token-file}: beside the store and named
   * after it, so that two stores in one folder keep two tokens.
   */
  public Path defaultToken() {
    return Path.of(identity + ".token");
  }

  /**
   * What serves the store now: {@link ServiceProbe.Running} once its port proved it holds the token
   * its record names; {@link ServiceProbe.Unproven} when the store's lock is held and its record's
   * process does not prove itself (hung, or stopping); else {@link ServiceProbe.Nothing} (no
   * record: none runs, one is starting, or an older turndiff that writes none holds the store,
   * which its lock then refuses; a record whose process is gone is left for the next service to
   * replace).
   */
  public ServiceProbe.Found find() throws IOException {
    Optional<Discovery> read =
        Discovery.read(record())
            .filter(found -> ProcessStart.matches(found.pid(), found.procStartTicks()));
    if (read.isEmpty()) {
      return new ServiceProbe.Nothing();
    }
    Discovery found = read.get();
    if (OwnFile.of(found.tokenFile()).exists(LinkOption.NOFOLLOW_LINKS)) {
      Optional<String> token = TokenFile.read(found.tokenFile());
      if (token.isPresent() && ServiceProbe.challenge(found, token.get()).isEmpty()) {
        return new ServiceProbe.Running(found, token.get());
      }
    }
    // asked only when a live process is recorded: the question takes the lock for an instant, and
    // a serve that is starting must not find it taken by a client looking for it
    if (LockFile.heldElsewhere(lock())) {
      return new ServiceProbe.Unproven(
          found,
          "another process holds the store "
              + identity
              + " (pid "
              + found.pid()
              + ", port "
              + found.port()
              + ") and does not prove it is its turndiff service");
    }
    return new ServiceProbe.Nothing();
  }

  /** Says which service holds the store, for a command that will not start a second one. */
  public static String describe(Discovery running) {
    return "pid "
        + running.pid()
        + ", "
        + running.url()
        + ", since "
        + running.startedAt()
        + ", its log "
        + running.logFile();
  }
}
