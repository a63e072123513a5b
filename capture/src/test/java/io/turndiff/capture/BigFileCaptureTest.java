package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.BigFiles;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Big files are files too (issue 23 item 8): a file too large to hold in memory but within the size
 * limit (64 MiB by default) is captured, streamed into the store in chunks, and its after-state
 * stored chunk by chunk against its before-state, so that a few changed lines cost about a chunk.
 * Over the real store and real files; what lands is read back from the store's rows.
 */
class BigFileCaptureTest {

  /** 40 MB of lockfile-like text: twenty times the in-memory limit, within the size limit. */
  private static final int BIG = 40_000_000;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
    store.localFile().ifPresent(workspace.canary()::assertNotInStoreFiles);
  }

  private String beginTurn() {
    return capture.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
  }

  private StoredFileChange change(String turn, String path) {
    return RecordedChanges.of(store, turn).stream()
        .filter(change -> change.path().equals(WorkspacePath.of(path)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(path + " is not recorded in " + turn));
  }

  /** The bytes the store holds for content: blob rows and chunk rows. */
  private long storedBytes() {
    return Long.parseLong(
        StoreRows.text(
            store,
            "SELECT (SELECT coalesce(sum(length(data)), 0) FROM blob)"
                + " + (SELECT coalesce(sum(length(data)), 0) FROM content_chunk)"));
  }

  /** The blob row's encoding and the content it is stored against, as "chunked <base sha>". */
  private String encodingAndBase(Sha256 sha) {
    return StoreRows.text(
        store,
        "SELECT encoding || ' ' || base_sha256 FROM blob WHERE sha256 = '" + sha.hex() + "'");
  }

  private String chunkEncodings(Sha256 sha) {
    return StoreRows.text(
        store,
        "SELECT count(*) || ' chunks: ' || sum(CASE WHEN content_chunk.encoding = 'same' THEN 1"
            + " ELSE 0 END) || ' same, ' || sum(CASE WHEN content_chunk.encoding = 'delta' THEN 1"
            + " ELSE 0 END) || ' delta' FROM content_chunk JOIN chunked_content"
            + " ON chunked_content.id = content_chunk.content_id WHERE chunked_content.sha256 = '"
            + sha.hex()
            + "'");
  }

  @Test
  void aFortyMegabyteFileIsCapturedInChunksAndAnEditInItsMiddleCostsAboutOneChunk()
      throws Exception {
    Path lockfile = workspace.resolve("package-lock.json");
    BigFiles.writeLockfile(lockfile, BIG);
    Sha256 original = BigFiles.sha256Of(lockfile);
    long empty = storedBytes();

    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("edit-1"), List.of("package-lock.json"));
    long beforeStored = storedBytes() - empty;
    BigFiles.editTheMiddle(lockfile);
    Sha256 edited = BigFiles.sha256Of(lockfile);
    capture.finishTurn(turn);
    long afterStored = storedBytes() - empty - beforeStored;

    StoredFileChange change = change(turn, "package-lock.json");
    assertEquals(Optional.of(ChangeKind.MODIFIED), change.change());
    assertEquals(Optional.of(original), change.before().storedContent(), "the before-state");
    assertEquals(
        Optional.of(edited),
        change.after().orElseThrow().storedContent(),
        "the after-state is captured, not fingerprinted");
    assertEquals(
        "chunked " + original.hex(),
        encodingAndBase(edited),
        "stored in chunks against the before-state");
    assertEquals("39 chunks: 38 same, 1 delta", chunkEncodings(edited));
    assertTrue(
        beforeStored > 0 && beforeStored < BIG / 2,
        "the before-state is compressed chunk by chunk: " + beforeStored);
    assertTrue(afterStored < 64 * 1024, "the edit costs a delta of one chunk: " + afterStored);
    try (InputStream in = store.openContent(edited)) {
      assertEquals(BIG, in.transferTo(OutputStream.nullOutputStream()), "streams back whole");
    }
  }

  @Test
  void aTrackedWorkspaceHoldsABigFileInChunksAndAShellEditOfItIsCapturedAgainstThem()
      throws Exception {
    Path lockfile = workspace.resolve("package-lock.json");
    BigFiles.writeLockfile(lockfile, 8_000_000);
    Sha256 original = BigFiles.sha256Of(lockfile);
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals(
        "chunked " + original.hex(),
        StoreRows.text(
            store,
            "SELECT blob.encoding || ' ' || index_entry.content_sha256 FROM index_entry"
                + " JOIN blob ON blob.sha256 = index_entry.content_sha256"
                + " WHERE index_entry.content_sha256 = '"
                + original.hex()
                + "'"),
        "the baseline holds the big file, streamed in chunks, not a fingerprint");

    // the shell edits it: no snapshot call names it, the finish's scan finds it
    String turn = beginTurn();
    BigFiles.editTheMiddle(lockfile);
    Sha256 edited = BigFiles.sha256Of(lockfile);
    capture.finishTurn(turn);

    StoredFileChange change = change(turn, "package-lock.json");
    assertEquals(Optional.of(ChangeKind.MODIFIED), change.change());
    assertEquals(
        Optional.of(original),
        change.before().storedContent(),
        "the before-state comes from the baseline, stored, so the turn can be rewound");
    assertEquals(Optional.of(edited), change.after().orElseThrow().storedContent());
    assertEquals(
        "chunked " + original.hex(),
        encodingAndBase(edited),
        "the after-state is stored in chunks against the baseline's");
    assertEquals("8 chunks: 7 same, 1 delta", chunkEncodings(edited));
  }

  @Test
  void aBigFileThatKeepsChangingWhileItIsStreamedIsRecordedAsChangingAndLeavesNoChunk()
      throws Exception {
    Path log = workspace.resolve("growing.log");
    BigFiles.writeLockfile(log, 8_000_000);
    AtomicBoolean writing = new AtomicBoolean(true);
    Thread writer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try (FileChannel out = FileChannel.open(log, StandardOpenOption.WRITE)) {
                    for (long n = 0; writing.get(); n++) {
                      out.write(ByteBuffer.wrap(new byte[] {(byte) n}), (n * 4099) % 8_000_000);
                      out.force(false);
                    }
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                });
    String turn;
    try {
      turn = beginTurn();
      capture.snapshot(turn, Optional.of("edit-1"), List.of("growing.log"));
    } finally {
      writing.set(false);
      writer.join();
    }
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "growing.log");
    assertEquals(
        Optional.of(Reason.CHANGED_DURING_READ),
        change.before().reason(),
        "a read that saw no one state of the file captures none: " + change.before());
    Sha256 after = change.after().orElseThrow().storedContent().orElseThrow();
    assertEquals(BigFiles.sha256Of(log), after, "still, the finish captured it");
    assertEquals(
        "0",
        StoreRows.text(
            store,
            "SELECT count(*) FROM content_chunk JOIN chunked_content ON chunked_content.id ="
                + " content_chunk.content_id WHERE chunked_content.sha256 IS NULL"
                + " OR chunked_content.sha256 <> '"
                + after.hex()
                + "'"),
        "every upload the moving file began was abandoned: the after-state's chunks are all");
  }

  @Test
  void aFileOverTheSizeLimitIsStillFingerprintedAndNotStored() throws Exception {
    Path image = workspace.resolve("disk.img");
    try (RandomAccessFile sparse = new RandomAccessFile(image.toFile(), "rw")) {
      sparse.setLength(BoundaryOptions.DEFAULT_SIZE_LIMIT + 1);
    }
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("edit-1"), List.of("disk.img"));
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "disk.img");
    assertEquals(Optional.of(Reason.TOO_LARGE), change.before().reason());
    assertTrue(change.before().sampledSha256().isPresent(), "fingerprinted by sampling");
    assertTrue(
        change.before().reasonDetail().contains("over the size limit of 67108864"),
        change.before().reasonDetail());
    assertEquals("0", StoreRows.text(store, "SELECT count(*) FROM content_chunk"));
  }
}
