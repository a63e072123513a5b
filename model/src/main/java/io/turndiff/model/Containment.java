package io.turndiff.model;

/** Where the bytes behind a recorded path live, as far as the boundary could tell. */
public enum Containment {
  INSIDE("inside"),
  ESCAPED("escaped"),
  OUTSIDE("outside"),
  HARDLINKED("hardlinked"),
  SPECIAL("special");

  private final String code;

  Containment(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }
}
