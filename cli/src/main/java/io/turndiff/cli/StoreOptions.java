package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.TestHook;
import io.turndiff.store.PostgresDatabase;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoreLocation;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The options every command that uses the store shares: where it is, and how the boundary reads.
 * They belong to {@code turndiff} itself and every command inherits them, so they are accepted
 * before the command words ({@code turndiff --db F show ...}, as git takes {@code -C} first),
 * between them, or after them; whatever their position, the values land here, in {@link Main}'s
 * instance, which {@link #of} hands to a command.
 */
final class StoreOptions {

  @Option(
      names = "--db",
      scope = ScopeType.INHERIT,
      paramLabel = "FILE|URL",
      description =
          "The store: a SQLite file, or a PostgreSQL database shared by many machines "
              + "(jdbc:postgresql://host[:port]/database, without a password) (default: "
              + "$TURNDIFF_DB, else $XDG_DATA_HOME/turndiff/turndiff.db, "
              + "else ~/.local/share/turndiff/turndiff.db).")
  String database;

  @Option(
      names = "--db-password-file",
      scope = ScopeType.INHERIT,
      paramLabel = "FILE",
      description =
          "The PostgreSQL store's password: the first line of FILE, which only its owner may read "
              + "(mode 0600) (default: $TURNDIFF_DB_PASSWORD_FILE, else PGPASSWORD, else "
              + "~/.pgpass).")
  Path passwordFile;

  @Option(
      names = "--size-limit",
      scope = ScopeType.INHERIT,
      paramLabel = "BYTES",
      defaultValue = "67108864",
      description =
          "Files larger than this are not stored, only fingerprinted by sampling (a rewind still "
              + "stores what it overwrites); those over 2 MiB are streamed into the store in "
              + "chunks (default: ${DEFAULT-VALUE}, 64 MiB).")
  long sizeLimit;

  @Option(
      names = "--full-hash",
      scope = ScopeType.INHERIT,
      description =
          "Hash files over --size-limit whole (slow for huge files) instead of fingerprinting them "
              + "by sampling.")
  boolean fullHash;

  @Option(
      names = "--boundary",
      scope = ScopeType.INHERIT,
      paramLabel = "KIND",
      defaultValue = "auto",
      hidden = true,
      description =
          "auto (the strongest available), openat2, openat (O_NOFOLLOW per component) or fallback "
              + "(SecureDirectoryStream).")
  String boundary;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** Told when a run reaches a {@link TestHook.Point}: {@link TestHook#NONE} but in tests. */
  TestHook hook = TestHook.NONE;

  /** The service's open store, when the service runs this command for a client. */
  private Turndiff served;

  /** Has the command use {@code turndiff}, the service's open store, which it leaves open. */
  void serve(Turndiff turndiff) {
    this.served = turndiff;
  }

  /**
   * The store a read-only command queries: the service's when the service runs it ({@link
   * ServedCommands}), else opened as {@link #open()} opens it and closed after the command.
   */
  Queried queried() {
    return served != null ? new Queried(served, false) : new Queried(open(), true);
  }

  /** {@link #queried()}: the store, and whether the command closes it. */
  record Queried(Turndiff turndiff, boolean owned) implements AutoCloseable {
    @Override
    public void close() {
      if (owned) {
        turndiff.close();
      }
    }
  }

  /** The store options of the command line {@code command} belongs to. */
  static StoreOptions of(CommandSpec command) {
    return ((Main) command.root().userObject()).storeOptions;
  }

  /**
   * The store's file; for a PostgreSQL store, the file a local store would have, beside which a
   * service keeps its token and lock.
   */
  Path location() {
    return switch (address()) {
      case StoreAddress.SqliteFile file -> file.path();
      case PostgresDatabase _ -> StoreLocation.defaultFile(System.getenv());
    };
  }

  /**
   * {@code --db} when given (null when not): the per-user service names its files from it, or from
   * the environment as the hook scripts do; a PostgreSQL store's service keeps them beside the
   * default file.
   */
  Path givenLocation() {
    return database == null ? null : location();
  }

  /**
   * Whether {@code --db} was given: {@code demo} keeps its turn only in a store the user named, and
   * otherwise plays it on a temporary store it removes.
   */
  boolean storeGiven() {
    return database != null;
  }

  /**
   * Where the store is: {@code --db}, else {@code $TURNDIFF_DB}, else the default file. A bad
   * PostgreSQL URL or password file is a usage error naming it.
   */
  StoreAddress address() {
    try {
      return StoreLocation.address(
          Optional.ofNullable(database), Optional.ofNullable(passwordFile), System.getenv());
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
  }

  BoundaryOptions boundaryOptions() {
    BoundaryOptions.Mechanism mechanism;
    try {
      mechanism = BoundaryOptions.Mechanism.ofOption(boundary);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    Portability mode;
    try {
      mode = Portability.current();
    } catch (BoundaryException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    if (!mode.allows(mechanism)) {
      throw new CliException(
          ExitCode.USAGE,
          "--boundary "
              + boundary
              + " is not used with "
              + Portability.VARIABLE
              + "="
              + mode.value()
              + ": only auto or openat");
    }
    if (sizeLimit < 0) {
      throw new CliException(ExitCode.USAGE, "--size-limit must not be negative: " + sizeLimit);
    }
    return BoundaryOptions.builder()
        .sizeLimit(sizeLimit)
        .fullHash(fullHash)
        .mechanism(mechanism)
        .build();
  }

  /**
   * Opens the store with capture, rewind and queries over it. A damaged store still answers what it
   * can, with a warning on stderr; a write to it fails (exit {@link ExitCode#STORE}).
   */
  Turndiff open() {
    return open(WorkspacePolicy.anyDirectory(), WorkspaceHandles.DEFAULT_CAPACITY);
  }

  /** As {@link #open()}, with the workspaces it may work in and how many it keeps open at once. */
  Turndiff open(WorkspacePolicy policy, int openWorkspaces) {
    return open(policy, openWorkspaces, WatchOptions.OFF);
  }

  /**
   * As {@link #open(WorkspacePolicy, int)}, watching tracked workspaces as {@code watch} says (the
   * service does).
   */
  Turndiff open(WorkspacePolicy policy, int openWorkspaces, WatchOptions watch) {
    return open(address(), policy, openWorkspaces, watch);
  }

  /** As {@link #open()}, on the store at {@code address} rather than the one the options name. */
  Turndiff open(StoreAddress address) {
    return open(
        address,
        WorkspacePolicy.anyDirectory(),
        WorkspaceHandles.DEFAULT_CAPACITY,
        WatchOptions.OFF);
  }

  private Turndiff open(
      StoreAddress address, WorkspacePolicy policy, int openWorkspaces, WatchOptions watch) {
    Turndiff turndiff =
        Turndiff.builder(address)
            .boundary(boundaryOptions())
            .policy(policy)
            .openWorkspaces(openWorkspaces)
            .watch(watch)
            .hook(hook)
            .open();
    turndiff
        .store()
        .damage()
        .ifPresent(
            damage ->
                command
                    .commandLine()
                    .getErr()
                    .println(
                        "turndiff: warning: "
                            + "the store "
                            + turndiff.store().address().display()
                            + " is damaged ("
                            + damage
                            + "); what it answers may be "
                            + "incomplete, and nothing is written to it"));
    return turndiff;
  }
}
