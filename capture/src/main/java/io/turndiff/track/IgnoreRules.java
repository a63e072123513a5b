package io.turndiff.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.WorkspacePath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.ignore.IgnoreNode;

/**
 * Which paths a scan leaves alone, with git's semantics (nested {@code .gitignore} files, negation, directory
 * rules; JGit's {@link IgnoreNode} does the matching), plus an optional {@code .turndiffignore} beside any
 * {@code .gitignore} (its rules win), plus what is always ignored: {@code .git} directories, the store's own
 * files and turndiff's temporary files. Ignore files are read through the boundary like anything else: one
 * that is a symlink out of the workspace is not read.
 */
final class IgnoreRules {

  /** The names of ignore files, in the order their rules apply. */
  static final List<String> FILES = List.of(".turndiffignore", ".gitignore");

  private final Map<Optional<WorkspacePath>, List<IgnoreNode>> byDirectory = new HashMap<>();
  private final Set<WorkspacePath> alwaysIgnored;

  /** @param alwaysIgnored paths ignored whatever the rules say (the store's files when inside the workspace) */
  IgnoreRules(Set<WorkspacePath> alwaysIgnored) {
    this.alwaysIgnored = alwaysIgnored;
  }

  /**
   * A directory ({@code empty} for the root) was just listed: reads the ignore files present in it, and makes
   * its rules the ones at hand for the names in it that are asked about next.
   */
  void entering(Optional<WorkspacePath> directory, WorkspaceBoundary boundary, Set<String> present) {
    load(directory, boundary, present);
    current = directory;
    currentRules = applicable(directory);
  }

  private void load(Optional<WorkspacePath> directory, WorkspaceBoundary boundary, Set<String> present) {
    if (present.isEmpty()) {
      return;
    }
    List<IgnoreNode> nodes = new ArrayList<>(2);
    for (String name : FILES) {
      if (!present.contains(name)) {
        continue;
      }
      byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
      WorkspacePath file = directory.map(dir -> dir.child(bytes))
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
      nodes.add(node);
    }
    if (!nodes.isEmpty()) {
      byDirectory.put(directory, nodes);
    }
  }

  /** The ignore files in force in a directory: its own and its ancestors', closest first, with their depth. */
  private record Applicable(List<IgnoreNode> nodes, List<Integer> prefixLengths) {
  }

  private final Map<Optional<WorkspacePath>, Applicable> applicable = new HashMap<>();
  private Optional<WorkspacePath> current = Optional.empty();
  private Applicable currentRules;

  private Applicable applicable(Optional<WorkspacePath> directory) {
    Applicable known = applicable.get(directory);
    if (known != null) {
      return known;
    }
    List<IgnoreNode> nodes = new ArrayList<>();
    List<Integer> prefixes = new ArrayList<>();
    List<IgnoreNode> own = byDirectory.get(directory);
    if (own != null) {
      int prefix = directory.map(dir -> dir.length() + 1).orElse(0);
      for (IgnoreNode node : own) {
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
    if (alwaysIgnored.contains(path)) {
      return true;
    }
    byte[] bytes = path.bytes();
    if (hasGitComponent(bytes)) {
      return true;
    }
    byte[] name = path.name();
    if (name.length > 14 && startsWith(name, TEMPORARY_PREFIX) && endsWith(name, TEMPORARY_SUFFIX)) {
      return true;
    }
    Applicable rules = currentRules != null && isChildOfCurrent(bytes) ? currentRules : applicable(path.parent());
    if (rules.nodes().isEmpty()) {
      return false;
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    // the closest ignore file that has a say decides, as in git
    for (int i = 0; i < rules.nodes().size(); i++) {
      Boolean result = rules.nodes().get(i).checkIgnored(text.substring(prefixIndex(text, bytes,
          rules.prefixLengths().get(i))), directory);
      if (result != null) {
        return result;
      }
    }
    return false;
  }

  /** Whether a path names an entry of the directory entered last (the common case in a walk). */
  private boolean isChildOfCurrent(byte[] path) {
    if (current.isEmpty()) {
      return indexOf(path, (byte) '/', 0) < 0;
    }
    byte[] directory = current.get().bytes();
    int length = directory.length;
    return path.length > length + 1 && path[length] == '/'
        && java.util.Arrays.equals(path, 0, length, directory, 0, length) && indexOf(path, (byte) '/', length + 1) < 0;
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

  /** The character index in {@code text} of byte offset {@code prefix} (the two differ for non-ASCII names). */
  private static int prefixIndex(String text, byte[] bytes, int prefix) {
    if (text.length() == bytes.length) {
      return prefix;
    }
    return new String(bytes, 0, prefix, StandardCharsets.UTF_8).length();
  }

  private static boolean hasGitComponent(byte[] path) {
    for (int i = 0; i + 4 <= path.length; i++) {
      if ((i == 0 || path[i - 1] == '/') && path[i] == '.' && path[i + 1] == 'g' && path[i + 2] == 'i'
          && path[i + 3] == 't' && (i + 4 == path.length || path[i + 4] == '/')) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(byte[] name, byte[] prefix) {
    return java.util.Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static boolean endsWith(byte[] name, byte[] suffix) {
    return java.util.Arrays.equals(name, name.length - suffix.length, name.length, suffix, 0, suffix.length);
  }
}
