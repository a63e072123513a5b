package io.turndiff.cli;

import io.turndiff.store.RetentionPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A retention policy in words, as {@code config} and {@code du} show it to a person: which turns
 * go, which always stay, and that a store without a policy keeps everything.
 */
final class RetentionText {

  private RetentionText() {}

  static String of(RetentionPolicy policy) {
    if (!policy.any()) {
      return "none: no turn is ever removed (turndiff config --default-policy sets the default: "
          + of(RetentionPolicy.DEFAULT)
          + ")";
    }
    List<String> parts = new ArrayList<>();
    if (policy.olderThan().isPresent()) {
      parts.add("turns finished over " + duration(policy.olderThan().get()) + " ago go");
    } else if (policy.keepTurns().isPresent()) {
      parts.add("turns go whatever their age");
    }
    policy
        .keepTurns()
        .ifPresent(
            n -> parts.add("each session's newest " + RelativeTime.count(n, "turn") + " stay"));
    policy
        .maxSize()
        .ifPresent(max -> parts.add("past " + bytes(max) + " in use, more of the oldest go"));
    return String.join("; ", parts);
  }

  /** {@code 30d}, {@code 12h}, {@code 45m} or {@code 90s}: the largest unit that is whole. */
  static String duration(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds != 0 && seconds % 86400 == 0) {
      return seconds / 86400 + "d";
    }
    if (seconds != 0 && seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    if (seconds != 0 && seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }

  /** {@code 2 GiB}, {@code 1.5 MiB}, {@code 512 bytes}. */
  static String bytes(long bytes) {
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
      return RelativeTime.count(bytes, "byte");
    }
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return (value == Math.rint(value)
            ? Long.toString((long) value)
            : String.format(Locale.ROOT, "%.1f", value))
        + " "
        + units[unit];
  }
}
