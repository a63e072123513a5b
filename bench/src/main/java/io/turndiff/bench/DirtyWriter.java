package io.turndiff.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Another program busy on the same file system: a child process ({@code dd}) that writes {@code
 * megabytes} of zeros to a file beside the workspace and exits without syncing, so that as many
 * dirty pages wait in the page cache while a rewind runs. A rewind that flushes the whole file
 * system pays for writing them; one that syncs only its own files does not. Closing removes the
 * file (its pages are dropped unwritten).
 */
final class DirtyWriter implements AutoCloseable {

  /** No other program: nothing written, nothing to remove. */
  static final DirtyWriter NONE = new DirtyWriter(Optional.empty());

  private final Optional<Path> file;

  private DirtyWriter(Optional<Path> file) {
    this.file = file;
  }

  /** Runs the child to completion: the pages are dirty when this returns. */
  static DirtyWriter dirty(Path directory, int megabytes) throws IOException, InterruptedException {
    Path file = directory.resolve("dirty-pages.bin");
    Process dd =
        new ProcessBuilder(
                "dd", "if=/dev/zero", "of=" + file, "bs=1M", "count=" + megabytes, "status=none")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!dd.waitFor(10, TimeUnit.MINUTES) || dd.exitValue() != 0) {
      dd.destroyForcibly();
      Files.deleteIfExists(file);
      throw new IOException("dd could not write " + megabytes + " MB to " + file);
    }
    return new DirtyWriter(Optional.of(file));
  }

  @Override
  public void close() throws IOException {
    if (file.isPresent()) {
      Files.deleteIfExists(file.get());
    }
  }
}
