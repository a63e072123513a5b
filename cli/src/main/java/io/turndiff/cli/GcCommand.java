package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireGcReport;
import io.turndiff.store.GarbageCollector;
import io.turndiff.store.RetentionPolicy;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff gc [--older-than DURATION] [--keep-turns N] [--max-size BYTES] [--dry-run]}:
 * removes finished turns by policy, then blobs nothing refers to, and gives the space back.
 */
@Command(
    name = "gc",
    description =
        "Remove finished turns by policy (oldest first, per session), then the blobs no record "
            + "refers to, and give the space back to the file system. Without a policy option, the "
            + "policy kept with the store (turndiff config; a new store keeps the default) "
            + "applies; without either, no turn is removed. Never an open turn, nor a turn of a "
            + "rewind that is unfinished or whose other "
            + "turns are kept, nor what a tracked workspace's index refers to.")
final class GcCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--older-than",
      paramLabel = "DURATION",
      converter = DurationArgument.class,
      description = "Remove turns finished longer ago than DURATION (7d, 12h, 2w, PT36H).")
  Duration olderThan;

  @Option(
      names = "--keep-turns",
      paramLabel = "N",
      description =
          "Keep the newest N turns of every session; with --older-than, remove only turns that are "
              + "both older and not among them.")
  Integer keepTurns;

  @Option(
      names = "--max-size",
      paramLabel = "BYTES",
      description =
          "Then, while the store's pages in use hold more than BYTES, remove more finished turns, "
              + "oldest first across sessions (still keeping --keep-turns of each).")
  Long maxSize;

  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      converter = DurationArgument.class,
      defaultValue = "1h",
      description =
          "Keep a blob nothing refers to yet if it was stored or looked up within DURATION: a "
              + "capture or a tracking scan in another process may be about to refer to it "
              + "(default: ${DEFAULT-VALUE}).")
  Duration grace;

  @Option(
      names = "--dry-run",
      description = "List what would be removed and the blob bytes freed; change nothing.")
  boolean dryRun;

  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Override
  public Integer call() {
    RetentionPolicy policy;
    try {
      policy =
          new RetentionPolicy(
              Optional.ofNullable(olderThan),
              keepTurns == null ? OptionalInt.empty() : OptionalInt.of(keepTurns),
              maxSize == null ? OptionalLong.empty() : OptionalLong.of(maxSize),
              grace);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      // without a policy on the command line, the one kept with the store (turndiff config)
      RetentionPolicy chosen =
          policy.any()
              ? policy
              : turndiff.store().read(tx -> RetentionPolicy.stored(tx.settings(), grace));
      GarbageCollector.Result result =
          new GarbageCollector(turndiff.store(), turndiff.hook()).collect(chosen, dryRun);
      spec.commandLine().getOut().println(Json.write(WireGcReport.of(result), pretty));
    }
    return ExitCode.OK.code();
  }
}
