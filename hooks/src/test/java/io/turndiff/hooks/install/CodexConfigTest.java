package io.turndiff.hooks.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.RequestException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Codex's {@code config.toml} read as a document: a trust entry is found however TOML lets it be
 * written, the block install appends reads back as the entries it means (for every name of the
 * hooks file), and a file Codex could not parse is refused rather than read as one without entries.
 */
class CodexConfigTest {

  private static final Path CONFIG = Path.of("/home/u/.codex/config.toml");
  private static final String COMMAND = "'/opt/turndiff/bin/turndiff-hook' codex";
  private static final String KEY = "/real/ws/.codex/hooks.json:stop:0:0";

  @Test
  void anEntryIsFoundAsATableAsDottedKeysOrInline() {
    for (String text :
        List.of(
            "[hooks.state.\"" + KEY + "\"]\ntrusted_hash = \"sha256:ab\"\n",
            "[hooks.state.'" + KEY + "']\n  trusted_hash='sha256:ab'  # by hand\n",
            "hooks.state.\"" + KEY + "\".trusted_hash = \"sha256:ab\"\n",
            "[hooks]\nstate = { \"" + KEY + "\" = { trusted_hash = \"sha256:ab\" } }\n")) {
      CodexConfig config = CodexConfig.parse(CONFIG, text);
      assertEquals(Optional.of("sha256:ab"), config.trustedHash(KEY), text);
      assertFalse(config.disabled(KEY), text);
    }
  }

  @Test
  void enabledFalseAndFeaturesHooksFalseAreRead() {
    CodexConfig config =
        CodexConfig.parse(
            CONFIG,
            "[features]\nhooks = false\n\n[hooks.state.\""
                + KEY
                + "\"]\nenabled = false\ntrusted_hash = \"sha256:ab\"\n");
    assertTrue(config.disabled(KEY));
    assertTrue(config.hooksTurnedOff());
    assertTrue(config.hasState(KEY));
    assertFalse(config.hasState("/elsewhere/hooks.json:stop:0:0"));
  }

  @Test
  void theBlockInstallWritesReadsBackForEveryName() {
    Path real = Path.of("/real/ws/.codex/hooks.json");
    Path given = Path.of("/link/ws/.codex/hooks.json");
    Map<String, Integer> indexes =
        Map.of(
            "UserPromptSubmit", 0, "PreToolUse", 1, "PostToolUse", 3, "Stop", 0, "SessionEnd", 2);
    String text =
        "model = \"gpt-5\"\n\n"
            + CodexTrust.block(given, List.of(real, given), COMMAND, indexes)
            + "\n[projects.\"/real/ws\"]\ntrust_level = \"trusted\"\n";
    CodexConfig config = CodexConfig.parse(CONFIG, text);
    for (Path name : List.of(real, given)) {
      for (HookRuntime.Event event : HookRuntime.CODEX.events()) {
        String key = CodexTrust.key(name, event, indexes.get(event.name()));
        assertEquals(
            Optional.of(CodexTrust.trustedHash(event.snakeCase(), COMMAND, event.timeout())),
            config.trustedHash(key),
            key);
      }
    }
    assertTrue(config.trustsProject(Path.of("/real/ws")));
    assertFalse(config.trustsProject(Path.of("/link/ws")));
  }

  @Test
  void aFileThatIsNotTomlIsRefusedNamingIt() {
    RequestException refused =
        assertThrows(
            RequestException.class,
            () -> CodexConfig.parse(CONFIG, "[hooks.state.\"" + KEY + "\"\ntrusted_hash = 1\n"));
    assertTrue(
        refused.getMessage().contains(CONFIG + ": it is not valid TOML"), refused.getMessage());
    assertFalse(CodexConfig.parse(CONFIG, "").hasState(KEY));
  }
}
