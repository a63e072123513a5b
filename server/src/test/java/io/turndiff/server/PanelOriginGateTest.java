package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.InstantSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The panel's origin gate alone: its own origin by any loopback name, or none; nothing else. */
class PanelOriginGateTest {

  private final PanelOriginGate gate =
      new PanelOriginGate(new PanelLogin(GateTables.PORT, InstantSource.system()));

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # headers                         | answer
                                            | pass
          Origin: http://127.0.0.1:7433     | pass
          Origin: http://localhost:7433     | pass
          Origin: http://[::1]:7433         | pass
          Origin: http://127.0.0.1:7434     | 403 forbidden_origin
          Origin: https://127.0.0.1:7433    | 403 forbidden_origin
          Origin: http://127.0.0.1          | 403 forbidden_origin
          Origin: http://allowed.example    | 403 forbidden_origin
          Origin: null                      | 403 forbidden_origin
          """)
  void answers(String headers, String expected) {
    assertEquals(expected, answer(gate, request("GET", "/v1/sessions", headers)));
  }
}
