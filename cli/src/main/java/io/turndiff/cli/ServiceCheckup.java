package io.turndiff.cli;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.service.ServiceProbe;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code turndiff doctor}'s look at the store's per-user service: whether its run directory is
 * usable (turndiff's own, mode 0700: else no hook reaches it), whether it runs and proves itself,
 * and whether hook calls wait in its spool or failed to arrive.
 */
final class ServiceCheckup {

  private ServiceCheckup() {}

  static List<Check> of(ServiceSeen seen) {
    List<Check> checks = new ArrayList<>();
    checks.add(running(seen));
    if (seen.kept() > 0) {
      checks.add(
          Check.warn(
              "hook calls kept",
              seen.kept()
                  + " hook call(s) wait in the spool beside "
                  + seen.files().discovery()
                  + ": the service takes them when it starts",
              "turndiff service start"));
    }
    if (!seen.undelivered().isEmpty()) {
      checks.add(
          Check.fail(
              "hook calls lost",
              "the hook script could not deliver: " + String.join("; ", seen.undelivered()),
              "see `turndiff service status`; fix the run directory it names"));
    }
    return checks;
  }

  private static Check running(ServiceSeen seen) {
    if (seen.refused().isPresent()) {
      return Check.fail(
          "service",
          "its run directory is refused: " + seen.refused().get(),
          "remove or fix what the message names; the hooks cannot reach a service until then");
    }
    if (seen.status().isPresent()) {
      WireServiceStatus status = seen.status().get();
      return Check.ok(
          "service",
          "running (pid "
              + status.pid()
              + ", port "
              + status.port()
              + ", version "
              + status.version()
              + ", up "
              + ServiceCommand.Status.uptime(status.uptimeS())
              + ")");
    }
    return switch (seen.found()) {
      case ServiceProbe.Running _ ->
          Check.fail(
              "service",
              "it proved itself but did not answer its status",
              "turndiff service stop && turndiff service start");
      case ServiceProbe.Unproven unproven ->
          Check.fail(
              "service",
              "pid " + unproven.discovery().pid() + " holds the store but " + unproven.reason(),
              "turndiff service stop (or kill that process), then turndiff service start");
      case ServiceProbe.Stale stale ->
          Check.warn(
              "service",
              "not running (stale discovery file: " + stale.reason() + ")",
              "turndiff service start (the next hook call starts it too)");
      case ServiceProbe.Nothing _ ->
          Check.warn(
              "service",
              "not running: the next hook call starts it (its first calls wait for it)",
              "turndiff service start");
    };
  }
}
