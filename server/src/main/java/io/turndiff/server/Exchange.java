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
import org.eclipse.jetty.util.Callback;

/**
 * One request and its response, the only place that knows Jetty's {@link Request} and {@link
 * Response}: the endpoints, the gates and the event streams are written over this, so the server
 * underneath is a plug (it was the JDK's {@code HttpServer} once).
 *
 * <p>Everything here blocks. A request runs on the server's thread that read it, which it holds
 * until it is answered; a response that lasts (the panel's event stream) goes on on a virtual
 * thread of its own ({@link #detach}), where a blocked write costs a parked virtual thread, not one
 * of the server's. The response is sent in one of two ways: whole ({@link #respond}), or its status
 * and headers first ({@link #sendHeaders}) and its body streamed after ({@link #body()}), for a
 * rewind that names its operation before its first write and for the panel's event stream.
 */
final class Exchange {

  private final Request request;
  private final Response response;
  private final Callback done;
  private final boolean overSocket;
  private boolean detached;

  /**
   * @param done completed when the exchange ends: by {@link #handled}, or, once detached, when its
   *     virtual thread's work returns
   * @param overSocket the request came on the service's Unix domain socket, whose peer was checked
   */
  Exchange(Request request, Response response, Callback done, boolean overSocket) {
    this.request = request;
    this.response = response;
    this.done = done;
    this.overSocket = overSocket;
  }

  /**
   * Goes on with {@code work} on a virtual thread of its own and returns at once: for a response
   * that lasts and would otherwise hold one of the server's threads for as long (the panel's event
   * stream, open for as long as the page is). The exchange ends when {@code work} returns or
   * throws; it must not throw to answer (a refusal is sent before detaching).
   */
  void detach(Runnable work) {
    detached = true;
    Thread.ofVirtual()
        .name("turndiff-stream")
        .start(
            () -> {
              try {
                work.run();
              } finally {
                done.succeeded();
              }
            });
  }

  /** The service is done with the request on the server's thread: it ends, unless it detached. */
  void handled() {
    if (!detached) {
      done.succeeded();
    }
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
