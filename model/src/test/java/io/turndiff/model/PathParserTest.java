package io.turndiff.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a path reaches the parser, as one table: how it was given × what it names → the outcome and the
 * exact message. The parser only reads names, so the roots are names that need not exist.
 */
class PathParserTest {

  private static final Path REAL = Path.of("/srv/real/ws");
  private static final Path GIVEN = Path.of("/home/u/ws");
  private static final PathParser PARSER = new PathParser(REAL, GIVEN);

  /** How the path was given. */
  enum Form {
    /** As text, in a call that carries only text paths. */
    TEXT,
    /**
     * As text, in a call that also carries a base64 path: what both edges (the CLI's {@code snapshot}, the
     * HTTP snapshot endpoint) hand the parser then — today the text's UTF-8 bytes.
     */
    TEXT_BESIDE_BASE64,
    /** As exact bytes (base64 at the edges). */
    BYTES
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
    every(rows, "absolute, '..' leaving the root", "/srv/real/ws/../other/x", "outside /srv/real/other/x");
    every(rows, "'.' inside", "./src/./a.txt", "inside ./src/./a.txt");
    every(rows, "'..' inside", "src/../b.txt", "inside src/../b.txt");
    every(rows, "'..' escaping", "src/../../x/y", "outside /srv/real/x/y");
    rows.add(row("U+FFFD", Form.TEXT, "caf\uFFFD.txt", "refused: path 'caf\uFFFD.txt' contains U+FFFD: a name "
        + "that was not valid UTF-8 before it reached turndiff; give its bytes instead (base64)"));
    rows.add(row("U+FFFD", Form.TEXT_BESIDE_BASE64, "caf\uFFFD.txt", "inside caf\uFFFD.txt"));
    rows.add(row("U+FFFD", Form.BYTES, "caf\uFFFD.txt", "inside caf\uFFFD.txt"));
    rows.add(row("lone surrogate", Form.TEXT, "a\uD800b",
        "refused: path 'a\uD800b' is not valid Unicode (an unpaired surrogate)"));
    rows.add(row("lone surrogate", Form.TEXT_BESIDE_BASE64, "a\uD800b", "inside a?b"));
    rows.add(Arguments.of("not UTF-8", Form.BYTES, NOT_UTF8, "inside n\\xff.txt"));
    every(rows, "NUL", "a\0b", "refused: path 'a\\0b' contains a NUL byte");
    every(rows, "empty", "", "refused: path '' is empty");
    every(rows, "trailing '/'", "src/",
        "refused: path 'src/' ends with '/': it names a directory, and snapshots are of files");
    every(rows, "longer than PATH_MAX", LONG_PATH, "refused: path '" + LONG_PATH.substring(0, 60)
        + "…' is 4101 bytes long; the kernel opens names of at most 4095 bytes");
    every(rows, "a name longer than NAME_MAX", "src/" + LONG_NAME, "refused: path '"
        + ("src/" + LONG_NAME).substring(0, 80) + "…' has a component of 256 bytes; names are at most 255");
    every(rows, "the root, relative", ".", "refused: path '.' names the workspace root, a directory");
    every(rows, "the root, relative with '..'", "src/..",
        "refused: path 'src/..' names the workspace root, a directory");
    every(rows, "the real root", "/srv/real/ws", "refused: path '/srv/real/ws' is the workspace root, a directory");
    every(rows, "the given root", "/home/u/ws/.", "refused: path '/home/u/ws/.' is the workspace root, a directory");
    return rows.stream();
  }

  private static void every(List<Arguments> rows, String what, String input, String outcome) {
    for (Form form : Form.values()) {
      rows.add(row(what, form, input, outcome));
    }
  }

  private static Arguments row(String what, Form form, String input, String outcome) {
    return Arguments.of(what, form, form == Form.BYTES ? input.getBytes(StandardCharsets.UTF_8) : input, outcome);
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
    byte[] given = input instanceof byte[] bytes ? bytes : ((String) input).getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(given, parsed.given().bytes(), "the given path is kept exactly");
  }

  private static RequestedPath parse(Form form, Object input) {
    return switch (form) {
      case TEXT -> PARSER.parse((String) input);
      case TEXT_BESIDE_BASE64 -> PARSER.parse(((String) input).getBytes(StandardCharsets.UTF_8));
      case BYTES -> PARSER.parse((byte[]) input);
    };
  }

  private static String shown(RequestedPath parsed) {
    return switch (parsed) {
      case RequestedPath.Inside inside -> "inside " + inside.components().stream()
          .map(component -> GivenPath.of(component).display()).collect(Collectors.joining("/"));
      case RequestedPath.Outside outside -> "outside " + outside.key().display();
    };
  }
}
