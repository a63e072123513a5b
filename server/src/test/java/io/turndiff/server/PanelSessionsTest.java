package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The panel's login sessions on a clock the test moves: 12 hours idle end one, any use renews it.
 */
class PanelSessionsTest {

  private Instant now = Instant.parse("2026-11-30T16:00:00Z");
  private final PanelSessions sessions = new PanelSessions(() -> now);

  @Test
  void aSessionLivesWhileUsedAndEndsAfterTwelveIdleHoursOrOnLogout() {
    PanelSessions.Opened opened = sessions.open();
    assertEquals(opened.csrf(), sessions.use(opened.cookie()).orElseThrow().csrf());
    now = now.plus(PanelSessions.IDLE);
    PanelSessions.Session session = sessions.use(opened.cookie()).orElseThrow();
    now = now.plus(PanelSessions.IDLE).plus(Duration.ofMillis(1));
    assertTrue(sessions.use(opened.cookie()).isEmpty(), "idle past its limit");

    PanelSessions.Opened other = sessions.open();
    sessions.end(sessions.use(other.cookie()).orElseThrow().id());
    assertTrue(sessions.use(other.cookie()).isEmpty(), "logged out");
    assertTrue(sessions.use(session.id()).isEmpty(), "the id (a hash) is not a cookie");
  }
}
