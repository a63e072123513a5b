package io.turndiff.diff;

import io.turndiff.model.PrintableBytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * File content seen as lines, the way git shows it: split on {@code \n} only (a {@code \r} stays
 * part of its line, so CRLF survives), with whether the last line ends with a newline. Content with
 * a NUL, or that is not valid UTF-8, is binary and has no lines. (A NUL anywhere counts, not only
 * in the first 8 KB: such content cannot be shown as lines.)
 */
public final class TextContent {

  /**
   * Marks the last line of content without a final newline. A NUL never occurs in text (it would
   * have made the content binary), so a line carrying it compares unequal to the same words with a
   * newline after them: a change of only the final newline is a change.
   */
  static final char NO_FINAL_NEWLINE = '\0';

  private final List<String> lines;

  private TextContent(List<String> lines) {
    this.lines = lines;
  }

  /** The lines of {@code bytes}, or empty when the content is binary. */
  public static Optional<TextContent> of(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    int nul = text.indexOf('\0');
    if (nul >= 0) {
      return Optional.empty();
    }
    if (text.indexOf('\uFFFD') >= 0 && !PrintableBytes.isUtf8(bytes)) {
      // the fast decode replaced malformed input; a U+FFFD that was really in the file is text
      return Optional.empty();
    }
    List<String> lines = new ArrayList<>();
    int start = 0;
    int length = text.length();
    while (start < length) {
      int newline = text.indexOf('\n', start);
      if (newline < 0) {
        lines.add(text.substring(start) + NO_FINAL_NEWLINE);
        break;
      }
      lines.add(text.substring(start, newline));
      start = newline + 1;
    }
    return Optional.of(new TextContent(lines));
  }

  /**
   * The lines; the last one ends with {@link #NO_FINAL_NEWLINE} when the content has no final
   * newline.
   */
  List<String> lines() {
    return lines;
  }

  /** How many lines: a last line without a final newline counts. */
  public int lineCount() {
    return lines.size();
  }

  /** Line {@code index} (0-based) as it reads, without its newline. */
  public String line(int index) {
    String line = lines.get(index);
    return !line.isEmpty() && line.charAt(line.length() - 1) == NO_FINAL_NEWLINE
        ? line.substring(0, line.length() - 1)
        : line;
  }

  /**
   * The bytes of {@code lines} as {@link #lines()} reads them: a last line marked {@link
   * #NO_FINAL_NEWLINE} ends without one, and a marked line that lost its place as the last (an edit
   * added lines after it) gets its newline back.
   */
  static byte[] bytesOf(List<String> lines) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      boolean last = i == lines.size() - 1;
      if (last && !line.isEmpty() && line.charAt(line.length() - 1) == NO_FINAL_NEWLINE) {
        text.append(line, 0, line.length() - 1);
      } else {
        text.append(line.replace(String.valueOf(NO_FINAL_NEWLINE), "")).append('\n');
      }
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
