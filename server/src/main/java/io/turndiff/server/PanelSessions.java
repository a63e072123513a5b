package io.turndiff.server;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The panel's login sessions (docs/review-panel.md, section 4), in memory: the cookie value's
 * SHA-256 mapped to the session's anti-CSRF value and its last use. A session ends after {@link
 * #IDLE} without a request, on logout, and when the service stops.
 */
final class PanelSessions {

  static final Duration IDLE = Duration.ofHours(12);

  /** A login session: the id events use for it (the cookie's hash) and its CSRF value. */
  record Session(String id, String csrf) {}

  /** A new session as the login hands it out: the cookie value and the CSRF value. */
  record Opened(String cookie, String csrf) {}

  private record Entry(String csrf, Instant lastUse) {}

  private final InstantSource clock;
  private final Map<String, Entry> byHash = new HashMap<>();

  PanelSessions(InstantSource clock) {
    this.clock = clock;
  }

  synchronized Opened open() {
    Instant now = clock.instant();
    byHash.values().removeIf(entry -> entry.lastUse().plus(IDLE).isBefore(now));
    String cookie = RandomSecret.next();
    String csrf = RandomSecret.next();
    byHash.put(RandomSecret.hash(cookie), new Entry(csrf, now));
    return new Opened(cookie, csrf);
  }

  /** The live session the cookie names, its last use now; empty for an unknown or idle one. */
  synchronized Optional<Session> use(String cookie) {
    String hash = RandomSecret.hash(cookie);
    Entry entry = byHash.get(hash);
    Instant now = clock.instant();
    if (entry == null) {
      return Optional.empty();
    }
    if (entry.lastUse().plus(IDLE).isBefore(now)) {
      byHash.remove(hash);
      return Optional.empty();
    }
    byHash.put(hash, new Entry(entry.csrf(), now));
    return Optional.of(new Session(hash, entry.csrf()));
  }

  synchronized void end(String sessionId) {
    byHash.remove(sessionId);
  }
}
