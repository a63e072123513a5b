package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.io.PrintWriter;
import java.util.Optional;

/** The figures of one bench run, as a table for people or JSON for machines. */
public record BenchResult(
    SyntheticTree.Summary tree,
    TurnBench.Options options,
    int edited,
    int created,
    int deleted,
    Samples capture,
    Samples snapshotCalls,
    Samples finish,
    Samples commitAll,
    Samples commitTouched,
    Samples floor,
    Samples rewindTurndiff,
    Samples rewindGit,
    long gitInitialNanos,
    long storeDiskBytes,
    long gitDiskBytes,
    long gitDiskBytesAfterGc,
    TurnBench.Tracking tracking,
    long gitInitialDiskBytes,
    Optional<TurnBench.DirtyRewinds> dirtyRewinds) {

  /** Nanoseconds and bytes, far below 2^53: exact as doubles. */
  private static double ratio(long anchor, long measured) {
    return ratio((double) anchor, (double) measured);
  }

  private static double ratio(double anchor, double measured) {
    return measured == 0 ? 0 : anchor / measured;
  }

  public double gitAllOverCapture() {
    return ratio(commitAll.medianMillis(), capture.medianMillis());
  }

  public double gitTouchedOverCapture() {
    return ratio(commitTouched.medianMillis(), capture.medianMillis());
  }

  public double gitCheckoutOverRewind() {
    return ratio(rewindGit.medianMillis(), rewindTurndiff.medianMillis());
  }

  public double gitOverStore() {
    return ratio(gitDiskBytes, storeDiskBytes);
  }

  public void print(PrintWriter out) {
    int touched = edited + created + deleted;
    out.printf(
        "turndiff bench: %d files (%.1f MB), %d turns of %d files (%d edited, %d new, %d deleted), "
            + "seed %d, locality %.2f%n",
        tree.files(),
        tree.bytes() / 1e6,
        options.turns(),
        touched,
        edited,
        created,
        deleted,
        options.seed(),
        options.locality());
    out.printf(
        "machine: %d cores, %s %s, Java %s%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("java.version"));
    out.printf(
        "%-48s %11s %11s %14s%n", "operation (per turn)", "median ms", "p90 ms", "git/turndiff");
    row(out, "turndiff capture (" + touched + " snapshot calls + finish)", capture, "");
    out.printf(
        "%-48s %11.3f %11.3f%n",
        "  one snapshot call", snapshotCalls.medianMillis(), snapshotCalls.p90Millis());
    row(out, "  finish", finish, "");
    row(out, "shadow git add -A + commit", commitAll, String.format("%.1fx", gitAllOverCapture()));
    row(
        out,
        "shadow git add <touched> + commit",
        commitTouched,
        String.format("%.1fx", gitTouchedOverCapture()));
    row(
        out,
        "floor: read + SHA-256 of the touched files",
        floor,
        String.format(
            "(turndiff %.1fx floor)", ratio(capture.medianMillis(), floor.medianMillis())));
    row(out, "rewind of the last turn's files: turndiff", rewindTurndiff, "");
    row(
        out,
        "rewind of the last turn's files: git checkout",
        rewindGit,
        String.format("%.1fx", gitCheckoutOverRewind()));
    dirtyRewinds.ifPresent(
        dirty -> {
          String busy = " (" + options.dirtyWriterMegabytes() + " MB dirty beside)";
          row(out, "  turndiff" + busy, dirty.turndiff(), "");
          row(
              out,
              "  git checkout" + busy,
              dirty.git(),
              String.format(
                  "%.1fx", ratio(dirty.git().medianMillis(), dirty.turndiff().medianMillis())));
        });
    out.printf(
        "after %d turns on disk: turndiff store %.1f MB, shadow git %.1f MB (%.1f MB after git gc): "
            + "git/turndiff %.1fx%n",
        options.turns(),
        storeDiskBytes / 1e6,
        gitDiskBytes / 1e6,
        gitDiskBytesAfterGc / 1e6,
        gitOverStore());
    out.printf(
        "tracking the tree (first index + baseline): turndiff %.0f ms (fresh JVM), %.0f ms (warm JIT); "
            + "shadow git initial commit %.0f ms: %.1fx, %.1fx%n",
        tracking.indexNanos() / 1e6,
        tracking.warmIndexNanos() / 1e6,
        gitInitialNanos / 1e6,
        ratio(gitInitialNanos, tracking.indexNanos()),
        ratio(gitInitialNanos, tracking.warmIndexNanos()));
    row(out, "incremental scan, unchanged tree: turndiff status", tracking.status(), "");
    row(
        out,
        "incremental scan, unchanged tree: git status",
        tracking.gitStatus(),
        String.format(
            "%.1fx", ratio(tracking.gitStatus().medianMillis(), tracking.status().medianMillis())));
    TurnBench.Watched watched = tracking.watched();
    row(out, "watched finish (service), unchanged tree", watched.unchanged(), "");
    row(
        out,
        "  git status, same rounds",
        watched.gitUnchanged(),
        String.format(
            "%.1fx",
            ratio(watched.gitUnchanged().medianMillis(), watched.unchanged().medianMillis())));
    row(
        out,
        "watched finish (service), " + watched.changed() + " files changed",
        watched.afterChange(),
        "");
    row(
        out,
        "  git status, same rounds",
        watched.gitAfterChange(),
        String.format(
            "%.1fx",
            ratio(watched.gitAfterChange().medianMillis(), watched.afterChange().medianMillis())));
    row(out, "shell call attributed (Pre + Post, watched, 1 file)", watched.shellCall(), "");
    row(
        out,
        "  shadow git add -A && commit, same rounds",
        watched.gitCommitAll(),
        String.format(
            "%.1fx",
            ratio(watched.gitCommitAll().medianMillis(), watched.shellCall().medianMillis())));
    row(
        out,
        "shell call attributed (Pre + Post, watched, " + watched.changed() + " files)",
        watched.shellCallTen(),
        "");
    row(
        out,
        "  shadow git add -A && commit, same rounds",
        watched.gitCommitAllTen(),
        String.format(
            "%.1fx",
            ratio(
                watched.gitCommitAllTen().medianMillis(), watched.shellCallTen().medianMillis())));
    out.printf(
        "baseline on disk: turndiff %.1f MB, shadow git after the initial commit %.1f MB: git/turndiff %.1fx%n",
        tracking.baselineDiskBytes() / 1e6,
        gitInitialDiskBytes / 1e6,
        ratio(gitInitialDiskBytes, tracking.baselineDiskBytes()));
  }

  private static void row(PrintWriter out, String name, Samples samples, String ratio) {
    out.printf(
        "%-48s %11.1f %11.1f %14s%n", name, samples.medianMillis(), samples.p90Millis(), ratio);
  }

  public ObjectNode json() {
    ObjectNode node = Json.object();
    node.putObject("tree").put("files", tree.files()).put("bytes", tree.bytes());
    node.putObject("turn").put("edited", edited).put("created", created).put("deleted", deleted);
    node.put("turns", options.turns());
    node.put("seed", options.seed());
    node.put("locality", options.locality());
    node.putObject("machine")
        .put("cores", Runtime.getRuntime().availableProcessors())
        .put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"))
        .put("java", System.getProperty("java.version"));
    ObjectNode ops = node.putObject("operations_ms");
    put(ops, "turndiff_capture", capture);
    put(ops, "turndiff_snapshot_call", snapshotCalls);
    put(ops, "turndiff_finish", finish);
    put(ops, "git_add_all_commit", commitAll);
    put(ops, "git_add_touched_commit", commitTouched);
    put(ops, "floor_read_sha256", floor);
    put(ops, "turndiff_rewind", rewindTurndiff);
    put(ops, "git_checkout_rewind", rewindGit);
    dirtyRewinds.ifPresent(
        dirty -> {
          put(ops, "turndiff_rewind_dirty_writer", dirty.turndiff());
          put(ops, "git_checkout_rewind_dirty_writer", dirty.git());
        });
    ops.putObject("git_initial_commit").put("median", gitInitialNanos / 1e6);
    ops.putObject("turndiff_track").put("median", tracking.indexNanos() / 1e6);
    ops.putObject("turndiff_track_warm").put("median", tracking.warmIndexNanos() / 1e6);
    put(ops, "turndiff_status_unchanged", tracking.status());
    put(ops, "git_status_unchanged", tracking.gitStatus());
    put(ops, "turndiff_watched_finish_unchanged", tracking.watched().unchanged());
    put(ops, "git_status_watched_unchanged", tracking.watched().gitUnchanged());
    put(ops, "turndiff_watched_finish_changed", tracking.watched().afterChange());
    put(ops, "git_status_watched_changed", tracking.watched().gitAfterChange());
    put(ops, "turndiff_shell_call_attributed", tracking.watched().shellCall());
    put(ops, "git_commit_all_per_shell_call", tracking.watched().gitCommitAll());
    put(ops, "turndiff_shell_call_attributed_10_files", tracking.watched().shellCallTen());
    put(ops, "git_commit_all_per_shell_call_10_files", tracking.watched().gitCommitAllTen());
    ObjectNode ratios = node.putObject("ratios");
    ratios.put(
        "git_status_over_turndiff_watched_finish_unchanged",
        ratio(
            tracking.watched().gitUnchanged().medianMillis(),
            tracking.watched().unchanged().medianMillis()));
    ratios.put(
        "git_status_over_turndiff_watched_finish_changed",
        ratio(
            tracking.watched().gitAfterChange().medianMillis(),
            tracking.watched().afterChange().medianMillis()));
    ratios.put(
        "git_initial_commit_over_turndiff_track", ratio(gitInitialNanos, tracking.indexNanos()));
    ratios.put(
        "git_status_over_turndiff_status",
        ratio(tracking.gitStatus().medianMillis(), tracking.status().medianMillis()));
    ratios.put(
        "git_initial_over_turndiff_baseline",
        ratio(gitInitialDiskBytes, tracking.baselineDiskBytes()));
    ratios.put("git_add_all_over_turndiff_capture", gitAllOverCapture());
    ratios.put("git_add_touched_over_turndiff_capture", gitTouchedOverCapture());
    ratios.put("git_checkout_over_turndiff_rewind", gitCheckoutOverRewind());
    dirtyRewinds.ifPresent(
        dirty ->
            ratios.put(
                "git_checkout_over_turndiff_rewind_dirty_writer",
                ratio(dirty.git().medianMillis(), dirty.turndiff().medianMillis())));
    ratios.put("turndiff_capture_over_floor", ratio(capture.medianMillis(), floor.medianMillis()));
    ratios.put("git_dir_over_turndiff_store", gitOverStore());
    node.putObject("disk_bytes")
        .put("turndiff_store", storeDiskBytes)
        .put("shadow_git", gitDiskBytes)
        .put("shadow_git_after_gc", gitDiskBytesAfterGc)
        .put("turndiff_baseline", tracking.baselineDiskBytes())
        .put("shadow_git_initial", gitInitialDiskBytes);
    return node;
  }

  private static void put(ObjectNode ops, String name, Samples samples) {
    ops.putObject(name)
        .put("median", samples.medianMillis())
        .put("p90", samples.p90Millis())
        .put("p99", samples.quantile(0.99) / 1e6)
        .put("samples", samples.count());
  }
}
