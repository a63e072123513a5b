package io.turndiff.export;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;

/**
 * A tree built from a base tree plus edits, as {@code git update-index} and {@code write-tree}
 * would make it, without an index: only the trees along the edited paths are read and written anew;
 * every other entry keeps its id. A directory the edits empty disappears, as in git.
 */
final class TreeEdits {

  /** What an edit does to one path: put a blob with a mode there, or remove it. */
  sealed interface Edit {
    record Put(FileMode mode, ObjectId blob) implements Edit {}

    record Remove() implements Edit {}
  }

  private record Entry(FileMode mode, ObjectId id) {}

  private final GitObjects objects;

  TreeEdits(GitObjects objects) {
    this.objects = objects;
  }

  /**
   * The id of {@code base} with {@code edits} (by the path's components) applied, written; empty
   * when the result holds nothing.
   */
  Optional<ObjectId> apply(Optional<ObjectId> base, Map<List<String>, Edit> edits) {
    Map<String, Entry> entries = new TreeMap<>();
    base.ifPresent(id -> entries.putAll(read(id)));
    Map<String, Map<List<String>, Edit>> below = new LinkedHashMap<>();
    for (Map.Entry<List<String>, Edit> edit : edits.entrySet()) {
      List<String> path = edit.getKey();
      if (path.size() == 1) {
        switch (edit.getValue()) {
          case Edit.Put put -> entries.put(path.getFirst(), new Entry(put.mode(), put.blob()));
          case Edit.Remove remove -> entries.remove(path.getFirst());
        }
      } else {
        below
            .computeIfAbsent(path.getFirst(), name -> new LinkedHashMap<>())
            .put(path.subList(1, path.size()), edit.getValue());
      }
    }
    for (Map.Entry<String, Map<List<String>, Edit>> directory : below.entrySet()) {
      Entry existing = entries.get(directory.getKey());
      Optional<ObjectId> subtree =
          existing != null && isTree(existing.mode())
              ? Optional.of(existing.id())
              : Optional.empty();
      Optional<ObjectId> written = apply(subtree, directory.getValue());
      if (written.isPresent()) {
        entries.put(directory.getKey(), new Entry(FileMode.TREE, written.get()));
      } else {
        entries.remove(directory.getKey());
      }
    }
    if (entries.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(objects.insert(Constants.OBJ_TREE, format(entries)));
  }

  /** The entries of tree {@code id}, by name. */
  private Map<String, Entry> read(ObjectId id) {
    GitObjects.GitObject tree = objects.read(id);
    Map<String, Entry> entries = new TreeMap<>();
    CanonicalTreeParser parser = new CanonicalTreeParser();
    parser.reset(tree.data());
    while (!parser.eof()) {
      entries.put(
          parser.getEntryPathString(),
          new Entry(parser.getEntryFileMode(), parser.getEntryObjectId()));
      parser.next();
    }
    return entries;
  }

  /**
   * The tree's bytes: entries in git's order, which compares a tree's name as if it ended in {@code
   * /} ({@code a.txt} before {@code a/} before {@code ab}).
   */
  private static byte[] format(Map<String, Entry> entries) {
    List<Map.Entry<String, Entry>> sorted = new ArrayList<>(entries.entrySet());
    sorted.sort((a, b) -> Arrays.compareUnsigned(sortKey(a), sortKey(b)));
    TreeFormatter formatter = new TreeFormatter();
    for (Map.Entry<String, Entry> entry : sorted) {
      formatter.append(entry.getKey(), entry.getValue().mode(), entry.getValue().id());
    }
    return formatter.toByteArray();
  }

  private static byte[] sortKey(Map.Entry<String, Entry> entry) {
    String name = entry.getKey() + (isTree(entry.getValue().mode()) ? "/" : "");
    return name.getBytes(StandardCharsets.UTF_8);
  }

  private static boolean isTree(FileMode mode) {
    return mode.getObjectType() == Constants.OBJ_TREE;
  }
}
