package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The body limit gate alone: the route's limit goes into the passage, and a body declared over it
 * is 413 before any of it is read; the hook endpoints take the larger of the two limits.
 */
class BodyLimitGateTest {

  @ParameterizedTest(name = "{0} {1} [{2}] -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # service | hooks | target              | headers               | answer
          100       | 1000  | /v1/turns           |                       | pass limit 100
          100       | 1000  | /v1/turns           | Content-Length: 100   | pass limit 100
          100       | 1000  | /v1/turns           | Content-Length: 101   | 413 too_large
          100       | 1000  | /v1/hooks/codex     | Content-Length: 1000  | pass limit 1000
          100       | 1000  | /v1/hooks/codex     | Content-Length: 1001  | 413 too_large
          100       | 1000  | /v1/hooks           | Content-Length: 101   | 413 too_large
          100       | 1000  | /v1/hooksx/codex    | Content-Length: 101   | 413 too_large
          2000      | 1000  | /v1/hooks/codex     | Content-Length: 2000  | pass limit 2000
          2000      | 1000  | /v1/hooks/codex     | Content-Length: 2001  | 413 too_large
          """)
  void answers(int service, int hooks, String target, String headers, String expected) {
    assertEquals(
        expected, answer(new BodyLimitGate(service, hooks), request("POST", target, headers)));
  }

  @Test
  void aDeclaredBodyIsReadAtItsLengthAndNoBodyIsEmpty() throws Exception {
    BodyLimit limit = new BodyLimit(4);
    assertArrayEquals(
        new byte[] {1, 2, 3},
        limit.read(new ByteArrayInputStream(new byte[] {1, 2, 3}), Optional.of(" 3 ")));
    assertArrayEquals(
        new byte[0], limit.read(new ByteArrayInputStream(new byte[0]), Optional.of("0")));
    // a GET: no length declared, no body
    assertArrayEquals(
        new byte[0], limit.read(new ByteArrayInputStream(new byte[0]), Optional.empty()));
    // a length over the limit is refused by the gate before; read here, it is not trusted
    assertThrows(
        ApiError.class,
        () -> limit.read(new ByteArrayInputStream(new byte[] {1, 2, 3, 4, 5}), Optional.of("5")));
    ApiError none =
        assertThrows(
            ApiError.class, () -> new BodyLimit(0).read(new ByteArrayInputStream(new byte[] {1})));
    assertEquals(413, none.status());
  }

  @Test
  void aBodyWithNoLengthIsReadUpToTheLimitAndRefusedPastIt() throws Exception {
    BodyLimit limit = new BodyLimit(4);
    assertArrayEquals(
        new byte[] {1, 2, 3, 4}, limit.read(new ByteArrayInputStream(new byte[] {1, 2, 3, 4})));
    ApiError over =
        assertThrows(
            ApiError.class, () -> limit.read(new ByteArrayInputStream(new byte[] {1, 2, 3, 4, 5})));
    assertEquals(413, over.status());
    assertEquals("the body is over the limit of 4 bytes", over.getMessage());
    ApiError declared =
        assertThrows(
            ApiError.class,
            () -> new BodyLimit(1 << 20).requireDeclaredWithin(Optional.of(" 1048577 ")));
    assertEquals(
        "the body is 1048577 bytes, over the limit of 1048576 bytes (1 MiB)",
        declared.getMessage());
  }
}
