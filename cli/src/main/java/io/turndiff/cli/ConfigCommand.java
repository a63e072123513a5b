package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireConfig;
import io.turndiff.api.wire.WireRetentionConfig;
import io.turndiff.store.Prompts;
import io.turndiff.store.RetentionPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff config [--default-policy] [--older-than D] [--keep-turns N] [--max-size BYTES]
 * [--unset NAME]… [--prompts keep|none]}: the retention policy kept with the store, which the
 * service's collections and {@code gc} without policy options apply, and whether the store keeps
 * the prompts that made turns ({@link Prompts}). A new store keeps {@link RetentionPolicy#DEFAULT};
 * one upgraded with turns in it keeps what it had (migration V14), until {@code --default-policy}.
 */
@Command(
    name = "config",
    description =
        "Show or set the retention policy kept with the store, which the service applies daily "
            + "and `turndiff gc` without policy options at once. A new store keeps the default "
            + "(turns over 30 days old go, never a session's newest 10, and the oldest while the "
            + "store is over 2 GiB). Options given replace those criteria; --unset removes one. "
            + "Also whether the store keeps the prompts that made turns (--prompts).")
final class ConfigCommand implements Callable<Integer> {

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
      description = "Keep the newest N turns of every session.")
  Integer keepTurns;

  @Option(
      names = "--max-size",
      paramLabel = "BYTES",
      description = "Remove more of the oldest turns while the store's pages in use exceed BYTES.")
  Long maxSize;

  @Option(
      names = "--default-policy",
      description =
          "Keep the default policy (30 days, each session's newest 10 turns, 2 GiB); the other "
              + "options given change it.")
  boolean defaultPolicy;

  @Option(
      names = "--prompts",
      paramLabel = "keep|none",
      description =
          "Keep the prompts that made turns (their first line is the turn's title), or keep none"
              + " from now on (those kept stay until their turns go). A local store keeps them"
              + " unless told not to; a shared PostgreSQL store keeps none unless told to.")
  String prompts;

  @Option(names = "--json", description = "Print JSON, also on a terminal.")
  boolean json;

  @Option(
      names = "--unset",
      paramLabel = "NAME",
      description = "Remove a criterion: older-than, keep-turns or max-size (repeatable).")
  List<String> unset = List.of();

  @Override
  public Integer call() {
    if (prompts != null && !List.of("keep", "none").contains(prompts)) {
      throw new CliException(ExitCode.USAGE, "--prompts takes keep or none, not '" + prompts + "'");
    }
    for (String name : unset) {
      if (!List.of("older-than", "keep-turns", "max-size").contains(name)) {
        throw new CliException(
            ExitCode.USAGE, "--unset takes older-than, keep-turns or max-size, not '" + name + "'");
      }
    }
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      boolean changes =
          defaultPolicy
              || olderThan != null
              || keepTurns != null
              || maxSize != null
              || !unset.isEmpty();
      RetentionPolicy kept =
          changes
              ? turndiff
                  .store()
                  .write(
                      tx -> {
                        RetentionPolicy now =
                            defaultPolicy
                                ? RetentionPolicy.DEFAULT
                                : RetentionPolicy.stored(tx.settings(), Duration.ZERO);
                        RetentionPolicy next = changed(now);
                        next.store(tx.settings());
                        return next;
                      })
              : turndiff.store().read(tx -> RetentionPolicy.stored(tx.settings(), Duration.ZERO));
      if (prompts != null) {
        turndiff
            .store()
            .write(
                tx -> {
                  tx.prompts().keep(prompts.equals("keep"));
                  return null;
                });
      }
      String promptsKept = turndiff.store().read(tx -> tx.prompts().kept()) ? "keep" : "none";
      if (Main.terminal(spec).interactive() && !json) {
        spec.commandLine().getOut().println("retention: " + RetentionText.of(kept));
        spec.commandLine()
            .getOut()
            .println(
                "prompts: "
                    + (promptsKept.equals("keep")
                        ? "kept (the first line of each is its turn's title)"
                        : "none kept"));
      } else {
        spec.commandLine()
            .getOut()
            .println(Json.write(new WireConfig(WireRetentionConfig.of(kept), promptsKept), false));
      }
    }
    return ExitCode.OK.code();
  }

  /** {@code kept} with this command line's options and removals applied. */
  private RetentionPolicy changed(RetentionPolicy kept) {
    Optional<Duration> age =
        unset.contains("older-than")
            ? Optional.empty()
            : Optional.ofNullable(olderThan).or(kept::olderThan);
    OptionalInt count =
        unset.contains("keep-turns")
            ? OptionalInt.empty()
            : keepTurns != null ? OptionalInt.of(keepTurns) : kept.keepTurns();
    OptionalLong size =
        unset.contains("max-size")
            ? OptionalLong.empty()
            : maxSize != null ? OptionalLong.of(maxSize) : kept.maxSize();
    try {
      return new RetentionPolicy(age, count, size, Duration.ZERO);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
  }
}
