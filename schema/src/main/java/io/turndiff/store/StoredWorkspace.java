package io.turndiff.store;

import java.time.Instant;
import java.util.Optional;

/**
 * A workspace row: the root as the runtime gave it, its real path, the identity (device, inode) of
 * the root directory when it was last opened, and the machine holding it (empty: registered before
 * host ids, not yet adopted by a host).
 */
public record StoredWorkspace(
    long id,
    String rootGiven,
    String rootReal,
    long rootDevice,
    long rootInode,
    Instant createdAt,
    Optional<HostId> host) {

  /**
   * Whether a service on {@code machine} may work in it: its own, or one registered before hosts.
   */
  public boolean heldBy(HostId machine) {
    return host.isEmpty() || host.get().equals(machine);
  }
}
