package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gate of the headers given once alone: Origin, Authorization, Cookie and the CSRF header twice
 * (in any case) are 400; other headers may repeat.
 */
class HeadersOnceGateTest {

  private final HeadersOnceGate gate = new HeadersOnceGate();

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # headers                                                          | answer
                                                                             | pass
          Origin: http://a.example ,, Authorization: Bearer t ,, Cookie: c=1 | pass
          X-Turndiff-CSRF: x                                                 | pass
          Accept: text/html ,, Accept: application/json                      | pass
          Origin: http://a.example ,, Origin: http://a.example               | 400 bad_request
          Authorization: Bearer t ,, Authorization: Bearer u                 | 400 bad_request
          Authorization: Bearer t ,, authorization: Bearer t                 | 400 bad_request
          Cookie: a=1 ,, Cookie: b=2                                         | 400 bad_request
          X-Turndiff-CSRF: x ,, x-turndiff-csrf: y                           | 400 bad_request
          """)
  void answers(String headers, String expected) {
    assertEquals(expected, answer(gate, request("GET", "/v1/sessions", headers)));
  }
}
