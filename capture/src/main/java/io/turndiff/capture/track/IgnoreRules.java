package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.WorkspacePath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.eclipse.jgit.ignore.IgnoreNode;

/**
 * Which paths a scan leaves alone, with git's semantics (nested {@code .gitignore} files, negation,
 * directory rules; JGit's {@link IgnoreNode} does the matching), plus an optional {@code
 * .turndiffignore} beside any {@code .gitignore} (its rules win), plus what is always ignored:
 * {@code .git} directories, the store's own files and turndiff's temporary files. Ignore files are
 * read through the boundary like anything else: one that is a symlink out of the workspace is not
 * read.
 *
 * <p>As in git, {@code .gitignore} applies to untracked paths only: a path in the index of the work
 * tree it is in ({@link GitIndexes}) is never ignored by {@code .gitignore} rules, and a directory
 * they ignore is still entered when the index tracks something in it (the rest of it stays ignored:
 * git cannot re-include a path whose directory is excluded), or when turndiff's own index holds
 * something in it (a path git stopped tracking, {@code git rm}, is then seen gone, or let go).
 * {@code .turndiffignore} rules and the paths always ignored win over git's index.
 */
final class IgnoreRules {

  /** The names of ignore files, in the order their rules apply. */
  static final List<String> FILES = List.of(".turndiffignore", ".gitignore");

  /**
   * The names a directory's listing must report, when present, before its entries are asked about.
   */
  static final Set<String> INTERESTING = Set.of(FILES.get(0), FILES.get(1), GitIndexes.DOT_GIT);

  /**
   * The rules of one ignore file, and whether it is turndiff's own (whose rules git's index does
   * not undo).
   */
  private record Rules(IgnoreNode node, boolean turndiffs) {}

  /**
   * Who ignores a path: nobody, git alone (a {@code .gitignore} rule, and git does not track it),
   * git by ignoring the directory it is in (entered only for what git or turndiff's index tracks in
   * it), or turndiff (its own rules and the paths it always ignores, whatever git says). Only the
   * second kind of file is indexed when the workspace keeps ignored files ({@link IgnoredFiles}): a
   * directory git ignores as a whole stays unwalked.
   */
  enum Verdict {
    NOBODY,
    GITIGNORE,
    IGNORED_DIRECTORY,
    TURNDIFF
  }

  private final Map<Optional<WorkspacePath>, List<Rules>> byDirectory = new HashMap<>();
  private final Set<WorkspacePath> alwaysIgnored;
  private final GitIndexes gitIndexes;
  private final Predicate<WorkspacePath> indexedWithin;

  /** What the indexes of the work trees met so far in this walk track. */
  private final List<TrackedByGit> tracked = new ArrayList<>(1);

  /** Directories {@code .gitignore} ignores that are entered for the tracked paths in them. */
  private final Set<WorkspacePath> enteredForTracked = new HashSet<>();

  /**
   * @param alwaysIgnored paths ignored whatever the rules say (the store's files when inside the
   *     workspace)
   * @param gitIndexes what git tracks in the workspace's work trees, kept from one scan to the next
   * @param indexedWithin whether turndiff's index holds a path in a directory
   */
  IgnoreRules(
      Set<WorkspacePath> alwaysIgnored,
      GitIndexes gitIndexes,
      Predicate<WorkspacePath> indexedWithin) {
    this.alwaysIgnored = alwaysIgnored;
    this.gitIndexes = gitIndexes;
    this.indexedWithin = indexedWithin;
  }

  /**
   * A directory ({@code empty} for the root) was just listed: reads the ignore files present in it,
   * and git's index when it holds a {@code .git}, and makes its rules the ones at hand for the
   * names in it that are asked about next.
   */
  void entering(
      Optional<WorkspacePath> directory, WorkspaceBoundary boundary, Set<String> present) {
    load(directory, boundary, present);
    if (present.contains(GitIndexes.DOT_GIT)) {
      TrackedByGit inWorkTree = gitIndexes.in(directory, boundary);
      if (!inWorkTree.isEmpty()) {
        tracked.add(inWorkTree);
      }
    }
    current = directory;
    currentRules = applicable(directory);
  }

  private void load(
      Optional<WorkspacePath> directory, WorkspaceBoundary boundary, Set<String> present) {
    if (present.isEmpty()) {
      return;
    }
    List<Rules> nodes = new ArrayList<>(2);
    for (String name : FILES) {
      if (!present.contains(name)) {
        continue;
      }
      byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
      WorkspacePath file =
          directory
              .map(dir -> dir.child(bytes))
              .orElseGet(() -> WorkspacePath.ofComponents(List.of(bytes)));
      Observation observation = boundary.observeExact(file);
      if (observation.content().isEmpty()) {
        continue;
      }
      IgnoreNode node = new IgnoreNode();
      try {
        node.parse(new ByteArrayInputStream(observation.content().get()));
      } catch (IOException unreadable) {
        continue;
      }
      nodes.add(new Rules(node, name.equals(FILES.get(0))));
    }
    if (!nodes.isEmpty()) {
      byDirectory.put(directory, nodes);
    }
  }

  /**
   * The ignore files in force in a directory: its own and its ancestors', closest first, with their
   * depth.
   */
  private record Applicable(List<Rules> nodes, List<Integer> prefixLengths) {}

