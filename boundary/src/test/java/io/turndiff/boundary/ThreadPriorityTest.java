package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.ThreadNice;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A background thread's priority, read back from the kernel: the thread that lowers its own runs at
 * the background's nice value, as do the threads it starts after, and the thread that started it
 * keeps its own.
 */
class ThreadPriorityTest {

  @Test
  void aThreadLowersItsOwnPriorityAndTheThreadsItStartsInheritIt() throws Exception {
    assumeTrue(Portability.current() == Portability.LINUX, "a thread's own priority is Linux's");
    int ours = ThreadNice.ofThisThread();
    AtomicReference<Boolean> lowered = new AtomicReference<>();
    AtomicInteger itsNice = new AtomicInteger(-100);
    AtomicInteger startedNice = new AtomicInteger(-100);
    Thread background =
        Thread.ofPlatform()
            .start(
                () -> {
                  lowered.set(ThreadPriority.backgroundForThisThread());
                  itsNice.set(ThreadNice.ofThisThread());
                  Thread started =
                      Thread.ofPlatform().start(() -> startedNice.set(ThreadNice.ofThisThread()));
                  try {
                    started.join();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    background.join();

    assertTrue(lowered.get(), "lowered");
    assertEquals(ThreadPriority.BACKGROUND, itsNice.get());
    assertEquals(ThreadPriority.BACKGROUND, startedNice.get(), "a thread it started inherits it");
    assertEquals(ours, ThreadNice.ofThisThread(), "the starting thread keeps its own");
  }
}
