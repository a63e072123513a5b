package io.turndiff.server;

import io.turndiff.model.PathInput;
import io.turndiff.model.Snapshot;
import io.turndiff.review.ReviewQueries;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * {@code GET /v1/turns/{turn}/file/raw?path=P&side=before|after}: one state a turn recorded of a
 * file, as the image it is, for the review panel's {@code <img>} (docs/http-api.md). Only bytes the
 * store holds are served, never the workspace's file, and only when those bytes are an image by
 * their own first bytes ({@link ImageType}): its content type comes from them, never from the
 * file's name.
 *
 * <p>An SVG may carry scripts. Shown through {@code <img>}, a browser runs none of them; opened on
 * its own in a tab it would, as a document of the service's origin. So every answer here carries
 * its own policy, {@link #CONTENT_SECURITY_POLICY}, in place of the panel's: nothing may load or
 * run, and {@code sandbox} makes the document an opaque origin besides; with {@code nosniff} the
 * browser takes the type as given.
 */
final class StoredImageEndpoint {

  static final String PATH = "/v1/turns/{turn}/file/raw";

  /** The most one state served here may hold: larger images are refused, not streamed. */
  static final long MAX_BYTES = 16L * 1024 * 1024;

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; style-src 'unsafe-inline'; sandbox";

  private static final Pattern RAW_PATH = Pattern.compile("/v1/turns/[^/]+/file/raw");

  private final ReviewQueries queries;

  StoredImageEndpoint(ReviewQueries queries) {
    this.queries = queries;
  }

  /**
   * Whether {@code request} reads a stored image: the one request of the panel that an {@code
   * <img>} makes, which carries the session's cookie but cannot carry its CSRF header ({@link
   * PanelSessionGate}).
   */
  static boolean reads(RequestView request) {
    return request.method().equals("GET") && RAW_PATH.matcher(request.rawPath()).matches();
  }

  ApiResponse handle(ApiRequest request) {
    String turn = request.path("turn");
    String path = request.requireQuery("path");
    ReviewQueries.Side side = side(request.requireQuery("side"));
    Snapshot state = queries.state(turn, PathInput.text(path), side);
    String which = sideName(side) + "-state of '" + path + "' in turn '" + turn + "'";
    if (!(state instanceof Snapshot.RegularFile file)) {
      throw new ApiError(404, "not_stored", "the " + which + " " + whyNoContent(state));
    }
    if (file.stat().size() > MAX_BYTES) {
      throw new ApiError(
          413,
          "too_large",
          "the "
              + which
              + " holds "
              + file.stat().size()
              + " bytes, over the "
              + MAX_BYTES
              + " an image is served with");
    }
    byte[] content = queries.storedContent(state).orElseThrow();
    ImageType type =
        ImageType.of(content)
            .orElseThrow(
                () ->
                    new ApiError(
                        415,
                        "not_an_image",
                        "the " + which + " is not a PNG, JPEG, GIF or SVG image by its content"));
    return new ApiResponse(200, type.contentType(), content)
        .withHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .withHeader("X-Content-Type-Options", "nosniff")
        .withHeader("Content-Disposition", disposition(file));
  }

  private static ReviewQueries.Side side(String given) {
    return switch (given) {
      case "before" -> ReviewQueries.Side.BEFORE;
      case "after" -> ReviewQueries.Side.AFTER;
      default ->
          throw new ApiError(
              400,
              "bad_request",
              "query parameter 'side' must be 'before' or 'after', not '" + given + "'");
    };
  }

  private static String sideName(ReviewQueries.Side side) {
    return side == ReviewQueries.Side.BEFORE ? "before" : "after";
  }

  private static String whyNoContent(Snapshot state) {
    return switch (state) {
      case Snapshot.Absent _ -> "is an absence: the file did not exist";
      case Snapshot.Symlink _ -> "is a symlink: only its text is stored";
      case Snapshot.Directory _ -> "is a directory";
      case Snapshot.MetadataOnly only ->
          "was not captured (" + only.why().code() + "): its content is not stored";
      case Snapshot.RegularFile _ -> throw new IllegalStateException("a stored file has content");
    };
  }

  /**
   * {@code inline} with the file's name: a quoted ASCII form in which anything that could end the
   * quote or the header ({@code "}, {@code \}, control characters) or is not ASCII is {@code _},
   * and the exact name in RFC 8187's {@code filename*}, percent-encoded.
   */
  static String disposition(Snapshot.RegularFile file) {
    String display = file.path().display();
    String name = display.substring(display.lastIndexOf('/') + 1);
    StringBuilder ascii = new StringBuilder();
    name.codePoints()
        .forEach(c -> ascii.append(c < 0x20 || c > 0x7e || c == '"' || c == '\\' ? '_' : (char) c));
    String encoded =
        URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A");
    return "inline; filename=\"" + ascii + "\"; filename*=UTF-8''" + encoded;
  }
}
