package io.turndiff.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The anchor: a shadow git checkpoint as Cline, Gemini CLI, Roo Code and OpenCode keep one, a git
 * directory outside the workspace ({@code GIT_DIR}) over the workspace as work tree. Every
 * operation runs the real {@code git} binary, process start-up included, as those tools do.
 * Automatic gc is off so that no single commit is charged for a repack (a favour to git's timings).
 */
final class ShadowGit {

  private final Path gitDir;
  private final Path workTree;

  ShadowGit(Path gitDir, Path workTree) {
    this.gitDir = gitDir;
    this.workTree = workTree;
  }

  /** {@code git init}, {@code add -A} and the first commit; returns nanoseconds. */
  long init() throws IOException, InterruptedException {
    long start = System.nanoTime();
    git("init", "-q");
    git("config", "gc.auto", "0");
    git("config", "core.autocrlf", "false");
    git("add", "-A");
    git("commit", "-q", "--no-verify", "-m", "initial");
    return System.nanoTime() - start;
  }

  /** {@code git add -A && git commit}: the whole tree, as the checkpointing tools do. */
  long commitAll(String message) throws IOException, InterruptedException {
    long start = System.nanoTime();
    git("add", "-A");
    git("commit", "-q", "--no-verify", "--allow-empty", "-m", message);
    return System.nanoTime() - start;
  }

  /** {@code git add -A -- <touched> && git commit}: only the paths the turn touched. */
  long commitPaths(List<String> paths, String message) throws IOException, InterruptedException {
    long start = System.nanoTime();
    List<String> add = new ArrayList<>(List.of("add", "-A", "--"));
    add.addAll(paths);
    git(add.toArray(String[]::new));
    git("commit", "-q", "--no-verify", "--allow-empty", "-m", message);
    return System.nanoTime() - start;
  }

  /** {@code git checkout HEAD~1 -- <paths>}: the files as they were before the last commit. */
  long checkoutPrevious(List<String> paths) throws IOException, InterruptedException {
    long start = System.nanoTime();
    List<String> checkout = new ArrayList<>(List.of("checkout", "HEAD~1", "--"));
    checkout.addAll(paths);
    git(checkout.toArray(String[]::new));
    return System.nanoTime() - start;
  }

  /** {@code git checkout HEAD -- <paths>}: the files as the last commit has them. */
  void checkoutHead(List<String> paths) throws IOException, InterruptedException {
    List<String> checkout = new ArrayList<>(List.of("checkout", "HEAD", "--"));
    checkout.addAll(paths);
    git(checkout.toArray(String[]::new));
  }

  /** {@code git status --porcelain}: the scan of the whole work tree against git's index. */
  long status() throws IOException, InterruptedException {
    long start = System.nanoTime();
    git("status", "--porcelain");
    return System.nanoTime() - start;
  }

  void gc() throws IOException, InterruptedException {
    git("gc", "-q");
  }

  Path directory() {
    return gitDir;
  }

  private void git(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(workTree.toFile()).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("GIT_DIR", gitDir.toString());
    env.put("GIT_WORK_TREE", workTree.toString());
    env.put("GIT_AUTHOR_NAME", "bench");
    env.put("GIT_AUTHOR_EMAIL", "bench@turndiff.invalid");
    env.put("GIT_COMMITTER_NAME", "bench");
    env.put("GIT_COMMITTER_EMAIL", "bench@turndiff.invalid");
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command) + " failed: " + new String(output, StandardCharsets.UTF_8));
    }
  }
}
