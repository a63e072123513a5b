package io.turndiff.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The turns an agent makes on a tree: per turn {@code m} edited text files (a few lines changed,
 * inserted and removed in each), about 10 % as many new files and 4 % as many deleted ones. With
 * {@code locality}, that share of the edits goes to files earlier turns already touched, as an
 * agent working on one feature does. Deterministic for a seed.
 *
 * <p>A file is edited as bytes: its lines are the runs of bytes between newlines, whatever the
 * encoding (a real tree holds Latin-1 sources, UTF-16 resources and binaries without a NUL near
 * their start), and new lines are UTF-8. On a UTF-8 file that is the same edit as one made on its
 * text. Only regular files are chosen, never a symbolic link (one could lead out of the copy).
 */
public final class Workload {

  private final Path root;
  private final Random random;
  private final int editsPerTurn;
  private final double locality;
  private final List<String> textFiles = new ArrayList<>();
  private final List<String> touchedBefore = new ArrayList<>();
  private final Set<String> touchedSet = new HashSet<>();
  private int created;

  /** One turn's plan: workspace-relative paths. */
  public record Turn(List<String> edited, List<String> created, List<String> deleted) {
    public List<String> touched() {
      List<String> all = new ArrayList<>(edited);
      all.addAll(created);
      all.addAll(deleted);
      return all;
    }
  }

  public Workload(Path root, int editsPerTurn, double locality, long seed) throws IOException {
    this.root = root;
    this.random = new Random(seed);
    this.editsPerTurn = editsPerTurn;
    this.locality = locality;
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
          .filter(path -> !path.toString().contains("/.git/"))
          .filter(Workload::isText)
          .map(path -> root.relativize(path).toString())
          .sorted()
          .forEach(textFiles::add);
    }
    if (textFiles.size() < editsPerTurn * 2) {
      throw new IllegalArgumentException(
          "the tree has "
              + textFiles.size()
              + " text files; a turn of "
              + editsPerTurn
              + " edits (--turn-files) needs at least twice as many");
    }
  }

  private static boolean isText(Path path) {
    try {
      byte[] head = new byte[8192];
      int n;
      try (var in = Files.newInputStream(path)) {
        n = in.readNBytes(head, 0, head.length);
      }
      for (int i = 0; i < n; i++) {
        if (head[i] == 0) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Chooses the next turn's paths (nothing is written yet). */
  public Turn next() {
    int newFiles = (int) Math.round(editsPerTurn * 0.10);
    int deletions = (int) Math.round(editsPerTurn * 0.04);
    Set<String> chosen = new LinkedHashSet<>();
    while (chosen.size() < editsPerTurn) {
      boolean local = !touchedBefore.isEmpty() && random.nextDouble() < locality;
      String path =
          local
              ? touchedBefore.get(random.nextInt(touchedBefore.size()))
              : textFiles.get(random.nextInt(textFiles.size()));
      chosen.add(path);
    }
    List<String> deleted = new ArrayList<>();
    while (deleted.size() < deletions) {
      String path = textFiles.get(random.nextInt(textFiles.size()));
      if (!chosen.contains(path) && !deleted.contains(path)) {
        deleted.add(path);
      }
    }
    List<String> made = new ArrayList<>();
    for (int i = 0; i < newFiles; i++) {
      String near = textFiles.get(random.nextInt(textFiles.size()));
      String dir = near.contains("/") ? near.substring(0, near.lastIndexOf('/') + 1) : "";
      made.add(dir + "Generated" + created++ + ".java");
    }
    return new Turn(List.copyOf(chosen), made, deleted);
  }

  /** Writes the turn: edits, new files, deletions. */
  public void apply(Turn turn) throws IOException {
    for (String path : turn.edited()) {
      Path file = root.resolve(path);
      Files.write(file, edited(Files.readAllBytes(file), random));
    }
    for (String path : turn.created()) {
      Path file = root.resolve(path);
      Files.createDirectories(file.getParent());
      Files.write(file, SyntheticTree.text(random, 1024 + random.nextInt(8 * 1024)));
    }
    for (String path : turn.deleted()) {
      Files.deleteIfExists(root.resolve(path));
    }
    textFiles.removeAll(turn.deleted());
    touchedBefore.removeAll(turn.deleted());
    touchedSet.removeAll(turn.deleted());
    textFiles.addAll(turn.created());
    for (String path : turn.edited()) {
      if (touchedSet.add(path)) {
        touchedBefore.add(path);
      }
    }
  }

  /** One file's edit: one to three lines changed, one to three inserted, one or two removed. */
  static byte[] edited(byte[] content, Random random) {
    List<byte[]> lines = lines(content);
    for (int change = 0; change < 1 + random.nextInt(3); change++) {
      lines.set(random.nextInt(lines.size()), newLine(random));
    }
    for (int insert = 0; insert < 1 + random.nextInt(3); insert++) {
      lines.add(random.nextInt(lines.size() + 1), newLine(random));
    }
    for (int remove = 0; remove < 1 + random.nextInt(2) && lines.size() > 3; remove++) {
      lines.remove(random.nextInt(lines.size() - 1));
    }
    return joined(lines);
  }

  private static byte[] newLine(Random random) {
    return SyntheticTree.line(random).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The runs of bytes between newlines, the last one after the last newline (empty when the file
   * ends with one): {@code String.split("\n", -1)} on bytes.
   */
  static List<byte[]> lines(byte[] content) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < content.length; i++) {
      if (content[i] == '\n') {
        lines.add(Arrays.copyOfRange(content, start, i));
        start = i + 1;
      }
    }
    lines.add(Arrays.copyOfRange(content, start, content.length));
    return lines;
  }

  /** The lines with a newline between each two. */
  static byte[] joined(List<byte[]> lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      if (i > 0) {
        out.write('\n');
      }
      out.writeBytes(lines.get(i));
    }
    return out.toByteArray();
  }
}
