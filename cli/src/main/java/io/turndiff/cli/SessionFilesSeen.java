package io.turndiff.cli;

import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.boundary.WorkspaceRoot;
import io.turndiff.hooks.HookSightings;
import io.turndiff.hooks.install.ConfigFiles;
import io.turndiff.hooks.install.ProcessEvidence;
import io.turndiff.hooks.install.RuntimeProcesses;
import io.turndiff.hooks.install.RuntimeSessionFiles;
import io.turndiff.hooks.install.SessionFileEvidence;
import io.turndiff.hooks.install.UserDirectories;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the runtimes' own session files, and their processes at work in it, show of a workspace, for
 * {@code hooks status} and {@code doctor}: compared with the hook calls the running service
 * received from there, else with those its store kept (a runtime whose hooks never fire may never
 * have started the service), else with none.
 */
final class SessionFilesSeen {

  private SessionFilesSeen() {}

  /**
   * {@code status} with the evidence of the runtimes' session files for {@code directory}, looked
   * at from {@code here}, and of their processes at work there.
   */
  static WireHooksStatus added(
      WireHooksStatus status, StoreOptions store, Path directory, Path here) {
    List<WireHookSighting> hooksSeen =
        status.service().running() ? status.service().sightings() : kept(store, directory);
    RuntimeSessionFiles files =
        new RuntimeSessionFiles(UserDirectories.current(), Clock.systemDefaultZone().getZone());
    Set<Path> names = names(directory);
    Instant now = Clock.systemUTC().instant();
    return status
        .withSessionFiles(new SessionFileEvidence(files).look(status, names, here, hooksSeen, now))
        .withProcesses(
            new ProcessEvidence(new RuntimeProcesses(), files).look(status, names, hooksSeen, now));
  }

  /** The sightings the store kept in {@code directory} or below; none without a store. */
  private static List<WireHookSighting> kept(StoreOptions options, Path directory) {
    if (!ConfigFiles.exists(options.location())) {
      return List.of();
    }
    try (Turndiff turndiff = options.open()) {
      return HookSightings.kept(turndiff.store()).stream()
          .filter(s -> s.directory().startsWith("/"))
          .filter(s -> Path.of(s.directory()).startsWith(directory))
          .toList();
    }
  }

  /** The workspace as given and by its real path: a runtime may report either. */
  private static Set<Path> names(Path directory) {
    Set<Path> names = new LinkedHashSet<>();
    names.add(directory);
    WorkspaceRoot.real(directory).ifPresent(names::add);
    return names;
  }
}
