package io.turndiff.export;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.RequestException;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.review.ListedTurn;
import io.turndiff.review.RangeChange;
import io.turndiff.review.RangeDiff;
import io.turndiff.review.ReviewQueries;
import io.turndiff.review.TurnPage;
import io.turndiff.store.Store;
import io.turndiff.store.StoredTurn;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * {@code turndiff export}: a turn, or the stretch of turns from one to another of its session, as
 * git history.
 *
 * <p>{@link #commit}: one commit of the stretch's change (per path, its last after-state) on a
 * branch of the workspace's own repository. Its tree is the branch's tip tree (or, for a new
 * branch, the tree of the commit HEAD is at) with the changed paths put in or taken out; its parent
 * is that commit. The objects and the ref are written through the workspace's boundary into the
 * {@code .git} directory at its root ({@link GitDirectory}), and nothing else: not the index, not
 * the work tree, not HEAD, not a reflog. The checked-out branch is refused (moving it would change
 * what the work tree is compared with). A path whose last state cannot go into a tree (not
 * captured, a directory, outside the workspace, a name that is not UTF-8, inside {@code .git}) is
 * left out and listed, in the answer and in the commit's message.
 *
 * <p>{@link #patches}: each turn of the stretch that changed something as one mail of a series
 * {@code git am} takes (its patch is the turn's {@code git apply}-able patch).
 */
public final class TurnExport {

  /** The author when the repository's own config names none (the user's global one is not read). */
  static final PersonIdent DEFAULT_AUTHOR = new PersonIdent("turndiff", "turndiff@localhost");

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final ReviewQueries queries;

  public TurnExport(Store store, WorkspaceHandles workspaces, ReviewQueries queries) {
    this.store = store;
    this.workspaces = workspaces;
    this.queries = queries;
  }

  /** A path of the stretch that is not in the commit, and why. */
  public record LeftOut(WorkspacePath path, String reason) {}

  /**
   * The commit an export wrote.
   *
   * @param commit the commit's id (hex)
   * @param parent the commit it follows (empty: the repository had none)
   * @param paths the paths it put in or took out
   */
  public record Exported(
      String branch,
      String commit,
      Optional<String> parent,
      String tree,
      List<WorkspacePath> paths,
      List<LeftOut> leftOut) {}

  /**
   * The branch an export writes to when none is named: {@code turndiff/<turn>} (or {@code
   * <from>-<to>}).
   */
  public static String defaultBranch(String from, String to) {
    return "turndiff/" + (from.equals(to) ? from : from + "-" + to);
  }

  /** Writes the stretch {@code from}..{@code to} as one commit on {@code branch}. */
  public Exported commit(String from, String to, Optional<String> branch) {
    RangeDiff range = queries.range(from, to);
    String name = GitRefs.requireBranchName(branch.orElse(defaultBranch(from, to)));
    try (WorkspaceHandles.Lease lease = workspaces.borrow(range.from().workspaceId())) {
      WorkspaceBoundary boundary = lease.boundary();
      GitDirectory.requireInside(boundary);
      GitRefs refs = new GitRefs(boundary);
      if (refs.headBranch().filter(name::equals).isPresent()) {
        throw new RequestException(
            RequestException.Problem.BAD_INPUT,
            "branch "
                + name
                + " is checked out: export writes to another branch, never the one the work tree"
                + " is on");
      }
      var expected = refs.looseState(name);
      Optional<ObjectId> parent = refs.branch(name).or(refs::headCommit);
      GitObjects objects = new GitObjects(boundary);
      Optional<ObjectId> baseTree = parent.map(commit -> treeOf(objects, commit));
      Map<List<String>, TreeEdits.Edit> edits = new LinkedHashMap<>();
      List<WorkspacePath> paths = new ArrayList<>();
      List<LeftOut> leftOut = new ArrayList<>();
      for (RangeChange change : range.changes()) {
        if (change.change() == ChangeKind.UNCHANGED) {
          continue;
        }
        Optional<String> why = whyLeftOut(change);
        if (why.isPresent()) {
          leftOut.add(new LeftOut(change.path(), why.get()));
          continue;
        }
        edits.put(components(change.path()), edit(objects, change.after()));
        paths.add(change.path());
      }
      if (paths.isEmpty()) {
        throw new RequestException(
            RequestException.Problem.WRONG_STATE,
            describe(range) + " changed no file that can go into a commit" + listed(leftOut));
      }
      ObjectId tree =
          new TreeEdits(objects)
              .apply(baseTree, edits)
              .orElseGet(() -> objects.insert(Constants.OBJ_TREE, new byte[0]));
      ObjectId commit =
          objects.insert(Constants.OBJ_COMMIT, commitBytes(boundary, range, tree, parent, leftOut));
      objects.sync();
      refs.move(name, commit, expected);
      return new Exported(
          name, commit.name(), parent.map(ObjectId::name), tree.name(), paths, leftOut);
    }
  }

  /** Why a path's last state cannot go into a tree, or empty when it can. */
  private static Optional<String> whyLeftOut(RangeChange change) {
    WorkspacePath path = change.path();
    if (path.isOutside()) {
      return Optional.of("outside the workspace");
    }
    if (!path.isUtf8()) {
      return Optional.of("its name is not UTF-8");
    }
    if (path.equals(GitDirectory.GIT) || path.isWithin(GitDirectory.GIT)) {
      return Optional.of("inside .git");
    }
    return switch (change.after()) {
      case Snapshot.Absent _, Snapshot.RegularFile _, Snapshot.Symlink _ -> Optional.empty();
      case Snapshot.Directory _ -> Optional.of("a directory (git records files)");
      case Snapshot.MetadataOnly only ->
          Optional.of("its last state was not captured (" + only.why().code() + ")");
    };
  }

  private TreeEdits.Edit edit(GitObjects objects, Snapshot after) {
    return switch (after) {
      case Snapshot.Absent _ -> new TreeEdits.Edit.Remove();
      case Snapshot.RegularFile file -> {
        byte[] content = store.read(tx -> tx.blobs().requireWhole(file.content()));
        FileMode mode =
            (file.stat().mode() & 0111) != 0 ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
        yield new TreeEdits.Edit.Put(mode, objects.insert(Constants.OBJ_BLOB, content));
      }
      case Snapshot.Symlink link ->
          new TreeEdits.Edit.Put(
              FileMode.SYMLINK, objects.insert(Constants.OBJ_BLOB, link.target().bytes()));
      default -> throw new IllegalStateException("left out before: " + after);
    };
  }

  private static ObjectId treeOf(GitObjects objects, ObjectId commit) {
    GitObjects.GitObject object = objects.read(commit);
    String text = new String(object.data(), StandardCharsets.UTF_8);
    if (object.type() != Constants.OBJ_COMMIT || !text.startsWith("tree ")) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE, commit.name() + " is not a commit");
    }
    return ObjectId.fromString(text.substring(5, 45));
  }

  private static List<String> components(WorkspacePath path) {
    return List.of(path.display().split("/"));
  }

  private byte[] commitBytes(
      WorkspaceBoundary boundary,
      RangeDiff range,
      ObjectId tree,
      Optional<ObjectId> parent,
      List<LeftOut> leftOut) {
    PersonIdent identity = identity(boundary);
    Instant when = range.to().finishedAt().orElse(range.to().beganAt());
    CommitBuilder commit = new CommitBuilder();
    commit.setTreeId(tree);
    parent.ifPresent(commit::setParentId);
    PersonIdent at = new PersonIdent(identity, when, ZoneOffset.UTC);
    commit.setAuthor(at);
    commit.setCommitter(at);
    commit.setMessage(subject(range) + "\n\n" + body(range) + listed(leftOut) + "\n");
    try {
      return commit.build();
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException("UTF-8 is always supported", e);
    }
  }

  /** The author the repository's own {@code .git/config} names, else {@link #DEFAULT_AUTHOR}. */
  private static PersonIdent identity(WorkspaceBoundary boundary) {
    Optional<byte[]> config = boundary.observeExact(GitDirectory.path("config")).content();
    if (config.isEmpty()) {
      return DEFAULT_AUTHOR;
    }
    Config parsed = new Config();
    try {
      parsed.fromText(new String(config.get(), StandardCharsets.UTF_8));
    } catch (ConfigInvalidException unreadable) {
      return DEFAULT_AUTHOR;
    }
    String name = parsed.getString("user", null, "name");
    String email = parsed.getString("user", null, "email");
    return name == null || email == null ? DEFAULT_AUTHOR : new PersonIdent(name, email);
  }

  static String subject(RangeDiff range) {
    return "turndiff: " + describe(range);
  }

  private static String describe(RangeDiff range) {
    StoredTurn from = range.from();
    StoredTurn to = range.to();
    return from.id() == to.id()
        ? "turn "
            + from.externalId()
            + " (session "
            + from.sessionExternalId()
            + " #"
            + from.seq()
            + ")"
        : "turns "
            + from.externalId()
            + " to "
            + to.externalId()
            + " (session "
            + from.sessionExternalId()
            + " #"
            + from.seq()
            + "-#"
            + to.seq()
            + ")";
  }

  private static String body(RangeDiff range) {
    return "Exported by turndiff from its store: per path, its last after-state in the "
        + (range.from().id() == range.to().id() ? "turn" : "turns")
        + ".\n";
  }

  private static String listed(List<LeftOut> leftOut) {
    if (leftOut.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder("\nNot exported:\n");
    for (LeftOut out : leftOut) {
      text.append("  ").append(out.path().display()).append(": ").append(out.reason()).append('\n');
    }
    return text.toString();
  }

  // ---- a patch series

  /**
   * One mail of a patch series: its file name as {@code git format-patch} names it, and its text.
   */
  public record PatchMail(String fileName, String text) {}

  /**
   * Each turn of the stretch {@code from}..{@code to} with a change, as one mail of a series {@code
   * git am} applies in order.
   */
  public List<PatchMail> patches(String from, String to) {
    RangeDiff range = queries.range(from, to);
    List<StoredTurn> turns = new ArrayList<>();
    long after = range.from().seq() - 1;
    while (true) {
      TurnPage page =
          queries.turns(range.from().sessionExternalId(), after, ReviewQueries.MAX_PAGE);
      for (ListedTurn listed : page.turns()) {
        StoredTurn turn = listed.listing().turn();
        if (turn.seq() <= range.to().seq()) {
          turns.add(turn);
        }
      }
      if (page.nextAfter().isEmpty() || page.nextAfter().get() >= range.to().seq()) {
        break;
      }
      after = page.nextAfter().get();
    }
    PersonIdent identity;
    try (WorkspaceHandles.Lease lease = workspaces.borrow(range.from().workspaceId())) {
      identity = identity(lease.boundary());
    } catch (RequestException unreachable) {
      identity = DEFAULT_AUTHOR;
    }
    List<String> patches = new ArrayList<>();
    List<StoredTurn> withChanges = new ArrayList<>();
    for (StoredTurn turn : turns) {
      String patch = queries.patch(turn.externalId(), List.of());
      if (patch.contains("diff --git ")) {
        patches.add(patch);
        withChanges.add(turn);
      }
    }
    if (withChanges.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WRONG_STATE, describe(range) + " changed no file: no patch");
    }
    List<PatchMail> mails = new ArrayList<>();
    for (int i = 0; i < withChanges.size(); i++) {
      StoredTurn turn = withChanges.get(i);
      String subject =
          "turndiff: turn "
              + turn.externalId()
              + " (session "
              + turn.sessionExternalId()
              + " #"
              + turn.seq()
              + ")";
      String text =
          "From "
              + ObjectId.zeroId().name()
              + " Mon Sep 17 00:00:00 2001\n"
              + "From: "
              + identity.getName()
              + " <"
              + identity.getEmailAddress()
              + ">\n"
              + "Date: "
              + DateTimeFormatter.RFC_1123_DATE_TIME.format(
                  turn.finishedAt().orElse(turn.beganAt()).atZone(ZoneOffset.UTC))
              + "\n"
              + "Subject: [PATCH "
              + (i + 1)
              + "/"
              + withChanges.size()
              + "] "
              + subject
              + "\n\n"
              + "Exported by turndiff from its store.\n"
              + "---\n"
              + patches.get(i)
              + "-- \nturndiff\n\n";
      mails.add(new PatchMail(String.format("%04d-turn-%s.patch", i + 1, turn.externalId()), text));
    }
    return mails;
  }
}
