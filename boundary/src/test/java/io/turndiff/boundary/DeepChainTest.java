package io.turndiff.boundary;

import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test over a workspace a {@link DeepChain} {@link #DEPTH} deep is built in: after each test the
 * canary is checked (nothing outside changed) and the chain removed the one way that is linear in
 * its depth.
 */
abstract class DeepChainTest {

  /** Deeper than any path the kernel takes whole: the bottom is 6,000 bytes below the root. */
  static final int DEPTH = 3_000;

  @TempDir Path temp;

  TestWorkspace workspace;

  @AfterEach
  void canary() {
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
      DeepChain.remove(workspace.root());
    }
  }
}
