package io.turndiff.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;

/**
 * One request and its response, the only place that knows Jetty's {@link Request} and {@link
 * Response}: the endpoints, the gates and the event streams are written over this, so the server
 * underneath is a plug (it was the JDK's {@code HttpServer} once).
 *
 * <p>Everything here blocks: requests run on virtual threads, so a blocked write costs a parked
 * virtual thread, not a platform one. The response is sent in one of two ways: whole ({@link
 * #respond}), or its status and headers first ({@link #sendHeaders}) and its body streamed after
 * ({@link #body()}), for a rewind that names its operation before its first write and for the
 * panel's event stream.
 */
final class Exchange {

  private final Request request;
  private final Response response;
  private final boolean overSocket;

  /**
   * @param overSocket the request came on the service's Unix domain socket, whose peer was checked
   */
  Exchange(Request request, Response response, boolean overSocket) {
    this.request = request;
    this.response = response;
    this.overSocket = overSocket;
  }

  boolean overSocket() {
    return overSocket;
  }

  /** The request as the gates see it: the path and query undecoded, the headers as they came. */
  RequestView view() {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (HttpField field : request.getHeaders()) {
      headers.computeIfAbsent(field.getName(), any -> new ArrayList<>()).add(field.getValue());
    }
    return new RequestView(
        request.getMethod(),
        request.getHttpURI().getPath(),
        request.getHttpURI().getQuery(),
        headers,
        () -> Content.Source.asInputStream(request));
  }

  /** The connection this request came on, for the guard that counts and cuts connections. */
  Object connection() {
    return request.getConnectionMetaData().getConnection();
  }

  /** Sends {@code answer} whole: its status, the service's headers and its own, its body. */
  void respond(ApiResponse answer, Map<String, String> headers) throws IOException {
    response.setStatus(answer.status());
    headers.forEach(response.getHeaders()::put);
    answer.headers().forEach(response.getHeaders()::put);
    byte[] body = answer.body();
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    try (Blocker.Callback done = Blocker.callback()) {
      response.write(true, ByteBuffer.wrap(body), done);
      done.block();
    }
  }

  /**
   * Sends {@code status} and {@code headers} now; the body follows through {@link #body()}
   * (chunked, as its length is not known yet).
   */
  void sendHeaders(int status, Map<String, String> headers) throws IOException {
    response.setStatus(status);
    headers.forEach(response.getHeaders()::put);
    try (Blocker.Callback done = Blocker.callback()) {
      response.write(false, null, done);
      done.block();
    }
  }

  /** The body of a response whose headers went out by {@link #sendHeaders}; closing it ends it. */
  OutputStream body() {
    return Content.Sink.asOutputStream(response);
  }
}
