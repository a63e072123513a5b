package io.turndiff.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The workload's edit of a file, made on its bytes: on UTF-8 text it is the edit that was made on
 * the text before, draw for draw.
 */
class WorkloadTest {

  /** The edit as it was made on text (Workload.apply before it edited bytes). */
  private static String editedAsText(String content, Random random) {
    List<String> lines = new ArrayList<>(List.of(content.split("\n", -1)));
    for (int change = 0; change < 1 + random.nextInt(3); change++) {
      lines.set(random.nextInt(lines.size()), SyntheticTree.line(random));
    }
    for (int insert = 0; insert < 1 + random.nextInt(3); insert++) {
      lines.add(random.nextInt(lines.size() + 1), SyntheticTree.line(random));
    }
    for (int remove = 0; remove < 1 + random.nextInt(2) && lines.size() > 3; remove++) {
      lines.remove(random.nextInt(lines.size() - 1));
    }
    return String.join("\n", lines);
  }

  @Test
  void onUtf8TextTheByteEditIsTheTextEdit() {
    Random texts = new Random(11);
    List<String> contents =
        new ArrayList<>(
            List.of("", "\n", "a", "a\nb", "caf\u00e9\n\u65e5\u672c\n\u00fc\n", "\n\n\n\n\n"));
    for (int i = 0; i < 50; i++) {
      contents.add(
          new String(SyntheticTree.text(texts, 200 + texts.nextInt(4000)), StandardCharsets.UTF_8)
              + "\u00e9\u00e8 \u2603\n");
    }
    for (int seed = 0; seed < contents.size(); seed++) {
      String text = contents.get(seed);
      byte[] byBytes = Workload.edited(text.getBytes(StandardCharsets.UTF_8), new Random(seed));
      String byText = editedAsText(text, new Random(seed));
      assertArrayEquals(byText.getBytes(StandardCharsets.UTF_8), byBytes, text);
    }
  }

  @Test
  void aFileThatIsNotUtf8IsEditedAroundItsBytes() {
    byte[] latin1 =
        "caf\u00e9\nna\u00efve\n\u00e0 la carte\nfin\n".getBytes(StandardCharsets.ISO_8859_1);
    byte[] edited = Workload.edited(latin1, new Random(1));
    // every line the edit did not replace keeps its bytes: the Latin-1 ones are still there
    int kept = 0;
    for (byte[] line : Workload.lines(edited)) {
      for (byte[] original : Workload.lines(latin1)) {
        if (original.length > 0 && Arrays.equals(line, original)) {
          kept++;
        }
      }
    }
    assertTrue(kept > 0, "some of the original lines are kept byte for byte");
  }

  /** Lines are the runs between newlines, as {@code split("\n", -1)} gives them on text. */
  @Test
  void linesAndJoinedAreSplitAndJoinOnBytes() {
    for (String text : List.of("", "\n", "a", "a\n", "\na\n\nb", "\u00e9\n\u00e8")) {
      byte[] content = text.getBytes(StandardCharsets.UTF_8);
      List<byte[]> lines = Workload.lines(content);
      assertEquals(text.split("\n", -1).length, lines.size(), text);
      assertArrayEquals(content, Workload.joined(lines), text);
    }
  }
}
