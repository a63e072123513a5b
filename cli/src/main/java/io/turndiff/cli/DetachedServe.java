package io.turndiff.cli;

import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.service.InheritedStartUp;
import io.turndiff.service.ServiceAllocator;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code turndiff serve --port PORT} for a store, started by {@code turndiff open} in its own
 * session ({@code setsid}, when there is one) so that it outlives that command and its terminal,
 * with this JVM's Java and class path, from the start-up cache and native libraries this JVM
 * started with ({@link InheritedStartUp}, as {@code service start}'s daemon: a serve started from
 * nothing spends about twice the CPU before it answers), in this command's environment with the
 * service's allocator setting ({@link ServiceAllocator}). Its output goes to {@code
 * <store>.serve.log} beside the store (the service's own file, never a workspace's; named after the
 * store, so that two stores in one folder keep two logs); it stops after {@code --exit-when-idle}
 * without a request or an open panel, when its store is deleted, or when stopped (SIGTERM).
 */
final class DetachedServe {

  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private DetachedServe() {}

  static Path log(Path database) {
    return Path.of(database.toAbsolutePath() + ".serve.log");
  }

  static Process start(Path database, int port, Duration exitWhenIdle) throws IOException {
    List<String> command = new ArrayList<>();
    if (OwnFile.of(SETSID).isExecutable()) {
      command.add(SETSID.toString());
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    // the same class path as this JVM's, so the cache this JVM started from matches it
    command.addAll(InheritedStartUp.forTheService());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(
        List.of(
            "--db",
            database.toString(),
            "serve",
            "--port",
            Integer.toString(port),
            "--exit-when-idle",
            exitWhenIdle.toSeconds() + "s"));
    Path log = log(database);
    OwnDirectory.of(log.getParent()).makePrivate();
    // 0600 from its creation, as the per-user service's log: it names the store's paths
    OwnFile.of(log).createEmpty(AtomicFile.OWNER_ONLY);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectErrorStream(true);
    ServiceAllocator.giveTo(builder.environment());
    return builder.start();
  }
}
