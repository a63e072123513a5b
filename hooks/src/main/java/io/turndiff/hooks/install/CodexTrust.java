package io.turndiff.hooks.install;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Codex runs a hook only when {@code config.toml} trusts it: a table {@code [hooks.state."<hooks
 * file>:<event>:<group index>:<handler index>"]} whose {@code trusted_hash} is {@code sha256:} and
 * the SHA-256 of the handler's canonical JSON (keys sorted, compact, strings escaped as serde_json
 * does). Without it Codex skips the hook silently, so install writes these tables itself, as one
 * block between marker lines appended to the file (docs/runtime-hooks.md, "Codex"). The hooks file
 * in a key is the name Codex itself gives the file, which is not always the name install was given
 * (a symlink above it is resolved, or not): the caller passes each name Codex may use.
 */
public final class CodexTrust {

  private static final String BEGIN =
      "# >>> turndiff hooks: trust for the hooks `turndiff hooks install` added to ";
  private static final String BEGIN_END = "; `turndiff hooks uninstall` removes this block";
  static final String END = "# <<< turndiff hooks";

  // compact, '/' and non-ASCII as they are: what serde_json writes (the keys are put in sorted
  // order)
  private static final ObjectMapper CANONICAL = JsonMapper.builder().build();

  private CodexTrust() {}

  /**
   * The {@code trusted_hash} of a command handler without a matcher, as Codex 0.171.0 computes it.
   */
  public static String trustedHash(String snakeCaseEvent, String command, int timeoutSeconds) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode handler = nodes.objectNode();
    handler.put("async", false);
    handler.put("command", command);
    handler.put("timeout", timeoutSeconds);
    handler.put("type", "command");
    ObjectNode identity = nodes.objectNode();
    identity.put("event_name", snakeCaseEvent);
    identity.putArray("hooks").add(handler);
    try {
      byte[] canonical = CANONICAL.writeValueAsBytes(identity);
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
    } catch (JacksonException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot hash a hook handler", e);
    }
  }

  /**
   * The key of a handler's trust entry: {@code keyName} is the hooks file as Codex names it, which
   * may differ from where install wrote it.
   */
  public static String key(Path keyName, HookRuntime.Event event, int groupIndex) {
    return keyName + ":" + event.snakeCase() + ":" + groupIndex + ":0";
  }

  /** The table header of a trust entry, the key as a TOML basic string. */
  public static String header(String key) {
    return "[hooks.state.\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
  }

  /**
   * The block of trust entries for turndiff's hooks in {@code hooksFile}, whose group indexes are
   * {@code groupIndexes} (event name to index): for each name of {@code keyNames} (the names Codex
   * knows the file by), one entry per event; each line ends with a newline.
   */
  public static String block(
      Path hooksFile, List<Path> keyNames, String command, Map<String, Integer> groupIndexes) {
    StringBuilder block = new StringBuilder(begin(hooksFile)).append('\n');
    boolean first = true;
    for (Path keyName : keyNames) {
      for (HookRuntime.Event event : HookRuntime.CODEX.events()) {
        if (!first) {
          block.append('\n');
        }
        first = false;
        block
            .append(header(key(keyName, event, groupIndexes.get(event.name()))))
            .append('\n')
            .append("trusted_hash = \"")
            .append(trustedHash(event.snakeCase(), command, event.timeout()))
            .append("\"\n");
      }
    }
    return block.append(END).append('\n').toString();
  }

  /**
   * What goes before the block so that it starts after a blank line: nothing for an empty file or
   * one ending with a blank line, else the missing line ends.
   */
  public static String separator(String text) {
    if (text.isEmpty() || text.endsWith("\n\n")) {
      return "";
    }
    return text.endsWith("\n") ? "\n" : "\n\n";
  }

  /** The first line of the block for {@code hooksFile} (one block per hooks file). */
  public static String begin(Path hooksFile) {
    return BEGIN + hooksFile + BEGIN_END;
  }

  /** The start of turndiff's block for {@code hooksFile} in {@code text}, or -1. */
  public static int blockStart(String text, Path hooksFile) {
    return text.indexOf(begin(hooksFile) + "\n");
  }

  /** The end (after its newline) of the block starting at {@code start}, or -1 when unclosed. */
  public static int blockEnd(String text, int start) {
    return blockEnd(text, start, END);
  }

  /**
   * The end (after its newline) of a marked block starting at {@code start} and closed by the line
   * {@code endLine}, or -1 when unclosed.
   */
  static int blockEnd(String text, int start, String endLine) {
    int end = text.indexOf("\n" + endLine, start);
    if (end < 0) {
      return -1;
    }
    int lineEnd = text.indexOf('\n', end + 1);
    return lineEnd < 0 ? text.length() : lineEnd + 1;
  }
}
