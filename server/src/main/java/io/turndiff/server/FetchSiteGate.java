package io.turndiff.server;

import java.util.Optional;

/**
 * A browser says in {@code Sec-Fetch-Site} whose page sent a request: the panel's session may be
 * used by its own page ({@code same-origin}) or by the user typing the address ({@code none}),
 * never by another site's page, even one that sends no {@code Origin}. A request without the header
 * (not a browser's, or an old one) passes; the CSRF header stops it later.
 */
final class FetchSiteGate implements Gate {

  @Override
  public Verdict check(RequestView request, Passage passage) {
    Optional<String> fetchSite = request.header("Sec-Fetch-Site");
    if (fetchSite.isPresent()
        && !fetchSite.get().equals("same-origin")
        && !fetchSite.get().equals("none")) {
      throw new ApiError(
          403,
          "forbidden_origin",
          "a " + fetchSite.get() + " request cannot use the panel's session");
    }
    return new Verdict.Pass(passage);
  }
}
