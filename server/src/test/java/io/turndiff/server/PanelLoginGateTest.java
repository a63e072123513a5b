package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.server.Gate.Verdict;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The panel's login gate alone: {@code POST /v1/login} with a JSON body holding a live code (within
 * the body limit) is answered with a session; every other path passes on.
 */
class PanelLoginGateTest {

  private final PanelLogin login = new PanelLogin(GateTables.PORT, InstantSource.system());
  private final PanelLoginGate gate = new PanelLoginGate(login, new BodyLimit(64));
  private final String code = login.mint("http://127.0.0.1:7433", Optional.empty()).code();

  @ParameterizedTest(name = "{0} {1} [{2}] {3} -> {4}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          # method | target       | headers                                                           | body                  | answer
          POST     | /v1/login    | Content-Type: application/json                                    | {"code":"{code}"}     | 200
          POST     | /v1/login    | Content-Type: application/json; charset=utf-8                     | {"code":"{code}"}     | 200
          POST     | /v1/login    | Content-Type: text/plain                                          | {"code":"{code}"}     | 415 bad_request
          POST     | /v1/login    |                                                                   | {"code":"{code}"}     | 415 bad_request
          POST     | /v1/login    | Content-Type: application/json                                    | {"code":"not-a-code"} | 401 unauthorized
          POST     | /v1/login    | Content-Type: application/json                                    | {}                    | InvalidRequest
          POST     | /v1/login    | Content-Type: application/json ,, Content-Length: 65              | {"code":"{code}"}     | 413 too_large
          POST     | /v1/login    | Content-Type: application/json                                    | {"code":"{code}", "padding":"over sixty-four bytes"} | 413 too_large
          POST     | /v1/login    | Content-Type: application/json ,, Content-Type: application/json | {"code":"{code}"}     | 400 bad_request
          GET      | /v1/login    |                                                                   |                       | 405 method_not_allowed
          POST     | /v1/logout   |                                                                   |                       | pass
          POST     | /v1/login/   | Content-Type: application/json                                    | {"code":"{code}"}     | pass
          """)
  void answers(String method, String target, String headers, String body, String expected) {
    String withCode = body == null ? null : body.replace("{code}", code);
    assertEquals(expected, answer(gate, request(method, target, headers, withCode)));
  }

  @Test
  void theAnswerSetsTheSessionCookieOfThisPortAndTheCodeWorksOnce() throws Exception {
    RequestView request =
        request(
            "POST", "/v1/login", "Content-Type: application/json", "{\"code\":\"" + code + "\"}");
    ApiResponse answer = ((Verdict.Answer) gate.check(request, Passage.START)).response();
    String cookie = answer.headers().get("Set-Cookie");
    assertTrue(cookie.startsWith("turndiff_session_7433="), cookie);
    assertTrue(cookie.contains("; HttpOnly; SameSite=Strict; Path=/"), cookie);
    assertEquals("401 unauthorized", answer(gate, request));
  }
}
