package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Sec-Fetch-Site gate alone: the panel's own page or a typed address, never another site. */
class FetchSiteGateTest {

  private final FetchSiteGate gate = new FetchSiteGate();

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # headers                                                | answer
                                                                   | pass
          Sec-Fetch-Site: same-origin                              | pass
          Sec-Fetch-Site: none                                     | pass
          Sec-Fetch-Site: same-site                                | 403 forbidden_origin
          Sec-Fetch-Site: cross-site                               | 403 forbidden_origin
          Sec-Fetch-Site: Same-Origin                              | 403 forbidden_origin
          Sec-Fetch-Site: same-origin ,, Sec-Fetch-Site: same-origin | 400 bad_request
          """)
  void answers(String headers, String expected) {
    assertEquals(expected, answer(gate, request("GET", "/v1/sessions", headers)));
  }
}
