package io.turndiff.cli;

import io.turndiff.api.RequestBodies;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.service.HookSpool;
import io.turndiff.service.ServiceFiles;
import io.turndiff.service.ServiceProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The store's per-user service as one look found it, for {@code turndiff doctor}: why its run
 * directory is refused (then nothing else is read), what its discovery file led to, its own status
 * when it runs and proved itself, the hook calls its spool keeps, and the calls the hook script
 * could not deliver.
 */
record ServiceSeen(
    ServiceFiles files,
    Optional<String> refused,
    ServiceProbe.Found found,
    Optional<WireServiceStatus> status,
    int kept,
    List<String> undelivered) {

  static ServiceSeen look(ServiceFiles files) throws IOException {
    List<String> undelivered = files.undeliveredForRunDirectory(5);
    Optional<String> refused = files.refusal();
    if (refused.isPresent()) {
      return new ServiceSeen(
          files, refused, new ServiceProbe.Nothing(), Optional.empty(), 0, undelivered);
    }
    int kept =
        HookSpool.besideDiscovery(files.discovery(), RequestBodies.PAYLOAD_LIMIT_BYTES).waiting();
    ServiceProbe.Found found = ServiceProbe.probe(files);
    Optional<WireServiceStatus> status =
        found instanceof ServiceProbe.Running running
            ? ServiceProbe.get(running, "/v1/service/status", WireServiceStatus.class)
            : Optional.empty();
    return new ServiceSeen(files, refused, found, status, kept, undelivered);
  }

  /**
   * The service as {@code hooks status} reports it, its sightings in {@code directory} or below.
   */
  WireHooksStatus.Service forHooksStatus(Path directory) {
    if (refused.isPresent()) {
      return new WireHooksStatus.Service(false, null, null, refused.get(), List.of());
    }
    if (status.isEmpty() || !(found instanceof ServiceProbe.Running running)) {
      return new WireHooksStatus.Service(false, null, null, null, List.of());
    }
    List<WireHookSighting> seen =
        status.get().sightings().stream()
            .filter(sighting -> Path.of(sighting.directory()).startsWith(directory))
            .toList();
    return new WireHooksStatus.Service(
        true, running.discovery().pid(), running.discovery().port(), null, seen);
  }
}
