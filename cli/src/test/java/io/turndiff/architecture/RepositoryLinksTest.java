package io.turndiff.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A fresh clone must hold everything it refers to: no path in the markdown or the main sources that
 * climbs out of the repository (a {@code ../} path resolving outside it), no relative markdown link
 * to a file that is not there, no link to a section ({@code file.md#anchor}, {@code #anchor}) that
 * the markdown file does not have, and no {@code docs/…} file named in a comment of the main
 * sources (package docs, javadoc) that does not exist. The README is one page and the manual lives
 * in {@code docs/}: the links between them are what a reader follows, so each must land.
 */
class RepositoryLinksTest {

  /** Folders that are build output or another tool's, never the repository's own text. */
  private static final Set<String> NOT_OURS = Set.of("target", ".git", "node_modules");

  /** {@code [text](target)} and {@code [text](target "title")}; the text may span lines. */
  private static final Pattern MARKDOWN_LINK =
      Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

  /** A fenced code block: what is inside is code, not links. */
  private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*(```|~~~).*?^\\s*\\1\\s*$");

  /** A markdown heading, {@code #} to {@code ######}, and its text (closing hashes left out). */
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}[ \t]+(.*?)[ \t#]*$");

  /** What GitHub leaves out of a heading's text when it makes the heading's anchor. */
  private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]");

  /** A {@code docs/} file named in a comment of the main sources: relative to the repository. */
  private static final Pattern DOCS_FILE = Pattern.compile("(?<![\\w./-])(docs/[\\w./-]*\\w)");

  /** A comment in Java source: what javadoc and package docs are written in. */
  private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\n]*");

  /**
   * A path that climbs ({@code ../x/y}): it must still land inside the repository, resolved from
   * the markdown file that holds it, or from the repository's top for a Java source's comment.
   */
  private static final Pattern CLIMBING_PATH =
      Pattern.compile("(?<![\\w./-])((?:\\.\\./)+[\\w.-][\\w./-]*)");

  private final Path repository = repositoryRoot();

  @Test
  void nothingRefersToFilesOutsideTheRepositoryOrToMissingFiles() {
    List<String> problems = new ArrayList<>();
    List<Path> markdown = files(path -> path.getFileName().toString().endsWith(".md"));
    List<Path> java =
        files(
            path ->
                path.getFileName().toString().endsWith(".java")
                    && repository.relativize(path).toString().contains("src/main/java/"));
    assertTrue(markdown.contains(repository.resolve("README.md")), "README.md is checked");
    assertTrue(
        java.stream().anyMatch(file -> file.endsWith("package-info.java")),
        "package docs are checked");

    for (Path file : markdown) {
      String text = read(file);
      outsideReferences(file, file.getParent(), text, problems);
      Matcher link = MARKDOWN_LINK.matcher(FENCE.matcher(text).replaceAll(""));
      while (link.find()) {
        String target = link.group(1);
        if (isRelativeFileLink(target)
            && !Files.exists(file.getParent().resolve(decodedPath(target)))) {
          problems.add(where(file) + ": link to a missing file: " + target);
        } else if (!landsOnASection(file, target)) {
          problems.add(where(file) + ": link to a missing section: " + target);
        }
      }
    }
    for (Path file : java) {
      String text = read(file);
      Matcher comment = COMMENT.matcher(text);
      while (comment.find()) {
        // comments name files; a string in the code is data (the demo's link out, say)
        outsideReferences(file, repository, comment.group(), problems);
        Matcher named = DOCS_FILE.matcher(comment.group());
        while (named.find()) {
          if (!Files.exists(repository.resolve(named.group(1)))) {
            problems.add(where(file) + ": names a missing file: " + named.group(1));
          }
        }
      }
    }
    assertEquals(List.of(), problems, "every reference must resolve inside the repository");
  }

  /** The rules themselves: a link checker that finds nothing wrong anywhere proves nothing. */
  @Test
  void theRulesSeeWhatTheyMustSee() {
    assertTrue(isRelativeFileLink("docs/boundary.md"));
    assertTrue(isRelativeFileLink("../docs/runtime-hooks.md#decisions"));
    assertTrue(
        !isRelativeFileLink("#layout")
            && !isRelativeFileLink("https://example.org/x.md")
            && !isRelativeFileLink("mailto:someone@example.org"));
    Matcher link =
        MARKDOWN_LINK.matcher(
            "see [the\npolicy](../elsewhere/policy.md) and [map](docs/a.md \"A\")");
    assertTrue(link.find() && link.group(1).equals("../elsewhere/policy.md"));
    assertTrue(link.find() && link.group(1).equals("docs/a.md"));
    List<String> found = new ArrayList<>();
    outsideReferences(
        repository.resolve("README.md"),
        repository,
        "{@code ../elsewhere/policy.md}, docs/../README.md",
        found);
    assertEquals(1, found.size(), found.toString());
    List<String> inside = new ArrayList<>();
    outsideReferences(
        repository.resolve("docs/a.md"), repository.resolve("docs"), "see ../README.md", inside);
    assertEquals(List.of(), inside, "a climb that stays inside is no problem");
    Matcher named = DOCS_FILE.matcher("See docs/boundary.md. Not mydocs/x.md");
    assertTrue(named.find() && named.group(1).equals("docs/boundary.md") && !named.find());
    assertEquals("", FENCE.matcher("```sh\n[ -x a ](b)\n```\n").replaceAll("").strip());
    Matcher comment =
        COMMENT.matcher("write(\"docs/usage.md\"); /** See docs/a.md. */ // and docs/b.md");
    assertTrue(comment.find() && comment.group().contains("docs/a.md"));
    assertTrue(comment.find() && comment.group().contains("docs/b.md") && !comment.find());
    assertEquals(
        Set.of(
            "tracked-workspaces-changes-made-by-the-shell",
            "the-release-packages--pdist",
            "codex",
            "codex-1",
            "6a-a-rewind-that-puts-nothing-back"),
        anchors(
            "# Tracked workspaces (changes made by the shell)\n"
                + "## The release packages (`-Pdist`) ##\n"
                + "### Codex\n```sh\n# not a heading\n```\n#### Codex\n"
                + "## 6a. A rewind that puts nothing back\n#hashtag is no heading\n"));
  }

  /**
   * Whether a link's fragment names a heading of the markdown file it points to (the file itself
   * for {@code #anchor}). A link with no fragment, or to something that is not markdown, lands.
   */
  private static boolean landsOnASection(Path file, String target) {
    int hash = target.indexOf('#');
    if (hash < 0 || !(hash == 0 || isRelativeFileLink(target))) {
      return true;
    }
    Path linked = hash == 0 ? file : file.getParent().resolve(decodedPath(target));
    return !linked.getFileName().toString().endsWith(".md")
        || anchors(read(linked)).contains(target.substring(hash + 1));
  }

  /**
   * The anchors GitHub gives a markdown file's headings (those outside code fences): the text in
   * lower case, without punctuation, spaces made hyphens; a repeated one gets {@code -1}, {@code
   * -2}… in order.
   */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> repeats = new HashMap<>();
    Matcher heading = HEADING.matcher(FENCE.matcher(markdown).replaceAll(""));
    while (heading.find()) {
      String anchor =
          NOT_IN_ANCHOR
              .matcher(heading.group(1).strip().toLowerCase(Locale.ROOT))
              .replaceAll("")
              .replace(' ', '-');
      int seen = repeats.merge(anchor, 1, Integer::sum) - 1;
      anchors.add(seen == 0 ? anchor : anchor + "-" + seen);
    }
    return anchors;
  }

  private void outsideReferences(Path file, Path base, String text, List<String> problems) {
    Matcher climbing = CLIMBING_PATH.matcher(text);
    while (climbing.find()) {
      if (!base.resolve(climbing.group(1)).normalize().startsWith(repository)) {
        problems.add(where(file) + ": refers outside the repository: " + climbing.group(1));
      }
    }
  }

  private static boolean isRelativeFileLink(String target) {
    return !target.startsWith("#")
        && !target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")
        && !target.startsWith("/");
  }

  /** The file part of a link: without its fragment, percent-decoded. */
  private static String decodedPath(String target) {
    String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
    try {
      return new URI(path).getPath();
    } catch (URISyntaxException e) {
      return path;
    }
  }

  private String where(Path file) {
    return repository.relativize(file).toString();
  }

  /**
   * The repository's own files whose name is wanted, without build output and other tools' folders.
   */
  private List<Path> files(Predicate<Path> wanted) {
    List<Path> found = new ArrayList<>();
    try {
      Files.walkFileTree(
          repository,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) {
              return !folder.equals(repository)
                      && NOT_OURS.contains(folder.getFileName().toString())
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile() && wanted.test(file)) {
                found.add(file);
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    found.sort(null);
    return found;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Surefire runs in the module's folder ({@code cli}); the repository is the folder holding {@code
   * mvnw}.
   */
  private static Path repositoryRoot() {
    Path folder = Path.of("").toAbsolutePath();
    while (folder != null && !Files.isRegularFile(folder.resolve("mvnw"))) {
      folder = folder.getParent();
    }
    assertTrue(folder != null, "the repository holds the module the tests run in");
    return folder;
  }
}
