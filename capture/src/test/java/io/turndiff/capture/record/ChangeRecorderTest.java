package io.turndiff.capture.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.EncodedBlob;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a recorder compresses for a change a scan found, over a real file read through the boundary:
 * its new content, unless that is among the contents stored first (a tracked workspace's scan
 * compressed it, and the transaction stores it before the change's rows).
 */
class ChangeRecorderTest {

  private static final WorkspacePath PATH = WorkspacePath.of("made.txt");

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;
  private Snapshot before;
  private Observation after;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    boundary = WorkspaceBoundary.open(workspace.root());
    before = Snapshot.absent(PATH, boundary.kind(), Instant.now());
    workspace.file(PATH.toString(), "made by a shell command\n");
    after = boundary.observeExact(PATH);
  }

  @AfterEach
  void canary() {
    boundary.close();
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aNewContentIsCompressed() {
    ChangeRecorder.Detected detected =
        new ChangeRecorder().detectWithDiffPending(PATH, before, after, Map.of(), Set.of(), false);

    assertEquals(ChangeKind.ADDED, detected.kind());
    assertEquals(
        Set.of(content()),
        Set.copyOf(detected.blobs().stream().map(EncodedBlob::sha256).toList()),
        "the after-state's content, compressed");
  }

  @Test
  void aContentStoredFirstIsNotCompressedAgain() {
    ChangeRecorder.Detected detected =
        new ChangeRecorder()
            .detectWithDiffPending(PATH, before, after, Map.of(), Set.of(content()), false);

    assertEquals(ChangeKind.ADDED, detected.kind());
    assertEquals(0, detected.blobs().size(), "compressed again: " + detected.blobs());
  }

  private Sha256 content() {
    return after.snapshot().storedContent().orElseThrow();
  }
}
