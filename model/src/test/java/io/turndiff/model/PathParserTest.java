package io.turndiff.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a path reaches the parser, as one table: how it was given × what it names → the outcome
 * and the exact message. The parser only reads names, so the roots are names that need not exist.
 */
class PathParserTest {

  private static final Path REAL = Path.of("/srv/real/ws");
  private static final Path GIVEN = Path.of("/home/u/ws");
  private static final PathParser PARSER = PathParser.beneath(RootNames.of(REAL, GIVEN));

  /** How the path was given: the kinds of {@link PathInput}, and base64 as both edges decode it. */
  enum Form {
    /**
     * As text. Both edges (the CLI's {@code snapshot}, the HTTP snapshot endpoint) used to hand the
     * parser a text's UTF-8 bytes whenever the call also carried a base64 path, so that a lossy
     * name (U+FFFD) or an unpaired surrogate (encoded as {@code ?}) passed; now every path is
     * decoded at the edge into its own {@link PathInput} and a text is a text whatever else the
     * call carries ({@code CaptureCommandsTest}, {@code HttpServiceTest} drive the edges).
     */
    TEXT,
    /** As exact bytes. */
    BYTES,
    /** As base64 of its bytes ({@link PathInput#base64}, the only decoder). */
    BASE64
  }

  private static final String LONG_PATH = ("d".repeat(99) + "/").repeat(41) + "f";
  private static final String LONG_NAME = "n".repeat(256);
  private static final byte[] NOT_UTF8 = {'n', (byte) 0xFF, '.', 't', 'x', 't'};

  static Stream<Arguments> table() {
    List<Arguments> rows = new ArrayList<>();
    every(rows, "relative", "src/a.txt", "inside src/a.txt");
    every(rows, "doubled slash", "src//a.txt", "inside src/a.txt");
    every(rows, "absolute inside the real root", "/srv/real/ws/src/a.txt", "inside src/a.txt");
    every(rows, "absolute inside the given root", "/home/u/ws/src/a.txt", "inside src/a.txt");
    every(rows, "absolute outside", "/etc/passwd", "outside /etc/passwd");
    every(
        rows,
        "absolute, '..' leaving the root",
        "/srv/real/ws/../other/x",
        "outside /srv/real/other/x");
    every(rows, "'.' inside", "./src/./a.txt", "inside ./src/./a.txt");
    every(rows, "'..' inside", "src/../b.txt", "inside src/../b.txt");
    every(rows, "'..' escaping", "src/../../x/y", "outside /srv/real/x/y");
    rows.add(
        row(
            "U+FFFD",
            Form.TEXT,
            "caf\uFFFD.txt",
            "refused: path 'caf\uFFFD.txt' contains U+FFFD: a name "
                + "that was not valid UTF-8 before it reached turndiff; give its bytes instead (base64)"));
    rows.add(row("U+FFFD", Form.BYTES, "caf\uFFFD.txt", "inside caf\uFFFD.txt"));
    rows.add(row("U+FFFD", Form.BASE64, "caf\uFFFD.txt", "inside caf\uFFFD.txt"));
    rows.add(
        row(
            "lone surrogate",
            Form.TEXT,
            "a\uD800b",
            "refused: path 'a\uD800b' is not valid Unicode (an unpaired surrogate)"));
    rows.add(Arguments.of("not UTF-8", Form.BYTES, NOT_UTF8, "inside n\\xff.txt"));
    rows.add(Arguments.of("not UTF-8", Form.BASE64, NOT_UTF8, "inside n\\xff.txt"));
    every(rows, "NUL", "a\0b", "refused: path 'a\\0b' contains a NUL byte");
    every(rows, "empty", "", "refused: path '' is empty");
    every(
        rows,
        "trailing '/'",
        "src/",
        "refused: path 'src/' ends with '/': it names a directory, and snapshots are of files");
    every(
        rows,
        "longer than PATH_MAX",
        LONG_PATH,
        "refused: path '"
            + LONG_PATH.substring(0, 60)
            + "…' is 4101 bytes long; the kernel opens names of at most 4095 bytes");
    every(
        rows,
        "a name longer than NAME_MAX",
        "src/" + LONG_NAME,
        "refused: path '"
            + ("src/" + LONG_NAME).substring(0, 80)
            + "…' has a component of 256 bytes; names are at most 255");
    every(
        rows, "the root, relative", ".", "refused: path '.' names the workspace root, a directory");
    every(
        rows,
        "the root, relative with '..'",
        "src/..",
        "refused: path 'src/..' names the workspace root, a directory");
    every(
        rows,
        "the real root",
        "/srv/real/ws",
        "refused: path '/srv/real/ws' is the workspace root, a directory");
    every(
        rows,
        "the given root",
        "/home/u/ws/.",
        "refused: path '/home/u/ws/.' is the workspace root, a directory");
    return rows.stream();
  }