  private final Map<Optional<WorkspacePath>, Applicable> applicable = new HashMap<>();
  private Optional<WorkspacePath> current = Optional.empty();
  private Applicable currentRules;

  private Applicable applicable(Optional<WorkspacePath> directory) {
    Applicable known = applicable.get(directory);
    if (known != null) {
      return known;
    }
    List<Rules> nodes = new ArrayList<>();
    List<Integer> prefixes = new ArrayList<>();
    List<Rules> own = byDirectory.get(directory);
    if (own != null) {
      int prefix = directory.map(dir -> dir.length() + 1).orElse(0);
      for (Rules node : own) {
        nodes.add(node);
        prefixes.add(prefix);
      }
    }
    if (directory.isPresent()) {
      Applicable parent = applicable(directory.get().parent());
      nodes.addAll(parent.nodes());
      prefixes.addAll(parent.prefixLengths());
    }
    Applicable computed = new Applicable(List.copyOf(nodes), List.copyOf(prefixes));
    applicable.put(directory, computed);
    return computed;
  }

  boolean ignored(WorkspacePath path, boolean directory) {
    return judge(path, directory) != Verdict.NOBODY;
  }

  /** Who ignores {@code path}. */
  Verdict judge(WorkspacePath path, boolean directory) {
    if (alwaysIgnored.contains(path)) {
      return Verdict.TURNDIFF;
    }
    byte[] bytes = path.bytes();
    if (hasGitComponent(bytes)) {
      return Verdict.TURNDIFF;
    }
    byte[] name = path.name();
    if (name.length > 14
        && startsWith(name, TEMPORARY_PREFIX)
        && endsWith(name, TEMPORARY_SUFFIX)) {
      return Verdict.TURNDIFF;
    }
    Verdict verdict = verdict(path, bytes, directory);
    if (verdict == Verdict.TURNDIFF) {
      return verdict;
    }
    boolean inIgnoredDirectory =
        !enteredForTracked.isEmpty()
            && path.parent().map(enteredForTracked::contains).orElse(false);
    if (verdict == Verdict.NOBODY && !inIgnoredDirectory) {
      return Verdict.NOBODY;
    }
    // ignored by .gitignore: unless git tracks it
    for (TrackedByGit inWorkTree : tracked) {
      if (directory ? inWorkTree.tracksWithin(path) : inWorkTree.tracks(path)) {
        if (directory) {
          enteredForTracked.add(path);
        }
        return Verdict.NOBODY;
      }
    }
    if (directory && indexedWithin.test(path)) {
      enteredForTracked.add(path);
      return Verdict.NOBODY;
    }
    return inIgnoredDirectory ? Verdict.IGNORED_DIRECTORY : Verdict.GITIGNORE;
  }

  /** The closest ignore file that has a say decides, as in git. */
  private Verdict verdict(WorkspacePath path, byte[] bytes, boolean directory) {
    Applicable rules =
        currentRules != null && isChildOfCurrent(bytes) ? currentRules : applicable(path.parent());
    if (rules.nodes().isEmpty()) {
      return Verdict.NOBODY;
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    for (int i = 0; i < rules.nodes().size(); i++) {
      Rules file = rules.nodes().get(i);
      Boolean result =
          file.node()
              .checkIgnored(
                  text.substring(prefixIndex(text, bytes, rules.prefixLengths().get(i))),
                  directory);
      if (result != null) {
        return !result ? Verdict.NOBODY : file.turndiffs() ? Verdict.TURNDIFF : Verdict.GITIGNORE;
      }
    }
    return Verdict.NOBODY;
  }

  /** Whether a path names an entry of the directory entered last (the common case in a walk). */
  private boolean isChildOfCurrent(byte[] path) {
    if (current.isEmpty()) {
      return indexOf(path, (byte) '/', 0) < 0;
    }
    byte[] directory = current.get().bytes();
    int length = directory.length;
    return path.length > length + 1
        && path[length] == '/'
        && Arrays.equals(path, 0, length, directory, 0, length)
        && indexOf(path, (byte) '/', length + 1) < 0;
  }

  private static int indexOf(byte[] bytes, byte wanted, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == wanted) {
        return i;
      }
    }
    return -1;
  }

  private static final byte[] TEMPORARY_PREFIX = ".turndiff-".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TEMPORARY_SUFFIX = ".tmp".getBytes(StandardCharsets.US_ASCII);

  /**
   * The character index in {@code text} of byte offset {@code prefix} (the two differ for non-ASCII
   * names).
   */
  private static int prefixIndex(String text, byte[] bytes, int prefix) {
    if (text.length() == bytes.length) {
      return prefix;
    }
    return new String(bytes, 0, prefix, StandardCharsets.UTF_8).length();
  }

  private static boolean hasGitComponent(byte[] path) {
    for (int i = 0; i + 4 <= path.length; i++) {
      if ((i == 0 || path[i - 1] == '/')
          && path[i] == '.'
          && path[i + 1] == 'g'
          && path[i + 2] == 'i'
          && path[i + 3] == 't'
          && (i + 4 == path.length || path[i + 4] == '/')) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(byte[] name, byte[] prefix) {
    return Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static boolean endsWith(byte[] name, byte[] suffix) {
    return Arrays.equals(name, name.length - suffix.length, name.length, suffix, 0, suffix.length);
  }
}
