package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The CORS gate of bearer calls alone: no Origin passes as it is, an allowed one passes with CORS
 * (its preflight answered here, 204), any other is 403, the service's own origin included.
 */
class CorsGateTest {

  private final CorsGate gate = new CorsGate(Set.of("http://allowed.example"));

  @ParameterizedTest(name = "{0} [{1}] -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # method | headers                        | answer
          GET      |                                | pass
          OPTIONS  |                                | pass
          GET      | Origin: http://allowed.example | pass cors http://allowed.example
          POST     | Origin: http://allowed.example | pass cors http://allowed.example
          OPTIONS  | Origin: http://allowed.example | 204 cors http://allowed.example
          GET      | Origin: http://evil.example    | 403 forbidden_origin
          OPTIONS  | Origin: http://evil.example    | 403 forbidden_origin
          GET      | Origin: http://127.0.0.1:7433  | 403 forbidden_origin
          GET      | Origin: null                   | 403 forbidden_origin
          GET      | Origin: HTTP://ALLOWED.EXAMPLE | 403 forbidden_origin
          """)
  void answers(String method, String headers, String expected) {
    assertEquals(expected, answer(gate, request(method, "/v1/turns", headers)));
  }
}
