package io.turndiff.bench;

import io.turndiff.api.Turndiff;
import io.turndiff.capture.ShellCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The per-call attribution of shell changes (issue 24) in rounds, each beside its anchor: a shell
 * call's Pre and Post hooks on a tracked workspace with the service's watcher, each bringing the
 * index up to the tree and recording what changed during the call (the {@code files} the round
 * rewrites) as the call's, with the before-state a rewind to before the call puts back; next to it,
 * in the same round, the whole-tree shadow-git snapshot ({@code git add -A && git commit}) the
 * checkpointing tools take before each shell command. {@code turndiff bench} runs it on its
 * generated tree, {@code turndiff bench shell-calls} on a tree of small files of any size.
 */
final class ShellCallRounds {

  private final int warmup;
  private final int rounds;

  /** {@code warmup} rounds run first and not counted, then {@code rounds} measured ones. */
  ShellCallRounds(int warmup, int rounds) {
    this.warmup = warmup;
    this.rounds = rounds;
  }

  /** The measured rounds: turndiff's Pre + Post per call, and git's commit of the whole tree. */
  record Figures(Samples calls, Samples commits) {}

  /**
   * One turn of {@code warmup + rounds} shell calls in {@code workspace} (tracked and watched by
   * {@code service}), each rewriting {@code files}; git's commit follows each call, so both see the
   * same change.
   */
  Figures measure(Turndiff service, Path workspace, List<Path> files, ShadowGit git)
      throws IOException, InterruptedException {
    Samples calls = new Samples();
    Samples commits = new Samples();
    String turn =
        service
            .capture()
            .beginTurn(workspace, Optional.of("bench-shell-calls"), Optional.empty(), true)
            .turn();
    for (int round = 0; round < warmup + rounds; round++) {
      String call = "call-" + files.size() + "-" + round;
      long start = System.nanoTime();
      service
          .capture()
          .beginShellCall(turn, ShellCall.of(call, "Bash", "printf > " + files.getFirst()));
      long pre = System.nanoTime() - start;
      for (Path file : files) {
        Files.write(
            file,
            ("shell call " + files.size() + "/" + round + "\n").getBytes(StandardCharsets.UTF_8));
      }
      start = System.nanoTime();
      service.capture().endShellCall(turn, call);
      long post = System.nanoTime() - start;
      long commit = git.commitAll("before shell call " + files.size() + "/" + round);
      if (round >= warmup) {
        calls.add(pre + post);
        commits.add(commit);
      }
    }
    service.capture().finishTurn(turn);
    return new Figures(calls, commits);
  }
}
