package io.turndiff.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads {@code turndiff doctor --json}'s checks by name in tests. */
final class DoctorVerdicts {

  private DoctorVerdicts() {}

  /** The check called {@code name}; fails the test when there is none. */
  static JsonNode named(JsonNode checks, String name) {
    for (JsonNode check : checks) {
      if (check.get("name").asText().equals(name)) {
        return check;
      }
    }
    throw new AssertionError("no check " + name + " in " + checks);
  }
}
