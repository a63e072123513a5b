package io.turndiff.server;

import java.io.IOException;

/**
 * One check a request passes on its way to an endpoint, with one job (the Host, CORS, the token,
 * ...). A gate passes the request on with what it found out added to the {@link Passage}, answers
 * it itself (a CORS preflight, a panel file, the login), or refuses it by throwing {@link
 * ApiError}. The gates know the request only as a {@link RequestView}, never the server underneath,
 * and run in the order {@link SecurityGates} gives them.
 */
@FunctionalInterface
interface Gate {

  Verdict check(RequestView request, Passage passage) throws IOException;

  /** This gate for the requests of {@code caller} only; the others pass it unchanged. */
  default Gate onlyFor(Caller caller) {
    return (request, passage) ->
        Caller.of(request) == caller ? check(request, passage) : new Verdict.Pass(passage);
  }

  /** What a gate, or the row of them, made of a request. */
  sealed interface Verdict {

    /** On to the next gate (after the last: the endpoint) with what is known now. */
    record Pass(Passage passage) implements Verdict {}

    /** The gate answers the request itself; no gate after it runs. */
    record Answer(ApiResponse response, Passage passage) implements Verdict {}

    /**
     * The request stops here: refused ({@link ApiError}) or failed on the way; answered as an
     * endpoint's error would be, with what {@code passage} allowed (the CORS headers of a bearer
     * call whose token is wrong).
     */
    record Stop(Exception cause, Passage passage) implements Verdict {}
  }

  /** Who a request says it comes from, by the credentials it carries. */
  enum Caller {
    /**
     * A runtime or a script with the bearer token: a request with an {@code Authorization} header,
     * and a CORS preflight ({@code OPTIONS} with an {@code Origin}), which a browser sends without
     * one before a bearer call from an allowed origin.
     */
    BEARER,
    /** The review panel's page: every other request, with its login cookie and CSRF header. */
    PANEL;

    static Caller of(RequestView request) {
      boolean preflight =
          request.method().equals("OPTIONS") && request.header("Origin").isPresent();
      return request.header("Authorization").isPresent() || preflight ? BEARER : PANEL;
    }
  }
}
