package io.turndiff.cli;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.workspace.WorkspaceHandles;
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
      paramLabel = "FILE",
      description =
          "The store (default: $TURNDIFF_DB, else $XDG_DATA_HOME/turndiff/turndiff.db, "
              + "else ~/.local/share/turndiff/turndiff.db).")
  Path database;

  @Option(
      names = "--size-limit",
      scope = ScopeType.INHERIT,
      paramLabel = "BYTES",
      defaultValue = "2097152",
      description =
          "Files larger than this are not stored, only fingerprinted by sampling (a rewind still "
              + "stores what it overwrites) (default: ${DEFAULT-VALUE}).")
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

  /** The store options of the command line {@code command} belongs to. */
  static StoreOptions of(CommandSpec command) {
    return ((Main) command.root().userObject()).storeOptions;
  }

  Path location() {
    return StoreLocation.resolve(Optional.ofNullable(database));
  }

  BoundaryOptions boundaryOptions() {
    BoundaryOptions.Mechanism mechanism;
    try {
      mechanism = BoundaryOptions.Mechanism.ofOption(boundary);
    } catch (IllegalArgumentException e) {
      throw new CliException(Main.EXIT_USAGE, e.getMessage());
    }
    if (sizeLimit < 0) {
      throw new CliException(Main.EXIT_USAGE, "--size-limit must not be negative: " + sizeLimit);
    }
    return BoundaryOptions.builder()
        .sizeLimit(sizeLimit)
        .fullHash(fullHash)
        .mechanism(mechanism)
        .build();
  }

  /**
   * Opens the store with capture, rewind and queries over it. A damaged store still answers what it
   * can, with a warning on stderr; a write to it fails (exit {@link Main#EXIT_STORE}).
   */
  Turndiff open() {
    return open(WorkspacePolicy.anyDirectory(), WorkspaceHandles.DEFAULT_CAPACITY);
  }

  /** As {@link #open()}, with the workspaces it may work in and how many it keeps open at once. */
  Turndiff open(WorkspacePolicy policy, int openWorkspaces) {
    Turndiff turndiff =
        Turndiff.builder(location())
            .boundary(boundaryOptions())
            .policy(policy)
            .openWorkspaces(openWorkspaces)
            .hook(EnvTestHook.fromEnvironment())
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
                            + turndiff.store().file()
                            + " is damaged ("
                            + damage
                            + "); what it answers may be "
                            + "incomplete, and nothing is written to it"));
    return turndiff;
  }
}
