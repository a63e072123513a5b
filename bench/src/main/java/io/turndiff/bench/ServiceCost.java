package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ThreadMXBean;

/**
 * What a call costs the process, counted rather than timed: the CPU its threads spend and the bytes
 * they allocate, per call, over a run of calls. Unlike a latency, neither depends much on how long
 * the call waited for a core, so before and after compare at any load. For a call over the
 * service's edge, the calling thread (the bench's client) is left out, which leaves the service's
 * side: its server threads, the store's, and the JVM's own (the collector, the compilers) as the
 * calls make them work.
 */
final class ServiceCost {

  /** One call, numbered; returns its HTTP status (200 when it was answered). */
  @FunctionalInterface
  interface Call {
    int run(int index) throws Exception;
  }

  /** The cost of one call, averaged. */
  record PerCall(long cpuNanos, long bytes) {

    void putInto(ObjectNode node, String name) {
      node.put(name + "_cpu_us", cpuNanos / 1e3);
      node.put(name + "_bytes", bytes);
    }
  }

  private final com.sun.management.ThreadMXBean threads;

  ServiceCost(ThreadMXBean threads) {
    this.threads = (com.sun.management.ThreadMXBean) threads;
  }

  /** The cost of {@code calls} calls to every thread but this one (the client's). */
  PerCall ofService(int calls, Call call) throws Exception {
    return measure(calls, call, true);
  }

  /** The cost of {@code calls} calls to every thread, this one included (an in-process call). */
  PerCall ofAll(int calls, Call call) throws Exception {
    return measure(calls, call, false);
  }

  private PerCall measure(int calls, Call call, boolean leaveOutCaller) throws Exception {
    long cpu = processCpu();
    long ownCpu = threads.getCurrentThreadCpuTime();
    long bytes = threads.getTotalThreadAllocatedBytes();
    long ownBytes = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < calls; i++) {
      int status = call.run(i);
      if (status != 200) {
        throw new IllegalStateException("a call failed: HTTP " + status);
      }
    }
    long spentCpu = processCpu() - cpu;
    long spentBytes = threads.getTotalThreadAllocatedBytes() - bytes;
    if (leaveOutCaller) {
      spentCpu -= threads.getCurrentThreadCpuTime() - ownCpu;
      spentBytes -= threads.getCurrentThreadAllocatedBytes() - ownBytes;
    }
    return new PerCall(spentCpu / calls, spentBytes / calls);
  }

  private static long processCpu() {
    return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
  }
}
