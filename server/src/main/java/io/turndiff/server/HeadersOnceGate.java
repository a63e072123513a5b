package io.turndiff.server;

import java.util.List;

/**
 * The headers that say who a request is from and where it comes from ({@code Origin}, {@code
 * Authorization}, {@code Cookie}, the panel's CSRF header) must each come at most once: with two, a
 * gate and the endpoint behind it could read different ones. Refused before the panel's files too,
 * as the Host is.
 */
final class HeadersOnceGate implements Gate {

  private static final List<String> CREDENTIALS =
      List.of("Origin", "Authorization", "Cookie", PanelLogin.CSRF_HEADER);

  @Override
  public Verdict check(RequestView request, Passage passage) {
    // each read refuses a header given twice
    CREDENTIALS.forEach(request::header);
    return new Verdict.Pass(passage);
  }
}
