package io.turndiff.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * When something happened, as a person reads it beside {@code git log --date=relative}: "just now",
 * "5 minutes ago", "3 hours ago", "2 days ago", and past a month the date itself. A time ahead of
 * now (another machine's clock) reads "in the future" rather than a negative age.
 */
final class RelativeTime {

  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneId.systemDefault());
  private static final DateTimeFormatter EXACT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  private RelativeTime() {}

  static String of(Instant when, Instant now) {
    Duration age = Duration.between(when, now);
    if (age.isNegative()) {
      return age.abs().toSeconds() < 60 ? "just now" : "in the future";
    }
    long seconds = age.toSeconds();
    if (seconds < 60) {
      return "just now";
    }
    if (seconds < 3600) {
      return count(age.toMinutes(), "minute") + " ago";
    }
    if (seconds < 2 * 86400) {
      return count(age.toHours(), "hour") + " ago";
    }
    if (age.toDays() < 31) {
      return count(age.toDays(), "day") + " ago";
    }
    return DATE.format(when);
  }

  /** The local date and time to the second, for where the relative time is not enough. */
  static String exact(Instant when) {
    return EXACT.format(when);
  }

  static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
