package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * apply_patch paths: the recorded and synthetic payloads of {@code integrations/fixtures} give
 * exactly the paths {@code apply_patch.paths.json} lists, and for generated valid patches the
 * parsed paths are exactly the paths the generator wrote.
 */
class ApplyPatchPathsTest {

  private static final Path FIXTURES = Path.of("..", "integrations", "fixtures");

  @Test
  void everyFixtureGivesTheRecordedPaths() throws Exception {
    JsonNode expected = Json.mapper().readTree(FIXTURES.resolve("apply_patch.paths.json").toFile());
    int checked = 0;
    for (Map.Entry<String, JsonNode> fixture : expected.get("fixtures").properties()) {
      JsonNode payload = Json.mapper().readTree(FIXTURES.resolve(fixture.getKey()).toFile());
      List<String> paths = new ArrayList<>();
      fixture.getValue().get("paths").forEach(path -> paths.add(path.asText()));
      boolean valid = fixture.getValue().get("valid").asBoolean();
      JsonNode patch = payload.at("/output/args/patchText");
      ApplyPatchPaths.Parsed parsed;
      if (!patch.isMissingNode()) {
        parsed = ApplyPatchPaths.parse(patch.asText());
      } else if (payload.path("tool_name").asText().equals("Bash")) {
        assertEquals(
            paths,
            ApplyPatchPaths.inShellCommand(payload.at("/tool_input/command").asText()),
            fixture.getKey());
        checked++;
        continue;
      } else {
        parsed = ApplyPatchPaths.parse(payload.at("/tool_input/command").asText());
      }
      assertEquals(new ApplyPatchPaths.Parsed(valid, paths), parsed, fixture.getKey());
      checked++;
    }
    assertEquals(expected.get("fixtures").size(), checked);
  }

  @Test
  void aRefusedPatchGivesEveryPathAfterAMarker() {
    ApplyPatchPaths.Parsed parsed =
        ApplyPatchPaths.parse(
            "*** Begin Patch\n*** Update File: a.txt\nnot a chunk line\n*** Delete File: b.txt\n");
    assertEquals(new ApplyPatchPaths.Parsed(false, List.of("a.txt", "b.txt")), parsed);
  }

  @Test
  void aShellCommandMayHoldSeveralPatchesOrNone() {
    assertEquals(List.of(), ApplyPatchPaths.inShellCommand("sed -i s/a/b/ x.txt"));
    assertEquals(
        List.of("a.txt", "b.txt"),
        ApplyPatchPaths.inShellCommand(
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\nEOF\n"
                + "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: b.txt\n"
                + "*** End Patch\nEOF\n"));
  }

  /** One hunk of a generated patch. */
  record Hunk(String kind, String path, String target) {

    List<String> paths() {
      return target == null ? List.of(path) : List.of(path, target);
    }
  }

  @Property(tries = 300)
  void theParsedPathsAreThePathsThePatchNames(
      @ForAll("hunks") List<Hunk> hunks,
      @ForAll boolean crlf,
      @ForAll boolean padded,
      @ForAll boolean heredoc) {
    // hunk headers are read trimmed, so padding after them is allowed; before them only where no
    // update precedes (a line starting with a space continues an update's chunk, as in Codex)
    String pad = padded ? "  " : "";
    List<String> lines = new ArrayList<>();
    if (heredoc) {
      lines.add("<<'EOF'");
    }
    lines.add(pad + "*** Begin Patch" + pad);
    Set<String> expected = new LinkedHashSet<>();
    for (Hunk hunk : hunks) {
      expected.addAll(hunk.paths());
      switch (hunk.kind()) {
        case "add" -> {
          lines.add("*** Add File: " + hunk.path() + pad);
          lines.add("+line one");
          lines.add("+");
        }
        case "delete" -> lines.add("*** Delete File: " + hunk.path() + pad);
        default -> {
          lines.add("*** Update File: " + hunk.path() + pad);
          if (hunk.target() != null) {
            lines.add("*** Move to: " + hunk.target());
          }
          lines.add("@@ context");
          lines.add(" kept");
          lines.add("-old");
          lines.add("+new");
          lines.add("");
          lines.add("*** End of File");
        }
      }
    }
    lines.add(pad + "*** End Patch" + pad);
    if (heredoc) {
      lines.add("EOF");
    }
    String text = String.join(crlf ? "\r\n" : "\n", lines) + "\n";
    assertEquals(
        new ApplyPatchPaths.Parsed(true, List.copyOf(expected)), ApplyPatchPaths.parse(text));
  }

  @Provide
  Arbitrary<List<Hunk>> hunks() {
    Arbitrary<String> segment =
        Arbitraries.oneOf(
            Arbitraries.strings()
                .alpha()
                .numeric()
                .withChars(" ._-üä€")
                .ofMinLength(1)
                .ofMaxLength(8),
            Arbitraries.of("..", "."));
    Arbitrary<String> path =
        segment
            .list()
            .ofMinSize(1)
            .ofMaxSize(4)
            .map(segments -> String.join("/", segments))
            .flatMap(relative -> Arbitraries.of(relative, "/abs/" + relative))
            .filter(candidate -> candidate.equals(candidate.strip()));
    Arbitrary<Hunk> hunk =
        Arbitraries.of("add", "delete", "update", "move")
            .flatMap(
                kind ->
                    path.flatMap(
                        source ->
                            kind.equals("move")
                                ? path.map(target -> new Hunk("update", source, target))
                                : Arbitraries.just(new Hunk(kind, source, null))));
    return hunk.list().ofMinSize(0).ofMaxSize(6);
  }
}
