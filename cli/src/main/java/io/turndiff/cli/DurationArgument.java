package io.turndiff.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A duration on the command line: a whole number and a unit ({@code 90s}, {@code 30m}, {@code 12h},
 * {@code 7d}, {@code 2w}), or ISO-8601 ({@code PT36H}).
 */
final class DurationArgument implements ITypeConverter<Duration> {

  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})([smhdw])");

  @Override
  public Duration convert(String value) {
    Matcher shortForm = SHORT.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (shortForm.matches()) {
      long amount = Long.parseLong(shortForm.group(1));
      return switch (shortForm.group(2)) {
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        case "d" -> Duration.ofDays(amount);
        default -> Duration.ofDays(7 * amount);
      };
    }
    try {
      Duration parsed = Duration.parse(value.strip());
      if (!parsed.isNegative()) {
        return parsed;
      }
    } catch (DateTimeParseException notIso) {
      // reported below
    }
    throw new TypeConversionException(
        "'" + value + "' is not a duration: a whole number and s, m, h, d or w (7d), or ISO-8601");
  }
}
