package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The per-user service as a process: which binary and which files it runs from. */
record ServiceProcess(long pid) {

  /** The service {@code turndiff service status --json} or {@code service start} names. */
  static ServiceProcess of(JsonNode line) {
    JsonNode pid = line.has("service") ? line.path("service").path("pid") : line.path("pid");
    assertTrue(pid.canConvertToLong() && pid.asLong() > 0, line.toString());
    return new ServiceProcess(pid.asLong());
  }

  /** The program it runs ({@code /proc/PID/exe}: the real path of its {@code java}). */
  Path executable() throws IOException {
    return Files.readSymbolicLink(Path.of("/proc/" + pid + "/exe"));
  }

  /** Its environment's variables, {@code NAME=value} each. */
  List<String> environment() throws IOException {
    return List.of(Files.readString(Path.of("/proc/" + pid + "/environ")).split("\0"));
  }

  /** Its command line, word by word: the JVM's options among them. */
  List<String> arguments() throws IOException {
    return List.of(Files.readString(Path.of("/proc/" + pid + "/cmdline")).split("\0"));
  }

  /** Its memory map: the files it has mapped (the AOT cache, the runtime's modules). */
  String maps() throws IOException {
    return Files.readString(Path.of("/proc/" + pid + "/maps"));
  }

  boolean running() {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !zombie();
  }

  private boolean zombie() {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException gone) {
      return true;
    }
  }

  /** Waits (at most 30 s) for the process to end; whether it did. */
  boolean ended() throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (running() && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    return !running();
  }

  void kill() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }
}
