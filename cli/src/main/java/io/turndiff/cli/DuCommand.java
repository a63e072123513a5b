package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireStoreUsage;
import io.turndiff.model.RequestException;
import io.turndiff.store.RetentionPolicy;
import io.turndiff.store.StoreUsage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff du [--workspace DIR] [--json]}: the store's footprint, and the retention policy
 * that bounds it.
 */
@Command(
    name = "du",
    description =
        "The store's footprint per workspace and session: turns, records, and the stored blob "
            + "bytes they refer to, with the part other sessions or an index share (what removing "
            + "them would not free), and the retention policy kept with the store. Writes nothing.")
final class DuCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "Only this workspace (default: every workspace).")
  Path workspace;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      Optional<String> root =
          Optional.ofNullable(workspace).map(dir -> dir.toAbsolutePath().normalize().toString());
      StoreUsage usage = StoreUsage.measure(turndiff.store(), root);
      RetentionPolicy policy =
          turndiff.store().read(tx -> RetentionPolicy.stored(tx.settings(), Duration.ZERO));
      if (root.isPresent() && usage.workspaces().isEmpty()) {
        throw new RequestException(
            RequestException.Problem.WORKSPACE,
            "workspace " + workspace + " has no recorded turns");
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(
            Json.write(
                WireStoreUsage.of(turndiff.store().address().display(), usage, policy), false));
        return ExitCode.OK.code();
      }
      out.printf(
          "%s: %d bytes (%d free inside), %d blobs of %d bytes stored, %d bytes referred to by "
              + "nothing, %d by tracked workspaces' indexes; %d bytes of compression "
              + "dictionaries%n",
          turndiff.store().address().display(),
          usage.fileBytes(),
          usage.freeBytes(),
          usage.blobs(),
          usage.blobBytes(),
          usage.unreferencedBlobBytes(),
          usage.indexBlobBytes(),
          usage.dictionaryBytes());
      out.println("retention: " + RetentionText.of(policy));
      for (StoreUsage.WorkspaceUsage each : usage.workspaces()) {
        out.println(
            each.dictionaryBytes() > 0
                ? each.root() + " (compression dictionary: " + each.dictionaryBytes() + " bytes)"
                : each.root());
        for (StoreUsage.SessionUsage session : each.sessions()) {
          out.printf(
              "  %s: %d turns (%d open), %d records, %d blobs, %d bytes stored, %d shared%n",
              session.session(),
              session.turns(),
              session.openTurns(),
              session.records(),
              session.blobs(),
              session.blobBytes(),
              session.sharedBlobBytes());
        }
      }
    }
    return ExitCode.OK.code();
  }
}
