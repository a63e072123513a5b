package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request body of {@code POST /v1/commands} as the command client writes it: NUL-terminated
 * {@code name=value} fields, arguments kept in order and as given (spaces, quotes, an {@code =}, an
 * empty one), and every malformed body refused with a 400 naming what is wrong.
 */
class CommandEndpointTest {

  private static byte[] body(String... fields) {
    StringBuilder text = new StringBuilder();
    for (String field : fields) {
      text.append(field).append('\0');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theFieldsAreTheInvocation() {
    OneShotCommands.Invocation invocation =
        CommandEndpoint.invocation(
            body(
                "cwd=/home/a/ws",
                "store=/home/a/.local/share/turndiff/turndiff.db",
                "tty=1",
                "env=TERM=xterm-256color",
                "env=NO_COLOR=",
                "arg=log",
                "arg=a file = with 'quotes'",
                "arg=",
                "arg=--json"));
    assertEquals(Path.of("/home/a/ws"), invocation.workingDirectory());
    assertEquals(Path.of("/home/a/.local/share/turndiff/turndiff.db"), invocation.store());
    assertTrue(invocation.terminal());
    assertEquals(Map.of("TERM", "xterm-256color", "NO_COLOR", ""), invocation.environment());
    assertEquals(List.of("log", "a file = with 'quotes'", "", "--json"), invocation.arguments());
    assertFalse(CommandEndpoint.invocation(body("cwd=/", "store=/s.db", "tty=0")).terminal());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "store=/s.db|tty=0",
        "cwd=ws|store=/s.db|tty=0",
        "cwd=/|store=/s.db|tty=yes",
        "cwd=/|store=/s.db",
        "cwd=/|cwd=/x|store=/s.db|tty=0",
        "cwd=/|store=/s.db|tty=0|env=NOVALUE",
        "cwd=/|store=/s.db|tty=0|arg",
        "cwd=/|store=/s.db|tty=0|shell=rm"
      })
  void aMalformedBodyIsA400(String fields) {
    ApiError refused =
        assertThrows(ApiError.class, () -> CommandEndpoint.invocation(body(fields.split("\\|"))));
    assertEquals(400, refused.status());
  }

  @Test
  void aLastFieldWithoutItsNulIsRefused() {
    byte[] cut = "cwd=/\0store=/s.db\0tty=0\0arg=turns".getBytes(StandardCharsets.UTF_8);
    assertEquals(400, assertThrows(ApiError.class, () -> CommandEndpoint.invocation(cut)).status());
  }
}
