package io.turndiff.store;

import io.turndiff.model.StatProof;
import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.FileStamp;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The state of a store's files when SQLite's {@code quick_check} last went through the store whole
 * and found nothing wrong, kept beside it in {@code <store>.checked}: while the files are still in
 * that state, opening the store does not check it again (the check costs a command about 1.3 ms per
 * MB of store, up to its budget).
 *
 * <p>The state is what any write to a file moves: for the database file and its WAL (or that there
 * is none), the device, inode, size, and modification and change times in nanoseconds; the change
 * time is the one no user can set back. As for git's racily clean index entries ({@link
 * StatProof#RACY_WINDOW_NANOS}), a state is recorded only when both files were last changed more
 * than that window before it was taken: a file system stamps a write from a coarse clock, so a
 * write in the same tick as the last one could otherwise leave every field equal. A write made
 * after the state was taken is then stamped later, and the state no longer matches. What no state
 * shows is damage under the file system (a disk's bit rot): as for the part of a big store the
 * check's budget does not reach, SQLite reports it when a statement meets it, with the same
 * message.
 */
final class CleanCheck {

  /** The state of one file: what a write to it changes. */
  record FileState(long device, long inode, long size, long mtimeNanos, long ctimeNanos) {

    FileState {
      if (size < 0) {
        throw new IllegalArgumentException("a file's size is never negative: " + size);
      }
    }

    /** The file's state, or empty when there is no file. */
    static Optional<FileState> of(Path file) throws IOException {
      return OwnFile.of(file).stamp().map(FileState::of);
    }

    private static FileState of(FileStamp stamp) {
      return new FileState(
          stamp.device(), stamp.inode(), stamp.size(), stamp.mtimeNanos(), stamp.ctimeNanos());
    }

    String line() {
      return device + " " + inode + " " + size + " " + mtimeNanos + " " + ctimeNanos;
    }

    /** Whether the file was last changed (content or metadata) before {@code nanos}. */
    boolean changedBefore(long nanos) {
      return mtimeNanos < nanos && ctimeNanos < nanos;
    }
  }

  /**
   * The state of a store: its database file and its WAL, if it has one.
   *
   * @param takenAtNanos when it was taken (wall clock, ns since the epoch); not part of the state
   */
  record StoreState(FileState database, Optional<FileState> wal, long takenAtNanos) {

    /** The state of the store {@code file} now. */
    static StoreState of(Path file) throws IOException {
      long now = wallClockNanos();
      Optional<FileState> database = FileState.of(file);
      if (database.isEmpty()) {
        throw new NoSuchFileException(file.toString());
      }
      return new StoreState(database.orElseThrow(), FileState.of(StoreFile.walOf(file)), now);
    }

    /**
     * Whether both files were last changed more than the racy window before the state was taken:
     * only such a state proves that a later write shows.
     */
    boolean settled() {
      long before = takenAtNanos - StatProof.RACY_WINDOW_NANOS;
      return database.changedBefore(before) && wal.map(w -> w.changedBefore(before)).orElse(true);
    }

    /** Both files in the same state, whenever each state was taken. */
    boolean sameFiles(StoreState other) {
      return database.equals(other.database) && wal.equals(other.wal);
    }

    String text() {
      return FORMAT
          + "\n"
          + database.line()
          + "\n"
          + wal.map(FileState::line).orElse(NO_WAL)
          + "\n"
          + takenAtNanos
          + "\n";
    }

    /** The state written by {@link #text()}, or empty for anything else. */
    static Optional<StoreState> parse(String text) {
      String[] lines = text.split("\n", -1);
      if (lines.length != 5 || !lines[0].equals(FORMAT) || !lines[4].isEmpty()) {
        return Optional.empty();
      }
      try {
        Optional<FileState> database = fileState(lines[1]);
        Optional<FileState> wal = lines[2].equals(NO_WAL) ? Optional.empty() : fileState(lines[2]);
        if (database.isEmpty() || (!lines[2].equals(NO_WAL) && wal.isEmpty())) {
          return Optional.empty();
        }
        return Optional.of(new StoreState(database.get(), wal, Long.parseLong(lines[3])));
      } catch (IllegalArgumentException notAState) {
        return Optional.empty();
      }
    }

    private static Optional<FileState> fileState(String line) {
      String[] fields = line.split(" ", -1);
      if (fields.length != 5) {
        return Optional.empty();
      }
      return Optional.of(
          new FileState(
              Long.parseLong(fields[0]),
              Long.parseLong(fields[1]),
              Long.parseLong(fields[2]),
              Long.parseLong(fields[3]),
              Long.parseLong(fields[4])));
    }
  }

  private static final String FORMAT = "turndiff clean quick_check 1";
  private static final String NO_WAL = "no wal";

  /** More than a record ever holds (five short lines): a longer file is not a record. */
  private static final int RECORD_BOUND = 4096;

  private CleanCheck() {}

  /** Where the record of the store {@code file} is kept. */
  static Path recordOf(Path file) {
    return file.resolveSibling(file.getFileName() + ".checked");
  }

  /** Whether the store's files are in the state its last clean check recorded. */
  static boolean stillHolds(Path file, StoreState now) {
    try {
      return OwnFile.of(recordOf(file))
          .read(RECORD_BOUND)
          .flatMap(bytes -> StoreState.parse(new String(bytes, StandardCharsets.US_ASCII)))
          .filter(recorded -> recorded.settled() && recorded.sameFiles(now))
          .isPresent();
    } catch (IOException noRecord) {
      return false;
    }
  }

  /**
   * Records {@code state} as checked clean, when it is settled; written the one way ({@link
   * AtomicFile}), so a reader never sees half a record. A record that cannot be written is not an
   * error: the next open checks again.
   */
  static void record(Path file, StoreState state) {
    if (!state.settled()) {
      return;
    }
    try {
      AtomicFile.replace(
          recordOf(file), state.text().getBytes(StandardCharsets.US_ASCII), AtomicFile.OWNER_ONLY);
    } catch (IOException | UnsupportedOperationException cannotRecord) {
      // the next open checks again
    }
  }

  private static long wallClockNanos() {
    Instant now = Instant.now();
    return TimeUnit.SECONDS.toNanos(now.getEpochSecond()) + now.getNano();
  }
}
