package io.turndiff.server;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One-time login codes (docs/review-panel.md, section 4): each good once and for {@link #LIFETIME},
 * kept in memory as its SHA-256 only, at most {@link #MAX_UNUSED} unused at a time (the oldest goes
 * first). An unknown, used and expired code look the same from outside.
 */
final class LoginCodes {

  static final Duration LIFETIME = Duration.ofSeconds(120);
  static final int MAX_UNUSED = 16;

  /** A fresh code and when it stops working. */
  record Minted(String code, Instant expiresAt) {}

  private final InstantSource clock;
  private final Map<String, Instant> expiryByHash = new LinkedHashMap<>();

  LoginCodes(InstantSource clock) {
    this.clock = clock;
  }

  synchronized Minted mint() {
    dropExpired();
    while (expiryByHash.size() >= MAX_UNUSED) {
      Iterator<String> oldest = expiryByHash.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
    String code = RandomSecret.next();
    Instant expiresAt = clock.instant().plus(LIFETIME);
    expiryByHash.put(RandomSecret.hash(code), expiresAt);
    return new Minted(code, expiresAt);
  }

  /** True once for a code minted here and not expired; the code is gone afterwards either way. */
  synchronized boolean redeem(String code) {
    Instant expiresAt = expiryByHash.remove(RandomSecret.hash(code));
    return expiresAt != null && clock.instant().isBefore(expiresAt);
  }

  private void dropExpired() {
    Instant now = clock.instant();
    expiryByHash.values().removeIf(expiry -> !now.isBefore(expiry));
  }
}
