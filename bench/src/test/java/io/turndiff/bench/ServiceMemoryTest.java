package io.turndiff.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The service's peak residence as the scale bench reports it. */
class ServiceMemoryTest {

  /**
   * The readings of the CI run of BenchJarIT whose peak came out under its residence after the
   * turns: the kernel's {@code VmHWM}, read after the idle wait, trailed the {@code VmRSS} read
   * after the turns by 50 pages (split RSS counting). The peak reported is the highest of all of
   * them.
   */
  @Test
  void aPeakThatTrailsAnEarlierResidentFigureIsRaisedToIt() {
    var afterTrack = new ServiceProcess.Memory(237_953_024, 237_953_024);
    var afterTurns = new ServiceProcess.Memory(267_264_000, 267_059_200);
    var afterIdle = new ServiceProcess.Memory(247_521_280, 267_059_200);

    assertEquals(267_264_000, ServiceProcess.Memory.peakOver(afterTrack, afterTurns, afterIdle));
  }

  @Test
  void aPeakAboveEveryResidentFigureIsKept() {
    var afterTrack = new ServiceProcess.Memory(237_953_024, 965_738_496);
    var afterIdle = new ServiceProcess.Memory(247_521_280, 965_738_496);

    assertEquals(965_738_496, ServiceProcess.Memory.peakOver(afterTrack, afterIdle));
  }
}
