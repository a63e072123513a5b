package io.turndiff.hooks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The paths an {@code apply_patch} body names (Codex's {@code apply_patch} tool, a patch inside a
 * shell command, OpenCode's {@code patchText}), read as Codex's parser reads them
 * (docs/runtime-hooks.md, "apply_patch paths"): every Add, Delete and Update path and every Move
 * target, in order, without duplicates. A patch Codex would refuse touches nothing; its paths are
 * then a superset (the path after every hunk marker), since an extra snapshot costs nothing and a
 * missing one loses a before-state.
 */
final class ApplyPatchPaths {

  private static final String BEGIN = "*** Begin Patch";
  private static final String END = "*** End Patch";
  private static final String ADD = "*** Add File: ";
  private static final String DELETE = "*** Delete File: ";
  private static final String UPDATE = "*** Update File: ";
  private static final String MOVE = "*** Move to: ";
  private static final String END_OF_FILE = "*** End of File";
  private static final List<String> HEADER_MARKERS = List.of(ADD, DELETE, UPDATE);

  /** The paths of one patch, and whether Codex would accept it. */
  record Parsed(boolean valid, List<String> paths) {
    Parsed {
      paths = List.copyOf(paths);
    }
  }

  private ApplyPatchPaths() {}

  /** The paths of the patch {@code text} (the heredoc form {@code <<'EOF' … EOF} included). */
  static Parsed parse(String text) {
    List<String> lines = lines(text.strip());
    if (lines.size() >= 4
        && List.of("<<EOF", "<<'EOF'", "<<\"EOF\"").contains(lines.getFirst())
        && lines.getLast().endsWith("EOF")) {
      lines = lines.subList(1, lines.size() - 1);
    }
    List<String> paths = strict(lines);
    return paths == null ? new Parsed(false, markerPaths(lines)) : new Parsed(true, paths);
  }

  /**
   * The paths of every patch inside a shell command: each stretch from a line that, trimmed, is
   * {@code *** Begin Patch} to the next that, trimmed, is {@code *** End Patch}.
   */
  static List<String> inShellCommand(String command) {
    Set<String> paths = new LinkedHashSet<>();
    List<String> lines = lines(command);
    int begin = -1;
    for (int i = 0; i < lines.size(); i++) {
      String trimmed = lines.get(i).strip();
      if (begin < 0 && trimmed.equals(BEGIN)) {
        begin = i;
      } else if (begin >= 0 && trimmed.equals(END)) {
        paths.addAll(parse(String.join("\n", lines.subList(begin, i + 1))).paths());
        begin = -1;
      }
    }
    return List.copyOf(paths);
  }

  private static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
    }
    return lines;
  }

  /** The paths as Codex reads them, or null when Codex would refuse the patch. */
  private static List<String> strict(List<String> lines) {
    if (lines.size() < 2
        || !lines.getFirst().strip().equals(BEGIN)
        || !lines.getLast().strip().equals(END)) {
      return null;
    }
    Set<String> paths = new LinkedHashSet<>();
    int i = 1;
    int last = lines.size() - 1;
    while (i < last) {
      String header = lines.get(i).strip();
      i++;
      if (header.startsWith(ADD)) {
        paths.add(header.substring(ADD.length()));
        while (i < last && lines.get(i).startsWith("+")) {
          i++;
        }
      } else if (header.startsWith(DELETE)) {
        paths.add(header.substring(DELETE.length()));
      } else if (header.startsWith(UPDATE)) {
        paths.add(header.substring(UPDATE.length()));
        if (i < last && lines.get(i).startsWith(MOVE)) {
          paths.add(lines.get(i).substring(MOVE.length()));
          i++;
        }
        while (i < last && !startsHunk(lines.get(i))) {
          if (!updateLine(lines.get(i))) {
            return null;
          }
          i++;
        }
      } else {
        return null;
      }
    }
    return List.copyOf(paths);
  }

  /** A line that starts with {@code *} ends an update's chunks, unless it is End of File. */
  private static boolean startsHunk(String line) {
    return line.startsWith("*") && !line.strip().equals(END_OF_FILE);
  }

  private static boolean updateLine(String line) {
    return line.isEmpty()
        || line.startsWith("@@")
        || line.startsWith(" ")
        || line.startsWith("+")
        || line.startsWith("-")
        || line.strip().equals(END_OF_FILE);
  }

  /** The superset for a refused patch: the path after every line that starts with a marker. */
  private static List<String> markerPaths(List<String> lines) {
    Set<String> paths = new LinkedHashSet<>();
    for (String line : lines) {
      String trimmed = line.strip();
      for (String marker : HEADER_MARKERS) {
        if (trimmed.startsWith(marker)) {
          paths.add(trimmed.substring(marker.length()));
        }
      }
      if (line.startsWith(MOVE)) {
        paths.add(line.substring(MOVE.length()));
      } else if (trimmed.startsWith(MOVE)) {
        paths.add(trimmed.substring(MOVE.length()));
      }
    }
    return List.copyOf(paths);
  }
}
