package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The bearer token gate alone: the scheme in any case, this token and no other. */
class BearerTokenGateTest {

  private final BearerTokenGate gate =
      new BearerTokenGate("token-0123456789abcdef".getBytes(StandardCharsets.UTF_8));

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # headers                                              | answer
          Authorization: Bearer token-0123456789abcdef           | pass
          Authorization: bearer token-0123456789abcdef           | pass
          Authorization: BEARER   token-0123456789abcdef         | pass
          Authorization: Bearer token-0123456789abcdeF           | 401 unauthorized
          Authorization: Bearer token-0123456789abcde            | 401 unauthorized
          Authorization: Bearer token-0123456789abcdef extra     | 401 unauthorized
          Authorization: Bearer                                  | 401 unauthorized
          Authorization: Basic dG9rZW46MDEyMzQ1Njc4OWFiY2RlZg==  | 401 unauthorized
          Authorization: token-0123456789abcdef                  | 401 unauthorized
          Authorization:                                         | 401 unauthorized
                                                                 | 401 unauthorized
          Cookie: turndiff_session_7433=token-0123456789abcdef   | 401 unauthorized
          """)
  void answers(String headers, String expected) {
    assertEquals(expected, answer(gate, request("GET", "/v1/sessions", headers)));
  }
}
