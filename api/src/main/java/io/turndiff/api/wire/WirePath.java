package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.turndiff.model.GivenPath;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * A path on the wire: {@code path} as text, and {@code path_base64} with its raw bytes only when
 * the name is not UTF-8 (the text then shows each such byte as {@code \xNN}, which no client should
 * take for the name). Unwrapped into the object that holds it.
 */
public record WirePath(String path, @JsonInclude(JsonInclude.Include.NON_NULL) String pathBase64) {

  public static WirePath of(WorkspacePath path) {
    return new WirePath(
        path.display(), path.isUtf8() ? null : Base64.getEncoder().encodeToString(path.bytes()));
  }

  /**
   * The raw bytes of a path as a client gave it, in base64, when its text does not say them
   * exactly; else null.
   */
  static String base64Of(GivenPath given) {
    byte[] bytes = given.bytes();
    return Arrays.equals(given.display().getBytes(StandardCharsets.UTF_8), bytes)
        ? null
        : Base64.getEncoder().encodeToString(bytes);
  }

  static String displayOf(Optional<GivenPath> given) {
    return given.map(GivenPath::display).orElse(null);
  }

  static String base64Of(Optional<GivenPath> given) {
    return given.map(WirePath::base64Of).orElse(null);
  }
}
