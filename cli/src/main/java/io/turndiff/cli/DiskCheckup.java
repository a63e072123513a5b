package io.turndiff.cli;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.ownfiles.DiskSpace;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code turndiff doctor}'s look at the free space where the store is. A full disk is how a
 * checkpoint tool stops silently: SQLite cannot grow the store, every capture then fails, and a
 * rewind cannot store what it is about to overwrite (so it refuses). Below {@link #FAIL_BELOW} the
 * next big turn may not fit; below {@link #WARN_BELOW}, or under {@link #WARN_PERCENT} % of the
 * file system, it is time to collect ({@code turndiff gc}) or make room.
 */
final class DiskCheckup {

  static final long FAIL_BELOW = 100L << 20;
  static final long WARN_BELOW = 1L << 30;
  static final int WARN_PERCENT = 5;

  private DiskCheckup() {}

  /** The space where {@code store} is, or would be made. */
  static Check at(Path store) {
    Optional<DiskSpace> space = DiskSpace.at(store);
    if (space.isEmpty()) {
      return Check.skip("disk", "cannot read the free space where " + store + " is");
    }
    DiskSpace found = space.get();
    String said =
        RetentionText.bytes(found.usableBytes())
            + " free of "
            + RetentionText.bytes(found.totalBytes())
            + " at "
            + found.place();
    if (found.usableBytes() < FAIL_BELOW) {
      return Check.fail(
          "disk",
          said + ": captures and rewinds fail when the store cannot grow",
          "make room on that file system, or run `turndiff gc` and `turndiff du` to see what the"
              + " store holds");
    }
    if (found.usableBytes() < WARN_BELOW
        || found.usableBytes() * 100 < found.totalBytes() * WARN_PERCENT) {
      return Check.warn(
          "disk", said, "make room soon, or set a retention policy (`turndiff config`)");
    }
    return Check.ok("disk", said);
  }
}
