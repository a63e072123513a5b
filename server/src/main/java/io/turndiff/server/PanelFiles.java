package io.turndiff.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The review panel's static files (docs/review-panel.md, section 2): exactly those listed in {@code
 * io/turndiff/panel/panel-files.json} on the class path, read once at start-up with their content
 * type and sha256. A request never looks anything up on the class path or the disk, so {@code ..}
 * and encoded tricks find nothing; {@code /} is the index, and {@code /index.html} itself is not
 * served under its own name.
 */
final class PanelFiles {

  private static final String ROOT = "io/turndiff/panel";
  private static final String INDEX = "/index.html";

  /** One served file: its bytes, content type and ETag. */
  record PanelFile(byte[] bytes, String type, String etag) {}

  private final Map<String, PanelFile> files;

  private PanelFiles(Map<String, PanelFile> files) {
    this.files = Map.copyOf(files);
  }

  /** No panel (a server built without the panel module): every static path is {@code 404}. */
  static PanelFiles none() {
    return new PanelFiles(Map.of());
  }

  /**
   * The files listed on the class path of {@code loader}; none when there is no list. A listed file
   * that is missing or whose size or sha256 differs from the list stops the start (a broken jar).
   */
  static PanelFiles load(ClassLoader loader) {
    try (InputStream list = loader.getResourceAsStream(ROOT + "/panel-files.json")) {
      if (list == null) {
        return none();
      }
      Map<String, PanelFile> files = new HashMap<>();
      for (JsonNode entry : Json.mapper().readTree(list).path("files")) {
        String path = entry.path("path").asText();
        if (!path.startsWith("/") || path.contains("..")) {
          throw new IllegalStateException("panel-files.json lists a bad path: " + path);
        }
        byte[] bytes;
        try (InputStream in = loader.getResourceAsStream(ROOT + path)) {
          if (in == null) {
            throw new IllegalStateException("panel-files.json lists " + path + ", not in the jar");
          }
          bytes = in.readAllBytes();
        }
        String sha256 =
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        if (bytes.length != entry.path("bytes").asLong()
            || !sha256.equals(entry.path("sha256").asText())) {
          throw new IllegalStateException(
              "the panel's " + path + " differs from its entry in panel-files.json");
        }
        files.put(path, new PanelFile(bytes, entry.path("type").asText(), "\"" + sha256 + "\""));
      }
      return new PanelFiles(files);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the panel's files", e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The file served at {@code rawPath} (as the request line has it, undecoded), if any. */
  Optional<PanelFile> find(String rawPath) {
    if (rawPath.equals(INDEX)) {
      return Optional.empty();
    }
    return Optional.ofNullable(files.get(rawPath.equals("/") ? INDEX : rawPath));
  }
}
