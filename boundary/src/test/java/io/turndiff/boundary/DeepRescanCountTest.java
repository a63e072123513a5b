package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A watched re-scan of an edit at the bottom of a chain 3,000 directories deep costs the chain's
 * depth once, not its square: counted with {@code strace} on a real process ({@link
 * CountedDeepRescan}), each directory above the edit is opened once, by its one name in its parent
 * held open, and its ignore files and the start are looked up in it. Before, each directory above
 * was looked up from the root four times (itself and the three names a scan asks about), by a path
 * of 2·k bytes at level k, and past {@code PATH_MAX} one open per level of it.
 */
class DeepRescanCountTest extends DeepChainTest {

  @Test
  void aRescanAtTheBottomOpensEachDirectoryAboveOnceByItsOwnName() throws Exception {
    TracedOpens.assumeTraceable();
    workspace = TestWorkspace.in(temp.resolve("tree"));
    DeepChain chain = new DeepChain(DEPTH, 1_000, true);
    chain.build(workspace.root(), temp.resolve("staging"));
    new DeepChain(1, 1, true)
        .build(Files.createDirectory(temp.resolve("warm")), temp.resolve("warm-staging"));
    TracedOpens traced =
        TracedOpens.of(
            CountedDeepRescan.class,
            temp,
            workspace.root().toString(),
            String.valueOf(DEPTH),
            temp.resolve("warm").toString(),
            temp.toString());
    // the bottom file and the new directory's file, the root and every directory down to "new"
    List<String> found = chain.files().subList(chain.files().size() - 2, chain.files().size());
    assertTrue(
        traced.output().contains("files " + found + " entered " + (DEPTH + 2)),
        "the edit and the new directory found, every directory above entered: "
            + traced.output().substring(0, Math.min(500, traced.output().length())));
    traced.assertAtMost("a re-scan " + DEPTH + " deep", 2 * DEPTH, 3 * DEPTH);
  }
}
