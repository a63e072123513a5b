package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.fixtures.TestStore;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rewind is made durable by its journal, not by an {@code fsync} per file and per directory, and
 * its caller waits for one synced commit only: counted with {@code strace} on a real process, the
 * sync calls ({@code fsync}, {@code fdatasync}, {@code syncfs}) a rewind makes before it answers
 * are one (the store's commit of every decided path, before the first file is staged), whatever its
 * number of files; the {@code syncfs} comes after the answer, with nothing else. Before, a rewind
 * of 50 files in 10 directories made at least 61 of them (50 files, 11 directories) besides the
 * store's commits; then 4 or 5, all before its answer. The store's checkpointer, which moves a full
 * log into the database file on a thread of its own ({@code WalCheckpointer}), is not the rewind's:
 * nobody waits for its syncs, and the trace's lines of its thread (named as it starts, {@code
 * prctl(PR_SET_NAME, "turndiff-checkp...")}) are left out of the count. What it does to the
 * rewind's own thread is counted: a checkpointer that moved the log after every quiet second made
 * the rewind's commit sync the log a second time (SQLite syncs the header of a log it starts
 * again), and this test found it.
 */
class RewindSyncCountTest {

  @TempDir Path temp;

  @Test
  void aRewindMakesAFixedNumberOfSyncCallsWhateverItsNumberOfFiles() throws Exception {
    assumeTrue(
        new File("/usr/bin/strace").canExecute() || new File("/bin/strace").canExecute(),
        "strace is not installed");
    assumeTrue(!TestStore.onPostgres(), "the store's commits are another process's there");
    assumeTrue(Portability.current() == Portability.LINUX, "counted once, in the default mode");
    Syncs fifty = syncsOfARewindOf(50, temp.resolve("fifty"));
    Syncs twoHundred = syncsOfARewindOf(200, temp.resolve("two-hundred"));
    // the figures for docs/rewind-protocol.md, section 4a
    System.out.println("sync calls of a rewind, 50 files: " + fifty + "; 200 files: " + twoHundred);
    // 2 before the answer on 2026-12-03 for either: the one synced commit of the store (an fsync of
    // its log), and the fsync of the store's directory SQLite makes at the first sync of a log file
    // it opened (once per connection: this process's first synced commit is the rewind's); and the
    // one syncfs after the answer. It was 4 before the answer (two synced commits, that directory,
    // the syncfs) and nothing after, before the sync moved after the answer and the commits but one
    // were ordered
    for (Syncs syncs : List.of(fifty, twoHundred)) {
      assertTrue(syncs.beforeTheAnswer() <= 2, "before the answer: " + syncs);
      assertEquals(List.of("syncfs"), syncs.afterTheAnswer(), "after the answer: " + syncs);
    }
  }

  /** The sync calls a rewind made before it answered, and those of the sync after the answer. */
  private record Syncs(long beforeTheAnswer, List<String> afterTheAnswer) {}

  /** The sync calls of one process's rewind of {@code files} files, between its marks. */
  private static Syncs syncsOfARewindOf(int files, Path directory) throws Exception {
    TracedRewind traced = TracedRewind.of(files, directory, "fsync,fdatasync,syncfs");
    return new Syncs(
        syncCalls(traced.beforeTheAnswer()).size(), syncCalls(traced.afterTheAnswer()));
  }

  /** The names of the sync calls among {@code lines}, in order. */
  private static List<String> syncCalls(List<String> lines) {
    return lines.stream()
        // a call another thread interrupted is split in two lines: counted once, by its start
        .flatMap(
            line ->
                Stream.of("fsync", "fdatasync", "syncfs")
                    .filter(call -> line.contains(" " + call + "(")))
        .toList();
  }
}
