package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The identity challenge gate alone: a daemon answers a well-formed challenge, alone, on {@code GET
 * /v1/health}, from no origin or an allowed one; everything else passes on to need the token, and a
 * service that is not a daemon answers none.
 */
class HealthChallengeGateTest {

  private static final String NONCE = "0123456789abcdef0123456789abcdef";

  private final HealthChallengeGate daemon =
      new HealthChallengeGate(
          Set.of("http://allowed.example"),
          Optional.of(nonce -> ApiResponse.ok(Map.of("proof", nonce))));
  private final HealthChallengeGate notADaemon =
      new HealthChallengeGate(Set.of("http://allowed.example"), Optional.empty());

  @ParameterizedTest(name = "{0} {1} [{2}] -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # method | target                                                    | headers                        | daemon               | not a daemon
          GET      | /v1/health?challenge=0123456789abcdef0123456789abcdef     |                                | 200                  | pass
          GET      | /v1/health?challenge=0123456789abcdef0123456789abcdef     | Origin: http://allowed.example | 200                  | pass
          GET      | /v1/health?challenge=0123456789abcdef0123456789abcdef     | Origin: http://evil.example    | 403 forbidden_origin | pass
          GET      | /v1/health?challenge=0123456789ABCDEF0123456789ABCDEF     |                                | 400 bad_request      | pass
          GET      | /v1/health?challenge=0123456789abcdef                     |                                | 400 bad_request      | pass
          GET      | /v1/health?challenge=                                     |                                | 400 bad_request      | pass
          GET      | /v1/health?challenge=0123456789abcdef0123456789abcdef&challenge=0123456789abcdef0123456789abcdef | | 400 bad_request | pass
          GET      | /v1/health?challenge=0123456789abcdef0123456789abcdef&x=1 |                                | 400 bad_request      | pass
          GET      | /v1/health                                                |                                | pass                 | pass
          GET      | /v1/health?x=1                                            |                                | pass                 | pass
          POST     | /v1/health?challenge=0123456789abcdef0123456789abcdef     |                                | pass                 | pass
          GET      | /v1/sessions?challenge=0123456789abcdef0123456789abcdef   |                                | pass                 | pass
          """)
  void answers(String method, String target, String headers, String asDaemon, String asNotADaemon) {
    assertEquals(asDaemon, answer(daemon, request(method, target, headers)));
    assertEquals(asNotADaemon, answer(notADaemon, request(method, target, headers)));
  }
}
