package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.RuntimeProcess;
import io.turndiff.ownfiles.Proc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Real processes ({@code sleep}) standing for a runtime's, each named as the hook script names a
 * runtime: pid, start time and boot. Closing it kills those still running.
 */
final class StandInRuntimes implements AutoCloseable {

  private final List<Process> started = new ArrayList<>();

  /** A new stand-in, running, as the hook script would name it. */
  RuntimeProcess start() throws IOException {
    Process process = new ProcessBuilder("sleep", "600").start();
    started.add(process);
    OptionalLong ticks = Proc.startTicks(process.pid());
    assertTrue(ticks.isPresent(), "the child's /proc/PID/stat is read");
    return new RuntimeProcess(process.pid(), ticks.getAsLong(), Proc.bootId());
  }

  /** Kills the last one started with SIGKILL, as a runtime killed mid-turn: no hook, no Stop. */
  void killLast() throws InterruptedException {
    Process last = started.getLast();
    last.destroyForcibly();
    assertTrue(last.waitFor(10, TimeUnit.SECONDS), "the runtime was killed");
  }

  @Override
  public void close() throws InterruptedException {
    for (Process process : started) {
      process.destroyForcibly().waitFor();
    }
  }
}
