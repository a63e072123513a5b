package io.turndiff.boundary;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real attacker thread: swaps two names with {@code renameat2(RENAME_EXCHANGE)} as fast as it
 * can, so that a path flips between a harmless object and a malicious one (a symlink out, a
 * hardlink to the secret, a FIFO) while the boundary works on it.
 */
final class Attacker implements AutoCloseable {

  private static final int RENAME_EXCHANGE = 2;

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong swaps = new AtomicLong();
  private final Thread thread;

  private Attacker(Path a, Path b) {
    Libc libc = Libc.load();
    byte[] first = a.toString().getBytes(StandardCharsets.UTF_8);
    byte[] second = b.toString().getBytes(StandardCharsets.UTF_8);
    this.thread =
        new Thread(
            () -> {
              try (NativeCall call = libc.call()) {
                while (running.get()) {
                  if (libc.renameat2(
                          call,
                          LinuxAbi.AT_FDCWD,
                          first,
                          LinuxAbi.AT_FDCWD,
                          second,
                          RENAME_EXCHANGE)
                      == 0) {
                    swaps.incrementAndGet();
                  }
                }
              }
            },
            "attacker");
    thread.setDaemon(true);
  }

  static Attacker exchanging(Path a, Path b) {
    Attacker attacker = new Attacker(a, b);
    attacker.thread.start();
    return attacker;
  }

  long swaps() {
    return swaps.get();
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    thread.join();
  }
}
