package io.turndiff.export;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.model.RequestException;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * The repository's refs, as far as an export needs them: what {@code HEAD} names, where a branch
 * points (its loose ref, else {@code packed-refs}), and moving a branch to a new commit only while
 * its loose ref is still what was read (a compare-and-swap by the boundary's rename-if-unchanged).
 */
final class GitRefs {

  private static final String HEADS = "refs/heads/";

  private final WorkspaceBoundary boundary;

  GitRefs(WorkspaceBoundary boundary) {
    this.boundary = boundary;
  }

  /** A branch's name, checked as git checks a ref's. */
  static String requireBranchName(String branch) {
    if (!Repository.isValidRefName(HEADS + branch)) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT, "'" + branch + "' is not a valid branch name");
    }
    return branch;
  }

  /** The branch HEAD names (empty when HEAD is detached). */
  Optional<String> headBranch() {
    String head = text("HEAD").orElse("").strip();
    return head.startsWith("ref: " + HEADS)
        ? Optional.of(head.substring(("ref: " + HEADS).length()))
        : Optional.empty();
  }

  /** The commit HEAD is at: its branch's tip, or a detached id; empty on an unborn branch. */
  Optional<ObjectId> headCommit() {
    String head = text("HEAD").orElse("").strip();
    if (head.startsWith("ref: ")) {
      return resolve(head.substring("ref: ".length()));
    }
    return ObjectId.isId(head) ? Optional.of(ObjectId.fromString(head)) : Optional.empty();
  }

  /** Where {@code branch} points, or empty when it does not exist. */
  Optional<ObjectId> branch(String branch) {
    return resolve(HEADS + branch);
  }

  /** The loose ref's state as it is now: what {@link #move} compares against. */
  Snapshot looseState(String branch) {
    Observation seen = boundary.observeExact(GitDirectory.path(HEADS + branch));
    return seen.snapshot();
  }

  /**
   * Points {@code branch} at {@code commit}, only while its loose ref is still {@code expected};
   * refused, naming the branch, when it moved meanwhile.
   */
  void move(String branch, ObjectId commit, Snapshot expected) {
    WorkspacePath ref = GitDirectory.path(HEADS + branch);
    WriteOutcome staged =
        boundary.stageFile(
            ref,
            (commit.name() + "\n").getBytes(StandardCharsets.US_ASCII),
            0644,
            Optional.empty());
    if (!(staged instanceof WriteOutcome.Staged ready)) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE, "cannot write " + ref.display() + ": " + staged);
    }
    WriteOutcome outcome = boundary.commitIfUnchanged(ready, expected);
    switch (outcome) {
      case WriteOutcome.Done done -> boundary.syncDirectory(ref.parent());
      case WriteOutcome.Changed changed ->
          throw new RequestException(
              RequestException.Problem.WRONG_STATE,
              "branch " + branch + " moved while the export was written; nothing was moved");
      default ->
          throw new RequestException(
              RequestException.Problem.WORKSPACE, "cannot write " + ref.display() + ": " + outcome);
    }
  }

  private Optional<ObjectId> resolve(String ref) {
    Optional<String> loose = text(ref).map(String::strip);
    if (loose.isPresent() && ObjectId.isId(loose.get())) {
      return Optional.of(ObjectId.fromString(loose.get()));
    }
    for (String line : text("packed-refs").orElse("").split("\n")) {
      if (line.length() > 41 && line.charAt(40) == ' ' && line.substring(41).strip().equals(ref)) {
        return Optional.of(ObjectId.fromString(line.substring(0, 40)));
      }
    }
    return Optional.empty();
  }

  /** The text of {@code .git/<relative>} when it is a file the boundary read; else empty. */
  private Optional<String> text(String relative) {
    Observation seen = boundary.observeExact(GitDirectory.path(relative));
    return seen.content().map(bytes -> new String(bytes, StandardCharsets.UTF_8));
  }
}
