package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.wire.WireServiceStopped;
import io.turndiff.hooks.install.HookInstaller;
import io.turndiff.hooks.install.HookLedger;
import io.turndiff.hooks.install.HookRuntime;
import io.turndiff.hooks.install.HookScope;
import io.turndiff.hooks.install.UserDirectories;
import io.turndiff.service.Discovery;
import io.turndiff.service.ServiceControl;
import io.turndiff.service.ServiceFiles;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoreLocation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff uninstall [--purge]}: takes turndiff off the machine for this user in the one
 * order that never leaves a runtime calling a missing script (docs/install.md, "Uninstall"): first
 * turndiff's hooks out of every runtime configuration the installation record lists, each as {@code
 * hooks uninstall} takes it out; then the user's services stopped; then the program removed the way
 * it was installed ({@link Installation}). When a hook cannot be taken out, nothing else is done.
 * The stores stay, unless {@code --purge}.
 */
@Command(
    name = "uninstall",
    description =
        "Remove turndiff: its hooks out of every runtime's settings it installed them in, the"
            + " services stopped, then the program (install.sh's, npm's; a Debian package's is"
            + " named). The stores stay unless --purge.")
final class UninstallCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--purge",
      description =
          "Also delete turndiff's own folders: the default store's ($XDG_DATA_HOME/turndiff, else"
              + " ~/.local/share/turndiff, with the store), the record of installed hooks and the"
              + " backups of settings files ($XDG_STATE_HOME/turndiff), the run directory.")
  boolean purge;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    UserDirectories user = UserDirectories.current();
    Installation installation = Installation.of(user.environment());
    removeHooks(user, out);
    ServiceFiles files = ServiceCommand.files(spec);
    stopServices(files, user.environment(), out);
    if (purge) {
      purge(user, files, out);
    } else {
      out.println(
          "the store stays: "
              + StoreOptions.of(spec).address().display()
              + " (turndiff uninstall --purge deletes turndiff's own folders)");
    }
    installation.remove(out);
    return ExitCode.OK.code();
  }

  /** Every installation the record lists, taken out; fails naming those that could not be. */
  private void removeHooks(UserDirectories user, PrintWriter out) {
    HookInstaller installer = new HookInstaller(user, out, spec.commandLine().getErr());
    List<String> failed = new ArrayList<>();
    List<HookLedger.Installed> installations =
        HookLedger.load(HookLedger.file(user)).installations();
    for (HookLedger.Installed installed : installations) {
      try {
        installer.uninstall(
            HookRuntime.of(installed.runtime()),
            scope(installed.scope()),
            installed.workspace() == null ? null : Path.of(installed.workspace()));
      } catch (RuntimeException e) {
        failed.add(
            installed.runtime()
                + (installed.workspace() == null ? " (user)" : " in " + installed.workspace())
                + ": "
                + e.getMessage());
      }
    }
    if (!failed.isEmpty()) {
      throw new CliException(
          ExitCode.ERROR,
          "turndiff's hooks could not be taken out of "
              + String.join("; ", failed)
              + ". Nothing else was removed, so no hook calls a missing script: put that right"
              + " and run turndiff uninstall again");
    }
    if (installations.isEmpty()) {
      out.println("hooks: none installed (" + HookLedger.file(user) + " lists none)");
    }
  }

  private static HookScope scope(String label) {
    return Arrays.stream(HookScope.values())
        .filter(scope -> scope.label().equals(label))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("an unknown scope " + label));
  }

  /**
   * The service of the store this command names, and every other one that published a discovery
   * file in the same run directory: stopped gracefully, killed when it does not end.
   */
  private static void stopServices(
      ServiceFiles files, Map<String, String> environment, PrintWriter out) throws IOException {
    Set<String> stores = new LinkedHashSet<>();
    stores.add(files.store());
    stores.addAll(Discovery.storesIn(files.runDirectory()));
    for (String store : stores) {
      WireServiceStopped stopped =
          ServiceControl.stop(
              ServiceFiles.of(Path.of(store), environment), ServiceControl.STOP_WAIT_SECONDS, true);
      if (stopped.stopped()) {
        out.println("stopped the service of " + store + " (pid " + stopped.pid() + ")");
      }
    }
  }

  /** turndiff's own folders, deleted; a store named elsewhere is left and named. */
  private void purge(UserDirectories user, ServiceFiles files, PrintWriter out) throws IOException {
    Path data = StoreLocation.defaultFile(user.environment()).getParent();
    List<Path> folders = new ArrayList<>(List.of(data, user.turndiffState()));
    if (!files.runDirectory().startsWith(data)) {
      folders.add(files.runDirectory());
    }
    for (Path folder : folders) {
      Installation.deleteTree(folder);
      out.println("deleted " + folder);
    }
    StoreAddress address = StoreOptions.of(spec).address();
    if (!(address instanceof StoreAddress.SqliteFile file && file.path().startsWith(data))) {
      out.println(
          "the store "
              + address.display()
              + " is not in turndiff's own folder and stays: delete it yourself");
    }
  }
}
