package io.turndiff.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One Claude Code prompt whose Write carries about 60 MiB of content, as three hook payload files:
 * its {@code UserPromptSubmit}, the {@code PreToolUse} of a Write of {@code big.txt} (the content
 * streamed into the file, never held whole), and its {@code Stop}; session {@code s-big}, prompt
 * {@code p-big}, tool call {@code toolu_big}. A body over the JSON parser's 20,000,000-character
 * string cap (issue 21 item 5), for the tests of what delivers it: the script, the hook client.
 */
record BigWritePrompt(Path prompt, Path write, Path stop) {

  /** The three payloads, written into {@code folder}, for a prompt in {@code workspace}. */
  static BigWritePrompt writtenInto(Path folder, Path workspace) throws IOException {
    String head =
        "{\"session_id\":\"s-big\",\"prompt_id\":\"p-big\",\"cwd\":\"" + workspace + "\",";
    Path prompt = folder.resolve("prompt.json");
    Files.writeString(prompt, head + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"go\"}");
    Path write = folder.resolve("write.json");
    try (var out = Files.newBufferedWriter(write, StandardCharsets.UTF_8)) {
      out.write(head + "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",");
      out.write("\"tool_input\":{\"content\":\"");
      String line = "0123456789abcdef ".repeat(60) + "\\n";
      for (long written = 0; written < (60L << 20); written += line.length()) {
        out.write(line);
      }
      out.write(
          "\",\"file_path\":\""
              + workspace.resolve("big.txt")
              + "\"},\"tool_use_id\":\"toolu_big\"}");
    }
    Path stop = folder.resolve("stop.json");
    Files.writeString(stop, head + "\"hook_event_name\":\"Stop\"}");
    return new BigWritePrompt(prompt, write, stop);
  }
}
