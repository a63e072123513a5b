package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.api.Json;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The panel's session gate alone: this port's cookie naming a live session and that session's CSRF
 * header pass with the session; without the cookie 401, without the header 403.
 */
class PanelSessionGateTest {

  private final PanelLogin login = new PanelLogin(GateTables.PORT, InstantSource.system());
  private final PanelSessionGate gate = new PanelSessionGate(login);
  private final String cookie;
  private final String csrf;

  PanelSessionGateTest() throws Exception {
    String code = login.mint("http://127.0.0.1:7433", Optional.empty()).code();
    ApiResponse loggedIn =
        login.login(
            "application/json", ("{\"code\":\"" + code + "\"}").getBytes(StandardCharsets.UTF_8));
    String setCookie = loggedIn.headers().get("Set-Cookie");
    this.cookie = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    this.csrf = Json.mapper().readTree(loggedIn.body()).get("csrf").asText();
  }

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # headers                                                                   | answer
          Cookie: turndiff_session_7433={cookie} ,, X-Turndiff-CSRF: {csrf}           | pass session
          Cookie: a=1; turndiff_session_7433={cookie}; b=2 ,, X-Turndiff-CSRF: {csrf} | pass session
          Cookie: turndiff_session_7433={cookie} ,, X-Turndiff-CSRF:  {csrf}          | pass session
          Cookie: turndiff_session_7433={cookie}                                      | 403 csrf
          Cookie: turndiff_session_7433={cookie} ,, X-Turndiff-CSRF: {cookie}         | 403 csrf
          Cookie: turndiff_session_7433={cookie} ,, X-Turndiff-CSRF:                  | 403 csrf
          X-Turndiff-CSRF: {csrf}                                                     | 401 unauthorized
          Cookie: turndiff_session_7434={cookie} ,, X-Turndiff-CSRF: {csrf}           | 401 unauthorized
          Cookie: turndiff_session_7433=forged ,, X-Turndiff-CSRF: {csrf}             | 401 unauthorized
          Cookie: turndiff_session_7433= ,, X-Turndiff-CSRF: {csrf}                   | 401 unauthorized
          Authorization: Bearer {cookie} ,, X-Turndiff-CSRF: {csrf}                   | 401 unauthorized
                                                                                      | 401 unauthorized
          """)
  void answers(String headers, String expected) {
    String filled =
        headers == null ? null : headers.replace("{cookie}", cookie).replace("{csrf}", csrf);
    assertEquals(expected, answer(gate, request("GET", "/v1/sessions", filled)));
  }
}
