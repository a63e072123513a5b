package io.turndiff.server;

import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gates in their row: which one answers when several would (the Host before everything, the
 * credentials before the body's size, the panel's files before any credential), that a refusal
 * after the CORS gate carries its CORS origin, and that a request every gate passes comes out with
 * its route's body limit.
 */
class SecurityGatesTest {

  private static final String TOKEN = "token-0123456789abcdef";

  private final SecurityGates gates =
      SecurityGates.of(
          GateTables.PORT,
          TOKEN.getBytes(StandardCharsets.UTF_8),
          Set.of("http://allowed.example"),
          1000,
          5000,
          PanelFiles.load(SecurityGatesTest.class.getClassLoader()),
          new PanelLogin(GateTables.PORT, InstantSource.system()),
          Optional.of(nonce -> ApiResponse.ok(Map.of("proof", nonce))));

  @ParameterizedTest(name = "{0} {1} [{2}] -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # method | target            | headers                                                                                    | answer
          GET      | /v1/sessions      | Host: evil.example:7433 ,, Authorization: Bearer token-0123456789abcdef                    | 403 forbidden_host
          GET      | /                 | Host: evil.example:7433                                                                    | 403 forbidden_host
          GET      | /                 | Host: evil.example:7433 ,, Cookie: a=1 ,, Cookie: b=2                                      | 403 forbidden_host
          GET      | /                 | Host: 127.0.0.1:7433 ,, Cookie: a=1 ,, Cookie: b=2                                         | 400 bad_request
          GET      | /                 | Host: 127.0.0.1:7433                                                                       | 200
          GET      | /                 | Host: 127.0.0.1:7433 ,, Origin: http://evil.example ,, Sec-Fetch-Site: cross-site          | 200
          GET      | /v1/health?challenge=0123456789abcdef0123456789abcdef | Host: 127.0.0.1:7433                   | 200
          GET      | /v1/health        | Host: 127.0.0.1:7433                                                                       | 401 unauthorized
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Authorization: Bearer token-0123456789abcdef                       | pass limit 1000
          POST     | /v1/hooks/codex   | Host: 127.0.0.1:7433 ,, Authorization: Bearer token-0123456789abcdef ,, Content-Length: 5000 | pass limit 5000
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Authorization: Bearer token-0123456789abcdef ,, Origin: http://allowed.example | pass cors http://allowed.example limit 1000
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Authorization: Bearer wrong ,, Origin: http://allowed.example      | 401 unauthorized cors http://allowed.example
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Authorization: Bearer wrong ,, Origin: http://evil.example         | 403 forbidden_origin
          OPTIONS  | /v1/turns         | Host: 127.0.0.1:7433 ,, Origin: http://allowed.example                                     | 204 cors http://allowed.example
          OPTIONS  | /v1/turns         | Host: 127.0.0.1:7433 ,, Origin: http://127.0.0.1:7433                                      | 403 forbidden_origin
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Origin: http://allowed.example                                     | 403 forbidden_origin
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Origin: http://127.0.0.1:7433                                      | 401 unauthorized
          GET      | /v1/sessions      | Host: 127.0.0.1:7433 ,, Sec-Fetch-Site: cross-site ,, Cookie: turndiff_session_7433=x      | 403 forbidden_origin
          POST     | /v1/turns         | Host: 127.0.0.1:7433 ,, Content-Length: 1000000                                            | 401 unauthorized
          POST     | /v1/turns         | Host: 127.0.0.1:7433 ,, Authorization: Bearer token-0123456789abcdef ,, Content-Length: 1001 | 413 too_large
          POST     | /v1/turns         | Host: 127.0.0.1:7433 ,, Authorization: Bearer wrong ,, Content-Length: 1000000              | 401 unauthorized
          POST     | /v1/login         | Host: 127.0.0.1:7433 ,, Authorization: Bearer token-0123456789abcdef                       | pass limit 1000
          GET      | /v1/login         | Host: 127.0.0.1:7433                                                                       | 405 method_not_allowed
          POST     | /v1/login         | Host: 127.0.0.1:7433 ,, Origin: http://allowed.example ,, Content-Type: application/json   | 403 forbidden_origin
          """)
  void answers(String method, String target, String headers, String expected) {
    assertEquals(expected, GateTables.answer(gates, request(method, target, headers)));
  }
}
