package io.turndiff.cli;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.api.wire.WireServiceWatch;
import io.turndiff.ownfiles.Proc;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code turndiff doctor}'s look at the kernel's inotify limit against what the service's watcher
 * holds. The watcher takes one watch per directory of every tracked workspace; past the user's
 * {@code fs.inotify.max_user_watches} it falls back to walking the whole tree at every finish
 * (correct, but O(tree) again), and editors and other watchers share the same limit, so a watcher
 * near it is warned about before it is reached. A watcher whose checks against a whole walk failed
 * is warned about too: its watched scans went unchecked.
 */
final class WatchCheckup {

  /** Warn when the watcher holds more than this share of the user's limit. */
  static final int WARN_PERCENT = 80;

  private static final String LIMIT_REACHED = "the watch limit was reached";

  private WatchCheckup() {}

  static Check of(Optional<WireServiceStatus> status) {
    OptionalLong limit = Proc.inotifyWatchLimit();
    String limitSaid =
        limit.isPresent() ? "the user's inotify watch limit is " + limit.getAsLong() : "no /proc";
    Optional<WireServiceWatch> watch = status.map(WireServiceStatus::watch);
    if (watch.isEmpty()) {
      return Check.skip("watch", limitSaid + "; the service, whose watcher uses it, does not run");
    }
    WireServiceWatch found = watch.get();
    if (!found.enabled()) {
      return Check.ok(
          "watch", limitSaid + "; the service does not watch (each finish walks the tree)");
    }
    String raise =
        "raise it: sudo sysctl fs.inotify.max_user_watches="
            + Math.max(524_288, limit.orElse(0) * 4)
            + " (and the same line in /etc/sysctl.d/ to keep it), then turndiff service stop &&"
            + " turndiff service start";
    long reached =
        found.fallbacks().entrySet().stream()
            .filter(fallback -> fallback.getKey().startsWith(LIMIT_REACHED))
            .mapToLong(Map.Entry::getValue)
            .sum();
    String holds =
        "the watcher holds "
            + found.directories()
            + " directories of "
            + found.workspaces()
            + " workspace(s); "
            + limitSaid;
    String readTheLog =
        found.failedChecks() == 0
            ? ""
            : "read the service's log (turndiff service status names it) for why the checks"
                + " failed (a restart resets the count)";
    if (reached > 0) {
      return Check.fail(
          "watch",
          holds
              + "; "
              + reached
              + " scan(s) walked the whole tree at the limit"
              + failedChecks(found),
          andThen(raise, readTheLog));
    }
    if (limit.isPresent() && found.directories() * 100L > limit.getAsLong() * WARN_PERCENT) {
      return Check.warn("watch", holds + failedChecks(found), andThen(raise, readTheLog));
    }
    if (found.failedChecks() > 0) {
      return Check.warn("watch", holds + failedChecks(found), readTheLog);
    }
    return Check.ok("watch", holds);
  }

  private static String andThen(String todo, String more) {
    return more.isEmpty() ? todo : todo + "; " + more;
  }

  /** The checks of the watched scans that failed, said after what the watcher holds; or nothing. */
  private static String failedChecks(WireServiceWatch found) {
    if (found.failedChecks() == 0) {
      return "";
    }
    return "; since the service started "
        + found.failedChecks()
        + " check(s) of the watched scans against a whole walk failed, the last: "
        + found.lastFailedCheck();
  }
}
