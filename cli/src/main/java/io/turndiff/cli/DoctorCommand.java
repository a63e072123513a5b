package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.wire.WireDoctorReport;
import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.hooks.install.HookInstallations;
import io.turndiff.hooks.install.UserDirectories;
import io.turndiff.service.ServiceFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff doctor}: every check of what turndiff needs in a workspace, in one go, each with
 * what to do when it fails — the store (opens, every page sound, only its owner can read it), the
 * free disk where it is, the service (its run directory, running, hook calls kept or lost), its
 * socket (there, 0600, the user's, answering), each installed runtime's hooks (configured as the
 * runtime checks them, then observed firing), the workspace's tracking, the watch limit and the
 * start-up caches beside the jar (a training that failed). It reads only; it makes no store where
 * there is none. Exit 0 when nothing failed (warnings allowed), 1 when something did.
 */
@Command(
    name = "doctor",
    description =
        "Check what turndiff needs here in one go: the store, free disk, the service and its"
            + " socket, each runtime's hooks (installed, trusted, firing), tracking, the watch limit and"
            + " the start-up caches; says"
            + " what to do for each failure (exit 0: nothing failed, 1: something did).")
final class DoctorCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "The workspace to check (default: the current directory).")
  Path workspace;

  @Option(names = "--json", description = "One JSON object.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    Path directory = HooksCommand.existingDirectory(workspace);
    StoreOptions options = StoreOptions.of(spec);
    ServiceFiles files = ServiceCommand.files(spec);
    StoreCheckup.Found store =
        StoreCheckup.look(options, turndiff -> HooksCommand.tracked(turndiff, directory));
    List<Check> checks = new ArrayList<>(store.checks());
    checks.add(DiskCheckup.at(options.location()));
    ServiceSeen service = ServiceSeen.look(files);
    checks.addAll(ServiceCheckup.of(service));
    checks.add(SocketCheckup.of(service));
    Path here = Path.of("").toAbsolutePath();
    WireHooksStatus hooks =
        SessionFilesSeen.added(
            new HookInstallations(UserDirectories.current())
                .status(
                    Optional.empty(),
                    directory,
                    here,
                    files.store(),
                    service.forHooksStatus(directory),
                    store::tracked),
            options,
            directory,
            here);
    checks.addAll(HooksCheckup.of(hooks));
    checks.add(tracking(directory, store.tracked()));
    checks.add(WatchCheckup.of(service.status()));
    checks.add(StartupCacheCheckup.ofThisJar());
    WireDoctorReport report = WireDoctorReport.of(directory.toString(), checks);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(report, false));
    } else {
      print(report, out);
    }
    return report.failures() > 0 ? ExitCode.ERROR.code() : ExitCode.OK.code();
  }

  /** Whether the store tracks the workspace: without it, shell commands' changes are not seen. */
  private static Check tracking(Path directory, Boolean tracked) {
    if (tracked == null) {
      return Check.skip("tracking", "no store to ask whether " + directory + " is tracked");
    }
    return tracked
        ? Check.ok("tracking", directory + " is tracked: shell commands' changes are captured")
        : Check.warn(
            "tracking",
            directory
                + " is not tracked: only the files a tool names are captured, not what"
                + " shell commands change",
            "turndiff track --workspace '" + directory + "'");
  }

  private static void print(WireDoctorReport report, PrintWriter out) {
    out.println("turndiff doctor: " + Terminal.printable(report.workspace()));
    for (Check check : report.checks()) {
      out.printf(
          "  %-5s %-25s %s%n",
          check.verdict().name().toLowerCase(Locale.ROOT),
          check.name(),
          Terminal.printable(check.found()));
      if (check.todo() != null) {
        out.printf("  %-5s %-25s -> %s%n", "", "", Terminal.printable(check.todo()));
      }
    }
    out.println(
        report.failures() == 0 && report.warnings() == 0
            ? "everything checked is fine"
            : report.failures() + " failed, " + report.warnings() + " to look at");
  }
}
