package io.turndiff.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code GET /v1/events} (docs/review-panel.md, section 6): Server-Sent Events telling the panel
 * what changed, each sent after the transaction it reports committed. Each stream holds one virtual
 * thread blocked on its own queue; at most {@link #PER_SESSION} per login session (a new one closes
 * the oldest) and {@link #MAX_STREAMS} in all; a stream that falls {@link #BACKLOG} events behind
 * is closed (the page reconnects and reloads). {@link #close()} ends every stream, so a shutdown
 * does not wait on them.
 */
final class PanelEvents implements AutoCloseable {

  static final int PER_SESSION = 8;
  static final int MAX_STREAMS = 64;
  static final int BACKLOG = 1024;
  static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
  static final String CONTENT_TYPE = "text/event-stream; charset=utf-8";

  /** Which events a stream wants: one session's, one workspace's, or (both null) all. */
  record Scope(String session, String workspace) {
    boolean admits(Event event) {
      return (session == null || session.equals(event.session()))
          && (workspace == null || workspace.equals(event.workspace()));
    }
  }

  /** One event; {@code name} empty marks the end of a stream. */
  record Event(long id, String name, String session, String workspace, String data) {}

  private static final Event END = new Event(0, "", "", "", "");

  private static final class Stream {
    final Scope scope;
    final String loginSession;
    final BlockingQueue<Event> queue = new ArrayBlockingQueue<>(BACKLOG + 1);

    Stream(Scope scope, String loginSession) {
      this.scope = scope;
      this.loginSession = loginSession;
    }

    void end() {
      queue.clear();
      queue.offer(END);
    }
  }

  private final List<Stream> streams = new ArrayList<>();
  private final AtomicLong ids = new AtomicLong();
  private boolean closed;
  private Instant lastStreamEnded = Instant.now();

  /** True while a stream is open: events cost a query only then. */
  synchronized boolean watched() {
    return !streams.isEmpty();
  }

  /**
   * Sends {@code data} (with {@code session} and {@code workspace} added) to every stream in scope.
   */
  void publish(String name, String session, String workspace, ObjectNode data) {
    data.put("session", session);
    data.put("workspace", workspace);
    Event event =
        new Event(ids.incrementAndGet(), name, session, workspace, Json.write(data, false));
    synchronized (this) {
      for (Stream stream : streams) {
        if (stream.scope.admits(event) && !stream.queue.offer(event)) {
          stream.end();
        }
      }
    }
  }

  /**
   * Sends {@code data} to every stream, whatever its scope: for a change whose session and
   * workspace the service does not know (another process's commit, {@link ForeignCommits}).
   */
  void broadcast(String name, ObjectNode data) {
    Event event = new Event(ids.incrementAndGet(), name, null, null, Json.write(data, false));
    synchronized (this) {
      for (Stream stream : streams) {
        if (!stream.queue.offer(event)) {
          stream.end();
        }
      }
    }
  }

  /**
   * Serves one stream on {@code exchange}, with {@code headers}, until the client leaves, a newer
   * stream of the same login replaces it, or the service stops.
   */
  void serve(Exchange exchange, Map<String, String> headers, Scope scope, String loginSession) {
    Stream stream = new Stream(scope, loginSession);
    register(stream);
    try {
      exchange.sendHeaders(200, headers);
      pump(exchange.body(), stream, scope);
    } catch (IOException clientGone) {
      // the page left or reloads; it reconnects by itself
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    } finally {
      unregister(stream);
    }
  }

  /** Writes the stream's greeting, then its events and keep-alives until it ends. */
  private static void pump(OutputStream out, Stream stream, Scope scope)
      throws IOException, InterruptedException {
    try (out) {
      ObjectNode hello = Json.object();
      if (scope.session() != null) {
        hello.put("session", scope.session());
      }
      if (scope.workspace() != null) {
        hello.put("workspace", scope.workspace());
      }
      hello.put("server_time", Instant.now().toString());
      write(out, "retry: 3000\nevent: hello\ndata: " + Json.write(hello, false) + "\n\n");
      while (true) {
        Event event = stream.queue.poll(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
          write(out, ": keep-alive\n\n");
        } else if (event.name().isEmpty()) {
          return;
        } else {
          write(
              out,
              "id: "
                  + event.id()
                  + "\nevent: "
                  + event.name()
                  + "\ndata: "
                  + event.data()
                  + "\n\n");
        }
      }
    }
  }

  private synchronized void register(Stream stream) {
    if (closed) {
      throw new ApiError(503, "stopping", "the service is stopping");
    }
    List<Stream> same =
        streams.stream().filter(open -> open.loginSession.equals(stream.loginSession)).toList();
    if (same.size() >= PER_SESSION) {
      same.getFirst().end();
      streams.remove(same.getFirst());
    }
    if (streams.size() >= MAX_STREAMS) {
      throw new ApiError(
          503, "too_many_streams", "at most " + MAX_STREAMS + " event streams are open at once");
    }
    streams.add(stream);
  }

  private synchronized void unregister(Stream stream) {
    streams.remove(stream);
    lastStreamEnded = Instant.now();
  }

  /** When the last stream ended; the start of the service when none has been open. */
  synchronized Instant lastStreamEnded() {
    return lastStreamEnded;
  }

  /** Ends the streams of a login session that ended (logout). */
  synchronized void endSession(String loginSession) {
    streams.removeIf(
        stream -> {
          boolean ends = stream.loginSession.equals(loginSession);
          if (ends) {
            stream.end();
          }
          return ends;
        });
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Ends every stream and accepts no new one. */
  @Override
  public synchronized void close() {
    closed = true;
    streams.forEach(Stream::end);
    streams.clear();
  }
}
