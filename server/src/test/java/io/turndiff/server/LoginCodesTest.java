package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one-time login codes on a clock the test moves: once, for 120 seconds, 16 unused at most. */
class LoginCodesTest {

  private Instant now = Instant.parse("2026-11-30T16:00:00Z");
  private final LoginCodes codes = new LoginCodes(() -> now);

  @Test
  void aCodeWorksOnce() {
    String code = codes.mint().code();
    assertTrue(codes.redeem(code));
    assertFalse(codes.redeem(code), "used");
    assertFalse(codes.redeem(code + "x"), "unknown");
  }

  @Test
  void aCodeWorksUntilItsLifetimeEndsAndNotAfter() {
    String early = codes.mint().code();
    String late = codes.mint().code();
    now = now.plus(LoginCodes.LIFETIME).minusMillis(1);
    assertTrue(codes.redeem(early));
    now = now.plusMillis(1);
    assertFalse(codes.redeem(late), "expired");
  }

  @Test
  void atMostSixteenUnusedCodesLiveAndTheOldestGoesFirst() {
    List<String> minted = new ArrayList<>();
    for (int i = 0; i <= LoginCodes.MAX_UNUSED; i++) {
      minted.add(codes.mint().code());
    }
    assertFalse(codes.redeem(minted.getFirst()), "the oldest made room for the seventeenth");
    for (String code : minted.subList(1, minted.size())) {
      assertTrue(codes.redeem(code));
    }
  }
}
