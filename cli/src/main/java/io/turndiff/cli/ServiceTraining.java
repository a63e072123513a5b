package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.ownfiles.OwnFile;
import io.turndiff.service.ServiceFiles;
import io.turndiff.service.ServiceProbe;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The per-user service's part of the ahead-of-time cache's training ({@link AotTraining}): {@code
 * serve --daemon} as {@code service start} spawns it, with its run directory under the training's
 * temporary folder, then what a client does to it (the discovery file read, the identity challenge
 * over its port, a health check over its socket), so that the service's own classes (Jetty, the
 * gates, the endpoints, the spool, the discovery files) and the start command's are in the cache
 * that a daemon spawned from a command starts from, not only the one-shot commands'. The service's
 * own cache's training ({@link ServiceHookTraining}) starts the service the same way, then posts
 * its hooks. The service runs until the training's JVM exits; its shutdown hook stops it then, as
 * SIGTERM would.
 */
final class ServiceTraining {

  private static final Duration UP_WITHIN = Duration.ofMinutes(2);

  private ServiceTraining() {}

  /** A training's work, which may fail. */
  @FunctionalInterface
  interface Work {
    void run() throws IOException, InterruptedException;
  }

  /**
   * Runs a training's {@code work}, then ends the JVM: with {@link ExitCode#OK} when it succeeded,
   * its shutdown hooks stopping the service and the JVM writing the cache; with {@link
   * ExitCode#ERROR} when it failed, which the launcher records beside the jar and does not retry. A
   * training that only returned from {@code main} would never end: the service's server threads
   * keep the JVM alive, and the launcher's lock would be held by it for an hour.
   */
  static void exitWhenDone(Work work) {
    try {
      work.run();
    } catch (Exception | Error failed) {
      failed.printStackTrace();
      System.exit(ExitCode.ERROR.code());
    }
    System.exit(ExitCode.OK.code());
  }

  /** A service the training started: its files, and the proof it gave (its port, its token). */
  record Started(ServiceFiles files, ServiceProbe.Running running) {}

  /** Starts the service of {@code store}, waits for it to prove itself, asks its health. */
  static void run(Path store, Path temporary) throws IOException, InterruptedException {
    ServiceFiles files = start(store, temporary).files();
    if (OwnFile.of(files.socket()).attributes().isEmpty()) {
      return; // a path too long for a socket's name: the service serves its port alone
    }
    SocketHealthRequest.ask(files.socket())
        .ifPresent(
            why -> {
              throw new IllegalStateException("training: the service's socket: " + why);
            });
  }

  /**
   * Starts the service of {@code store} in this JVM, its run directory under {@code temporary}, and
   * waits until it proves itself.
   */
  static Started start(Path store, Path temporary) throws IOException, InterruptedException {
    ServiceFiles files =
        ServiceFiles.of(store, Map.of("XDG_RUNTIME_DIR", temporary.toAbsolutePath().toString()));
    files.prepare();
    PrintStream nowhere =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    Thread service =
        Thread.ofPlatform()
            .daemon()
            .name("training-serve")
            .start(() -> Main.run(files.serveArguments().toArray(String[]::new), nowhere, nowhere));
    Instant deadline = Instant.now().plus(UP_WITHIN);
    while (true) {
      if (ServiceProbe.probe(files) instanceof ServiceProbe.Running running) {
        return new Started(files, running);
      }
      if (!service.isAlive() || Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("training: the service did not come up");
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }
}
