package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.bench.SyntheticTreeFiles;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.hooks.HookOutcome;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole prompt of a runtime through its hooks, in-process (no HTTP), as the service handles it:
 * Claude Code's {@code UserPromptSubmit}, then {@value #CALLS} tool calls, each a {@code
 * PreToolUse} of a {@code Write} of a 10 KB source file followed by the write itself (its first
 * line rewritten in place), then the {@code Stop} that finishes the turn. Where {@link
 * HookCallBenchmark} measures one Pre hook, this measures what the turn costs in all, the finish's
 * fold of what the calls logged included. Each prompt names the next {@value #CALLS} of {@value
 * #FILES} files, round and round, so a file's content is one the store holds from an earlier
 * prompt, as in a workspace an agent keeps editing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(time = 2)
@Measurement(time = 2)
public class HookTurnBenchmark {

  static final int FILES = 2_000;

  /** Tool calls in a prompt. */
  static final int CALLS = 50;

  private Path base;

  /** Package-private, as {@link #turndiff}: the benchmark's test reads the files it writes. */
  Path workspace;

  /** Package-private: the benchmark's test reads what a prompt recorded. */
  Turndiff turndiff;

  private ClaudeCodeSession session;
  private int prompt;
  private int next;
  private int calls;

  @Setup
  public void createWorkspace() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-hook-turn");
    workspace = Files.createDirectories(base.resolve("workspace")).toRealPath();
    SyntheticTreeFiles.write(workspace, FILES, 10 * 1024);
    turndiff = Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
    session = new ClaudeCodeSession(ClaudeCodeSession.hooksOf(turndiff), "jmh", workspace);
  }

  @TearDown
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  @Benchmark
  public HookOutcome promptOf50Writes() throws IOException {
    String id = "p-" + ++prompt;
    session.prompt(id);
    for (int call = 0; call < CALLS; call++) {
      Path file = workspace.resolve("f" + next + ".java");
      next = (next + 1) % FILES;
      session.preWrite(id, file, "toolu_" + calls++);
      rewriteFirstLine(file, prompt);
    }
    return session.stop(id);
  }

  /**
   * Writes the prompt's number over the file's first bytes, in a line of one width, without
   * truncating it: the file keeps its size, so every prompt of a run works on files of 10 KB (the
   * first write splits the file's first line, its package line being longer; every later one
   * changes one line). Appending a line instead grew each file by some hundreds of bytes over a run
   * of a few thousand prompts, and the later prompts' work with it.
   */
  private static void rewriteFirstLine(Path file, int prompt) throws IOException {
    byte[] line = "// prompt %010d\n".formatted(prompt).getBytes(StandardCharsets.US_ASCII);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer bytes = ByteBuffer.wrap(line);
      while (bytes.hasRemaining()) {
        channel.write(bytes, bytes.position());
      }
    }
  }
}
