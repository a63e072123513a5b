package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capturing read ({@link WorkspaceBoundary#observeCapturing}): content up to the in-memory limit
 * travels whole, content over it and within the size limit is streamed into the sink in chunks of
 * at most a MiB (the observation carries none of it), and content over the size limit is
 * fingerprinted as ever. The sink here keeps what it is given, so the test sees every chunk.
 */
class CapturingReadTest {

  private static final long SIZE_LIMIT = 4L << 20;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;

  @AfterEach
  void canary() {
    boundary.close();
    workspace.assertOutsideUnchanged();
  }

  /** Keeps the chunks of each upload, and the uploads it completed. */
  private static final class KeepingSink implements ContentSink {
    final List<Integer> chunkSizes = new ArrayList<>();
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    final List<Sha256> completed = new ArrayList<>();

    @Override
    public boolean holds(Sha256 sha256) {
      return completed.contains(sha256);
    }

    @Override
    public Optional<Upload> begin() {
      return Optional.of(
          new Upload() {
            @Override
            public void write(byte[] chunk) {
              chunkSizes.add(chunk.length);
              received.writeBytes(chunk);
            }

            @Override
            public void complete(Sha256 sha256, long size) {
              completed.add(sha256);
            }

            @Override
            public void abandon() {
              throw new AssertionError("nothing moved while it was read");
            }
          });
    }
  }

  private static byte[] random(int bytes, int seed) {
    byte[] content = new byte[bytes];
    new Random(seed).nextBytes(content);
    return content;
  }

  private void open() {
    boundary =
        WorkspaceBoundary.open(
            workspace.root(), BoundaryOptions.builder().sizeLimit(SIZE_LIMIT).build());
  }

  @Test
  void contentOverTheInMemoryLimitIsStreamedIntoTheSinkAndOverTheSizeLimitFingerprinted() {
    byte[] small = random(1000, 1);
    byte[] big = random(3_000_000, 2);
    workspace =
        TestWorkspace.in(temp)
            .file("small.bin", small)
            .file("big.bin", big)
            .file("huge.bin", random((int) SIZE_LIMIT + 1, 3));
    open();
    KeepingSink sink = new KeepingSink();

    Observation whole = boundary.observeCapturing(WorkspacePath.of("small.bin"), sink);
    assertArrayEquals(
        small, whole.content().orElseThrow(), "held whole: under the in-memory limit");
    assertTrue(sink.chunkSizes.isEmpty());

    Observation streamed = boundary.observeCapturing(WorkspacePath.of("big.bin"), sink);
    assertTrue(streamed.streamed(), "over the in-memory limit: " + streamed);
    assertFalse(streamed.content().isPresent(), "the content is in the sink, not carried");
    assertEquals(Optional.of(Sha256.of(big)), streamed.snapshot().storedContent());
    assertEquals(List.of(1 << 20, 1 << 20, 3_000_000 - (2 << 20)), sink.chunkSizes);
    assertArrayEquals(big, sink.received.toByteArray());
    assertEquals(List.of(Sha256.of(big)), sink.completed);

    Observation again = boundary.observeCapturing(WorkspacePath.of("big.bin"), sink);
    assertTrue(again.streamed());
    assertEquals(3, sink.chunkSizes.size(), "content the sink holds is not read into it again");

    Observation huge = boundary.observeCapturing(WorkspacePath.of("huge.bin"), sink);
    assertEquals(Optional.of(Reason.TOO_LARGE), huge.snapshot().reason());
    assertTrue(huge.snapshot().sampledSha256().isPresent(), "fingerprinted by sampling");
    assertTrue(
        huge.snapshot().reasonDetail().contains("over the size limit of " + SIZE_LIMIT),
        huge.snapshot().reasonDetail());

    Observation plain = boundary.observeExact(WorkspacePath.of("big.bin"));
    assertEquals(Optional.of(Reason.TOO_LARGE), plain.snapshot().reason());
    assertTrue(
        plain.snapshot().reasonDetail().contains("over the 2097152 bytes a read holds in memory"),
        "a read with no sink never holds it whole: " + plain.snapshot().reasonDetail());
  }
}
