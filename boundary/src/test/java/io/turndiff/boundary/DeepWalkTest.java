package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import java.util.ArrayList;
import java.util.List;

/**
 * A tree 3,000 directories deep, deeper than any path the kernel takes whole (its bottom is 6,000
 * bytes below the root): the walk finds every file at its full path with its size, enters every
 * directory, leaves nothing unlisted, and reads nothing outside (the canary). Its cost is counted
 * in {@link DeepWalkCountTest}.
 */
class DeepWalkTest extends DeepChainTest {

  @EachKernelHandle
  void aChainThreeThousandDeepIsWalkedWhole(BoundaryKind kind) {
    workspace = TestWorkspace.in(temp);
    DeepChain chain = new DeepChain(DEPTH, 250);
    chain.build(workspace.root(), temp.resolve("staging"));
    FoundInWalk found = new FoundInWalk();
    long before = FoundInWalk.openDescriptors();
    try (WorkspaceBoundary boundary = KindsInThisMode.open(workspace.root(), kind)) {
      boundary.scan(found);
    }
    assertEquals(List.of(), found.unlisted);
    assertEquals(chain.files(), found.files);
    List<Long> sizes = new ArrayList<>();
    for (String file : chain.files()) {
      int level = Integer.parseInt(file.substring(file.lastIndexOf('f') + 1, file.length() - 4));
      sizes.add((long) DeepChain.contentBytes(level).length);
    }
    assertEquals(sizes, found.sizes);
    assertEquals(DEPTH + 1, found.entered, "the root and every directory of the chain");
    // a chain keeps the directory being listed and its parent open, not one per level
    assertTrue(
        found.mostDescriptors - before <= 16,
        "the walk held " + (found.mostDescriptors - before) + " more descriptors at most");
  }

  /**
   * A watched re-scan of an edit at the bottom of the chain ({@link WorkspaceBoundary#scanPaths})
   * finds the edited file and walks the new directory beside it, entering the root and every
   * directory above them as the whole walk would; its cost is counted in {@link
   * DeepRescanCountTest}.
   */
  @EachKernelHandle
  void aRescanAtTheBottomOfTheChainFindsTheEdit(BoundaryKind kind) {
    BoundaryOptions.Mechanism mechanism = KindsInThisMode.mechanism(kind);
    assumeTrue(
        Portability.current().watches(), "a re-scan follows a watch, which this mode has not");
    workspace = TestWorkspace.in(temp);
    DeepChain chain = new DeepChain(DEPTH, DEPTH, true);
    chain.build(workspace.root(), temp.resolve("staging"));
    FoundInWalk found = new FoundInWalk();
    long before = FoundInWalk.openDescriptors();
    try (WorkspaceBoundary boundary =
            WorkspaceBoundary.open(
                workspace.root(), BoundaryOptions.builder().mechanism(mechanism).build());
        TreeWatch watch = TreeWatch.open(TreeWatch.Settings.DEFAULTS).orElseThrow()) {
      boundary.scanPaths(chain.bottomStarts(), found, watch);
    }
    assertEquals(List.of(), found.unlisted);
    assertEquals(chain.files(), found.files);
    assertEquals(
        List.of(
            (long) DeepChain.contentBytes(DEPTH).length,
            (long) DeepChain.contentBytes(DEPTH).length),
        found.sizes);
    assertEquals(DEPTH + 2, found.entered, "the root, every directory above, and the new one");
    assertTrue(
        found.mostDescriptors - before <= 16,
        "the re-scan held " + (found.mostDescriptors - before) + " more descriptors at most");
  }

  /**
   * The file at the bottom of the chain, its path 6,009 bytes long, is read with each kernel
   * handle: {@code openat2} refuses a path of {@code PATH_MAX} bytes or more, and the file was
   * recorded as unreadable ("File name too long") instead of being reached in its parent.
   */
  @EachKernelHandle
  void theFileAtTheBottomIsRead(BoundaryKind kind) {
    BoundaryOptions.Mechanism mechanism = KindsInThisMode.mechanism(kind);
    workspace = TestWorkspace.in(temp);
    DeepChain chain = new DeepChain(DEPTH, DEPTH);
    chain.build(workspace.root(), temp.resolve("staging"));
    try (WorkspaceBoundary boundary =
        WorkspaceBoundary.open(
            workspace.root(), BoundaryOptions.builder().mechanism(mechanism).build())) {
      Observation bottom = boundary.observeExact(chain.bottomStarts().getFirst());
      assertArrayEquals(
          DeepChain.contentBytes(DEPTH),
          bottom.content().orElseThrow(() -> new AssertionError(bottom.snapshot())));
    }
  }
}