  private static void every(List<Arguments> rows, String what, String input, String outcome) {
    for (Form form : Form.values()) {
      rows.add(row(what, form, input, outcome));
    }
  }

  private static Arguments row(String what, Form form, String input, String outcome) {
    return Arguments.of(
        what, form, form == Form.TEXT ? input : input.getBytes(StandardCharsets.UTF_8), outcome);
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("table")
  void aPathIsParsedAs(String what, Form form, Object input, String outcome) {
    RequestedPath parsed;
    try {
      parsed = parse(form, input);
    } catch (BadPathException e) {
      assertEquals(outcome, "refused: " + e.getMessage());
      return;
    }
    assertEquals(outcome, shown(parsed));
    byte[] given =
        input instanceof byte[] bytes ? bytes : ((String) input).getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(given, parsed.given().bytes(), "the given path is kept exactly");
  }

  private static RequestedPath parse(Form form, Object input) {
    return switch (form) {
      case TEXT -> PARSER.parse(PathInput.text((String) input));
      case BYTES -> PARSER.parse(PathInput.bytes((byte[]) input));
      case BASE64 ->
          PARSER.parse(PathInput.base64(Base64.getEncoder().encodeToString((byte[]) input)));
    };
  }

  /**
   * The review's reading ({@code log PATH}, {@code diff --turn T PATH}, {@link
   * PathParser#recorded}): the same parse, then the key by the name alone, {@code .} and {@code ..}
   * applied lexically.
   */
  static Stream<Arguments> lookups() {
    return Stream.of(
        Arguments.of("src/a.txt", "key src/a.txt"),
        Arguments.of("./src/./a.txt", "key src/a.txt"),
        Arguments.of("src//a.txt", "key src/a.txt"),
        Arguments.of("src/../b.txt", "key b.txt"),
        Arguments.of("/srv/real/ws/src/../a.txt", "key a.txt"),
        Arguments.of("/home/u/ws/./a.txt", "key a.txt"),
        Arguments.of("src/../../x/y", "outside key /srv/real/x/y"),
        Arguments.of("/etc/passwd", "outside key /etc/passwd"),
        Arguments.of(NOT_UTF8, "key n\\xff.txt"),
        Arguments.of(
            "caf\uFFFD.txt",
            "refused: path 'caf\uFFFD.txt' contains U+FFFD: a name that was not valid "
                + "UTF-8 before it reached turndiff; give its bytes instead (base64)"),
        Arguments.of("src/..", "refused: path 'src/..' names the workspace root, a directory"),
        Arguments.of(
            "src/",
            "refused: path 'src/' ends with '/': it names a directory, and snapshots are of files"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lookups")
  void aPathIsLookedUpAs(Object input, String outcome) {
    PathInput given =
        input instanceof byte[] bytes ? PathInput.bytes(bytes) : PathInput.text((String) input);
    String shown;
    try {
      WorkspacePath key = PARSER.recorded(given);
      shown = (key.isOutside() ? "outside key " : "key ") + key.display();
    } catch (BadPathException e) {
      shown = "refused: " + e.getMessage();
    }
    assertEquals(outcome, shown);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      bv8udHh0 | inside n\\xff.txt
      c3JjL2EudHh0 | inside src/a.txt
      QQ=      | refused: path 'QQ=' is not base64
      !!!!     | refused: path '!!!!' is not base64
      bv8=Cg== | refused: path 'bv8=Cg==' is not base64
      ''       | refused: path '' is empty
      """)
  void base64IsDecodedInOnePlace(String encoded, String outcome) {
    String shown;
    try {
      shown = shown(PARSER.parse(PathInput.base64(encoded)));
    } catch (BadPathException e) {
      shown = "refused: " + e.getMessage();
    }
    assertEquals(outcome, shown);
  }

  @Test
  void aRootGivenAsARelativeNameIsNoRoot() {
    PathParser parser = PathParser.beneath(RootNames.of("/srv/real/ws", "ws"));
    assertEquals("outside /ws/a.txt", shown(parser.parse(PathInput.text("/ws/a.txt"))));
    assertEquals("inside a.txt", shown(parser.parse(PathInput.text("/srv/real/ws/a.txt"))));
  }

  private static String shown(RequestedPath parsed) {
    return switch (parsed) {
      case RequestedPath.Inside inside ->
          "inside "
              + inside.components().stream()
                  .map(component -> GivenPath.of(component).display())
                  .collect(Collectors.joining("/"));
      case RequestedPath.Outside outside -> "outside " + outside.key().display();
    };
  }
}
