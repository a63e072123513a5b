package io.turndiff.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class Sha256Test {

  private static final String EMPTY =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  @Test
  void theDigestOfContentIsItsLowerCaseHex() {
    assertEquals(EMPTY, Sha256.of(new byte[0]).hex());
    assertEquals(
        "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
        Sha256.of("hello".getBytes(StandardCharsets.UTF_8)).hex());
    assertEquals(EMPTY, new Sha256(EMPTY).toString());
  }

  @Test
  void onlySixtyFourLowerCaseHexDigitsAreADigest() {
    for (String notOne :
        new String[] {
          "",
          EMPTY.substring(1),
          EMPTY + "0",
          EMPTY.toUpperCase(Locale.ROOT),
          EMPTY.substring(1) + "g",
          EMPTY.substring(1) + "/",
          EMPTY.substring(1) + ":",
          EMPTY.substring(1) + "`",
          // an Arabic-Indic digit is a digit to Character.isDigit, not a hex digit
          EMPTY.substring(1) + "\u0661",
          " " + EMPTY.substring(1),
        }) {
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> new Sha256(notOne), notOne);
      assertEquals("not a SHA-256 in lower-case hex: " + notOne, refused.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> new Sha256(null));
  }
}
