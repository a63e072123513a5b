package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Host gate alone: this service's loopback names and port pass, any other Host is 403. */
class HostGateTest {

  private final HostGate gate = new HostGate(GateTables.PORT);

  @ParameterizedTest(name = "{0} {1} [{2}] -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # method | target         | headers                                      | answer
          GET      | /v1/sessions   | Host: 127.0.0.1:7433                         | pass
          GET      | /v1/sessions   | Host: localhost:7433                         | pass
          GET      | /v1/sessions   | Host: LocalHost:7433                         | pass
          GET      | /v1/sessions   | Host: [::1]:7433                             | pass
          GET      | /v1/sessions   | host: 127.0.0.1:7433                         | pass
          GET      | /              | Host: 127.0.0.1:7433                         | pass
          GET      | /v1/sessions   | Host: rebound.example:7433                   | 403 forbidden_host
          GET      | /              | Host: rebound.example:7433                   | 403 forbidden_host
          GET      | /v1/sessions   | Host: 127.0.0.1:7434                         | 403 forbidden_host
          GET      | /v1/sessions   | Host: 127.0.0.1                              | 403 forbidden_host
          GET      | /v1/sessions   | Host: 127.0.0.2:7433                         | 403 forbidden_host
          GET      | /v1/sessions   | Host: 127.0.0.1:7433.rebound.example         | 403 forbidden_host
          GET      | /v1/sessions   | Host:                                        | 403 forbidden_host
          GET      | /v1/sessions   |                                              | 403 forbidden_host
          GET      | /v1/sessions   | Host: 127.0.0.1:7433 ,, Host: 127.0.0.1:7433 | 400 bad_request
          GET      | /v1/sessions   | Host: 127.0.0.1:7433 ,, host: evil:7433      | 400 bad_request
          """)
  void answers(String method, String target, String headers, String expected) {
    assertEquals(expected, answer(gate, request(method, target, headers)));
  }
}
