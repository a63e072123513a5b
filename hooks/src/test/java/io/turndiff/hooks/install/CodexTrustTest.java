package io.turndiff.hooks.install;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The trust entries install writes into Codex's {@code config.toml}: the hash is the one Codex
 * 0.171.0 computed itself, and the block is the documented one (docs/runtime-hooks.md, "Codex").
 */
class CodexTrustTest {

  private static final String COMMAND = "'/opt/turndiff/bin/turndiff-hook' codex";

  @Test
  void theHashOfAHookIsTheOneCodexComputed() {
    // the research's recording hook: Codex 0.171.0 reported this trusted_hash (hooks/list
    // currentHash) for it, and ran the hook once config.toml held it
    assertEquals(
        "sha256:e69be595dc19e0bcc211e862b1d19cc97edb8fc3e53ed49b8f8851ccb2d74b04",
        CodexTrust.trustedHash(
            "pre_tool_use", "node /tmp/cdx/exp/rec.js PreToolUse /tmp/cdx/exp/log", 10));
  }

  @Test
  void turndiffsHooksHaveTheDocumentedHashes() {
    assertEquals(
        "sha256:d480c880f459ed0549c0c293e91d94c638e2842ba519132a8d6311700f90c2f7",
        CodexTrust.trustedHash("user_prompt_submit", COMMAND, 30));
    assertEquals(
        "sha256:b5642a717c8a74748ae5346dd7f1037be9229175bde2a2629a1af6c3df2ab38e",
        CodexTrust.trustedHash("pre_tool_use", COMMAND, 30));
    assertEquals(
        "sha256:132aee3f87d5db01e46c6308fa5cf1f3b48ef27780bef7b889afbb7f2dc61cdb",
        CodexTrust.trustedHash("post_tool_use", COMMAND, 30));
    assertEquals(
        "sha256:3802e5f560fdfba3b88398a61ff246ecc44ece8efcae699bc378c9065cb4cf1d",
        CodexTrust.trustedHash("stop", COMMAND, 30));
    assertEquals(
        "sha256:7b0c35685f72be5d3589238d6d3e04616e0002ca5822026151655a072e6f2992",
        CodexTrust.trustedHash("session_end", COMMAND, 3));
  }

  @Test
  void theBlockNamesEachHookByFileEventAndIndex() {
    Path hooks = Path.of("/home/u/.codex/hooks.json");
    String block =
        CodexTrust.block(
            hooks,
            List.of(hooks),
            COMMAND,
            Map.of(
                "UserPromptSubmit",
                0,
                "PreToolUse",
                2,
                "PostToolUse",
                0,
                "Stop",
                0,
                "SessionEnd",
                1));
    assertEquals(
        "# >>> turndiff hooks: trust for the hooks `turndiff hooks install` added to"
            + " /home/u/.codex/hooks.json; `turndiff hooks uninstall` removes this block\n"
            + "[hooks.state.\"/home/u/.codex/hooks.json:user_prompt_submit:0:0\"]\n"
            + "trusted_hash = \"sha256:d480c880f459ed0549c0c293e91d94c638e2842ba519132a8d6311700f90c2f7\"\n"
            + "\n"
            + "[hooks.state.\"/home/u/.codex/hooks.json:pre_tool_use:2:0\"]\n"
            + "trusted_hash = \"sha256:b5642a717c8a74748ae5346dd7f1037be9229175bde2a2629a1af6c3df2ab38e\"\n"
            + "\n"
            + "[hooks.state.\"/home/u/.codex/hooks.json:post_tool_use:0:0\"]\n"
            + "trusted_hash = \"sha256:132aee3f87d5db01e46c6308fa5cf1f3b48ef27780bef7b889afbb7f2dc61cdb\"\n"
            + "\n"
            + "[hooks.state.\"/home/u/.codex/hooks.json:stop:0:0\"]\n"
            + "trusted_hash = \"sha256:3802e5f560fdfba3b88398a61ff246ecc44ece8efcae699bc378c9065cb4cf1d\"\n"
            + "\n"
            + "[hooks.state.\"/home/u/.codex/hooks.json:session_end:1:0\"]\n"
            + "trusted_hash = \"sha256:7b0c35685f72be5d3589238d6d3e04616e0002ca5822026151655a072e6f2992\"\n"
            + "# <<< turndiff hooks\n",
        block);
  }

  @Test
  void aKeyWithAQuoteIsATomlBasicString() {
    assertEquals("[hooks.state.\"/a\\\"b\\\\c:stop:0:0\"]", CodexTrust.header("/a\"b\\c:stop:0:0"));
  }

  @Test
  void theBlockStartsAfterABlankLine() {
    assertEquals("", CodexTrust.separator(""));
    assertEquals("", CodexTrust.separator("a = 1\n\n"));
    assertEquals("\n", CodexTrust.separator("a = 1\n"));
    assertEquals("\n\n", CodexTrust.separator("a = 1"));
  }
}
