package io.turndiff.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Keeps strangers on the TCP port from taking the places of the service's own clients. A connection
 * is a stranger until a request on it shows a credential — the token or the panel's session cookie
 * ({@link Passage#credentialed()}); then it is known. A stranger is closed when {@code deadline}
 * has passed since it opened, and at most {@code maxStrangers} are held at once: one more closes
 * the oldest. So a local user who opens hundreds of connections and sends nothing (or trickles a
 * byte at a time) holds a bounded few for a few seconds each, and the slots of the connection limit
 * stay free for the clients that have the token.
 *
 * <p>A request needs no credential to be served — the panel's static files and its login come
 * before the cookie exists, and the daemon's identity challenge comes before the token is trusted —
 * but such requests do not make their connection known: a browser opens another after the cut, as
 * it does after any closed keep-alive connection.
 *
 * <p>The counts are what {@code service status} shows: connections that became known, strangers cut
 * (at the deadline or to make room), and the TCP connections open now and the most open at once
 * since the start. The last is the connection limit seen from inside: Jetty's limit counts the
 * connections it has accepted and not yet closed, so the most this guard sees open can never pass
 * it, and a user who wonders whether a flood reached the limit reads it here.
 */
final class ConnectionGuard implements Connection.Listener {

  private final Duration deadline;
  private final int maxStrangers;
  private final Scheduler scheduler;
  private final Set<Connection> strangers = new LinkedHashSet<>();
  private final Set<Connection> known = Collections.newSetFromMap(new IdentityHashMap<>());
  private final AtomicLong admitted = new AtomicLong();
  private final AtomicLong cut = new AtomicLong();
  private int open;
  private int mostOpen;

  ConnectionGuard(Duration deadline, int maxStrangers, Scheduler scheduler) {
    if (maxStrangers < 1) {
      throw new IllegalArgumentException("at least one stranger is let in, not " + maxStrangers);
    }
    this.deadline = deadline;
    this.maxStrangers = maxStrangers;
    this.scheduler = scheduler;
  }

  /**
   * The connections known since the start, the strangers cut, the TCP connections open now and the
   * most open at once since the start.
   */
  record Counts(long admitted, long cut, int open, int mostOpen) {}

  @Override
  public void onOpened(Connection connection) {
    List<Connection> evicted = new ArrayList<>();
    synchronized (this) {
      open++;
      mostOpen = Math.max(mostOpen, open);
      strangers.add(connection);
      while (strangers.size() > maxStrangers) {
        Connection oldest = strangers.iterator().next();
        strangers.remove(oldest);
        evicted.add(oldest);
      }
    }
    evicted.forEach(this::cut);
    scheduler.schedule(() -> cutIfStranger(connection), deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void onClosed(Connection connection) {
    synchronized (this) {
      open--;
      strangers.remove(connection);
      known.remove(connection);
    }
  }

  /**
   * The connection a request came on showed a credential: it is known from now on, and no longer
   * cut at the deadline. Anything but one of this guard's connections (the Unix socket's, which its
   * file mode and the peer's credentials admit) is left alone.
   */
  void admit(Object connection) {
    boolean first;
    synchronized (this) {
      first = connection instanceof Connection c && strangers.remove(c) && known.add(c);
    }
    if (first) {
      admitted.incrementAndGet();
    }
  }

  synchronized Counts counts() {
    return new Counts(admitted.get(), cut.get(), open, mostOpen);
  }

  private void cutIfStranger(Connection connection) {
    boolean stranger;
    synchronized (this) {
      stranger = strangers.remove(connection);
    }
    if (stranger) {
      cut(connection);
    }
  }

  private void cut(Connection connection) {
    cut.incrementAndGet();
    connection.getEndPoint().close();
  }
}
