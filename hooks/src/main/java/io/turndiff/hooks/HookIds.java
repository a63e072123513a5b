package io.turndiff.hooks;

import io.turndiff.model.ExternalIds;
import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;

/**
 * turndiff's ids for what a runtime names: {@code <runtime>:<id>} for its sessions and turns, the
 * tool call's own id; an id outside turndiff's id syntax is replaced by {@code sha256-<first 32 hex
 * of its SHA-256>}, so that any runtime id maps to one valid id.
 */
final class HookIds {

  private HookIds() {}

  /** {@code <runtime>:<id>}, the runtime's session or turn id made a turndiff id. */
  static String of(String runtime, String id) {
    String prefixed = runtime + ":" + id;
    return ExternalIds.isValid(prefixed) ? prefixed : runtime + ":" + hashed(id, 32);
  }

  /** A tool call's id: the runtime's when valid, else its hash. */
  static String toolCall(String id) {
    return ExternalIds.isValid(id) ? id : hashed(id, 32);
  }

  /** {@code sha256-} and the first {@code hex} hex digits of the SHA-256 of {@code text}. */
  static String hashed(String text, int hex) {
    return "sha256-" + sha256(text).substring(0, hex);
  }

  /** The lowercase hex SHA-256 of {@code text}'s UTF-8 bytes. */
  static String sha256(String text) {
    return Sha256.of(text.getBytes(StandardCharsets.UTF_8)).hex();
  }
}
