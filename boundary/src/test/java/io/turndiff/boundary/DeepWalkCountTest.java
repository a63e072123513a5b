package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A whole walk costs what the tree holds, not its depth times its size: counted with {@code strace}
 * on a real process walking a chain 3,000 directories deep, the walk opens each directory once, by
 * its one name in its parent. The path bytes the kernel is given to resolve are counted too, since
 * they are what an {@code openat2} beneath the root costs in the kernel: before, each directory was
 * opened by its whole path from the root (2·k bytes at level k, 9 million for the chain), and past
 * {@code PATH_MAX} one {@code openat2} and one {@code close} per level of it (2.4 million opens).
 */
class DeepWalkCountTest extends DeepChainTest {

  @Test
  void aWalkOpensEachDirectoryOnceByItsOwnName() throws Exception {
    TracedOpens.assumeTraceable();
    workspace = TestWorkspace.in(temp.resolve("tree"));
    DeepChain chain = new DeepChain(DEPTH, 250);
    chain.build(workspace.root(), temp.resolve("staging"));
    Path empty = Files.createDirectory(temp.resolve("empty"));
    TracedOpens traced =
        TracedOpens.of(
            CountedDeepWalk.class,
            temp,
            workspace.root().toString(),
            empty.toString(),
            temp.toString());
    assertTrue(
        traced.output().contains("files " + chain.files().size()),
        "every file found: " + traced.output());
    // each directory: opened in its parent (one name) and once more readable to be listed (".")
    traced.assertAtMost("a walk " + DEPTH + " deep", 3 * DEPTH, 3 * DEPTH);
  }
}
