package io.turndiff.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Answers every request outside {@code /v1/} from the panel's static files ({@link PanelFiles}):
 * {@code GET} or {@code HEAD}, {@code 304} for the file's ETag, else {@code 404} or {@code 405}.
 * The files hold no data, so no credential is asked for; the gates before this one (the Host, the
 * headers given once) still keep DNS rebinding out. Requests to {@code /v1/} pass on.
 */
final class PanelFilesGate implements Gate {

  private static final byte[] NO_BODY = new byte[0];

  private final PanelFiles panel;

  PanelFilesGate(PanelFiles panel) {
    this.panel = panel;
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    if (request.rawPath().startsWith("/v1/")) {
      return new Verdict.Pass(passage);
    }
    return new Verdict.Answer(file(request), passage);
  }

  private ApiResponse file(RequestView request) {
    Optional<String> ifNoneMatch = request.header("If-None-Match");
    String method = request.method();
    String rawPath = request.rawPath();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      return ApiResponse.error(405, "method_not_allowed", method + " is not allowed on " + rawPath);
    }
    Optional<PanelFiles.PanelFile> found = panel.find(rawPath);
    if (found.isEmpty()) {
      return ApiResponse.error(404, "not_found", "nothing at " + rawPath);
    }
    PanelFiles.PanelFile file = found.get();
    // unlike the API's answers (no-store), a file may be kept and asked for again by its ETag
    Map<String, String> headers = new HashMap<>();
    headers.put("Cache-Control", "no-cache");
    headers.put("ETag", file.etag());
    if (ifNoneMatch.filter(file.etag()::equals).isPresent()) {
      return new ApiResponse(304, file.type(), NO_BODY, Map.copyOf(headers));
    }
    if (method.equals("HEAD")) {
      // the length of what a GET would send, and no body
      headers.put("Content-Length", Integer.toString(file.bytes().length));
      return new ApiResponse(200, file.type(), NO_BODY, Map.copyOf(headers));
    }
    return new ApiResponse(200, file.type(), file.bytes(), Map.copyOf(headers));
  }
}
