package io.turndiff.rewind;

import io.turndiff.boundary.Portability;
import io.turndiff.ownfiles.Proc;
import java.util.Optional;

/**
 * Which boot of the machine this process runs in: Linux's {@code /proc/sys/kernel/random/boot_id},
 * a random id the kernel draws at each boot. A rewind records it with its operation; an operation
 * whose writes were not made durable, found from another boot, may have lost some of them to a
 * power loss or a crash of the machine, and is checked again ({@link PowerLossRecovery}). Within
 * one boot the page cache holds every write a process made, whatever became of that process, so
 * nothing needs checking there (only the sync is made again).
 */
final class BootId {

  private BootId() {}

  /**
   * This boot's id; empty where the system does not tell one (not Linux), or where the process may
   * not read {@code /proc} (the posix mode, {@link Portability}).
   */
  static Optional<String> now() {
    if (Portability.current() != Portability.LINUX) {
      return Optional.empty();
    }
    return Proc.bootId();
  }

  /**
   * Whether {@code recorded} may have been taken in another boot than this one: when the two
   * differ, and when either is unknown (a system without boot ids, an operation recorded before
   * they were). Checking an operation again costs a read of the paths it wrote and never writes
   * over anything a power loss did not leave, so a doubt is settled by checking.
   */
  static boolean mayBeAnotherThanNow(Optional<String> recorded) {
    Optional<String> now = now();
    return recorded.isEmpty() || now.isEmpty() || !recorded.equals(now);
  }

  /**
   * Whether {@code recorded} is known to have been taken in another boot than this one: both are
   * known, and they differ. No page cache outlives its boot, so what this boot reads of a file no
   * one has written since it began is what the disk holds ({@link PowerLossRecovery} settles an
   * operation on it where the file system cannot be synced).
   */
  static boolean knownToBeAnotherThanNow(Optional<String> recorded) {
    Optional<String> now = now();
    return recorded.isPresent() && now.isPresent() && !recorded.equals(now);
  }
}
