package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.ThreadNice;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A background thread's priority, read back from the kernel: the thread that lowers its own runs
 * ten above its nice value (at most 19), as do the threads it starts after, which know they are in
 * the background; the thread that started it keeps its own.
 */
class ThreadPriorityTest {

  @Test
  void aThreadLowersItsOwnPriorityAndTheThreadsItStartsInheritIt() throws Exception {
    assumeTrue(Portability.current() == Portability.LINUX, "a thread's own priority is Linux's");
    int ours = ThreadNice.ofThisThread();
    AtomicReference<Optional<String>> whyNot = new AtomicReference<>();
    AtomicInteger itsNice = new AtomicInteger(-100);
    AtomicInteger startedNice = new AtomicInteger(-100);
    AtomicBoolean startedInTheBackground = new AtomicBoolean();
    AtomicBoolean itsMark = new AtomicBoolean();
    Thread background =
        Thread.ofPlatform()
            .start(
                () -> {
                  whyNot.set(ThreadPriority.backgroundForThisThread());
                  itsMark.set(ThreadPriority.isThisThreadInTheBackground());
                  itsNice.set(ThreadNice.ofThisThread());
                  Thread started =
                      Thread.ofPlatform()
                          .start(
                              () -> {
                                startedNice.set(ThreadNice.ofThisThread());
                                startedInTheBackground.set(
                                    ThreadPriority.isThisThreadInTheBackground());
                              });
                  try {
                    started.join();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    background.join();

    assertEquals(Optional.empty(), whyNot.get(), "lowered");
    assertTrue(itsMark.get(), "the thread knows it is in the background");
    int expected = Math.min(ThreadPriority.LOWEST, ours + ThreadPriority.STEP);
    assertEquals(expected, itsNice.get());
    assertEquals(expected, startedNice.get(), "a thread it started inherits it");
    assertTrue(startedInTheBackground.get(), "and knows it is in the background");
    assertEquals(ours, ThreadNice.ofThisThread(), "the starting thread keeps its own");
    assertFalse(ThreadPriority.isThisThreadInTheBackground(), "and is not in the background");
  }
}
