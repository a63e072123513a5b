package io.turndiff.server;

import io.turndiff.api.Json;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.track.TrackingOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** The service's endpoints, each a thin translation between JSON and the library API. */
final class Endpoints {

  private final Turndiff turndiff;
  private final TurnLocks locks = new TurnLocks(256);

  Endpoints(Turndiff turndiff) {
    this.turndiff = turndiff;
  }

  Router router() {
    return new Router()
        .add("GET", "/v1/health", request -> ApiResponse.ok(Json.object().put("ok", true)))
        .add("POST", "/v1/turns", this::beginTurn)
        .add("POST", "/v1/turns/{turn}/snapshots", this::snapshot)
        .add("POST", "/v1/turns/{turn}/finish", this::finishTurn)
        .add("GET", "/v1/turns/{turn}", request -> ApiResponse.ok(Json.turnRecords(
            turndiff.queries().records(request.path("turn")))))
        .add("GET", "/v1/turns/{turn}/patch", request -> ApiResponse.patch(
            turndiff.queries().patch(request.path("turn"), request.queryAll("path"))))
        .add("GET", "/v1/turns/{turn}/file", this::fileDiff)
        .add("GET", "/v1/sessions", this::sessions)
        .add("GET", "/v1/sessions/{session}/turns", request -> ApiResponse.ok(Json.turnPage(turndiff.queries()
            .turns(request.path("session"), request.queryLong("after", 0), (int) request.queryLong("limit", 100)))))
        .add("GET", "/v1/range", request -> ApiResponse.ok(Json.range(
            turndiff.queries().range(request.requireQuery("from"), request.requireQuery("to")))))
        .add("GET", "/v1/range/patch", request -> ApiResponse.patch(
            turndiff.queries().range(request.requireQuery("from"), request.requireQuery("to")).patch()))
        .add("GET", "/v1/history", request -> ApiResponse.ok(Json.history(turndiff.queries().log(
            Path.of(request.requireQuery("workspace")), request.requireQuery("path")))))
        .add("POST", "/v1/rewind", this::rewind)
        .add("POST", "/v1/workspaces/track", this::track)
        .add("GET", "/v1/workspaces/status", request -> ApiResponse.ok(Json.status(
            turndiff.capture().tracker().status(Path.of(request.requireQuery("workspace"))))));
  }

  private ApiResponse beginTurn(ApiRequest request) {
    Path workspace = Path.of(request.requireText("workspace"));
    BeganTurn began = turndiff.capture().beginTurn(workspace, request.text("session"), request.text("turn"));
    return ApiResponse.json(201, Json.beganTurn(began));
  }

  private ApiResponse snapshot(ApiRequest request) {
    String turn = request.path("turn");
    List<String> paths = request.texts("paths");
    List<String> encoded = request.texts("paths_base64");
    List<SnapshotVerdict> verdicts = serialized(turn, () -> {
      if (encoded.isEmpty()) {
        return turndiff.capture().snapshot(turn, request.text("tool_call"), paths);
      }
      List<byte[]> raw = new ArrayList<>();
      paths.forEach(path -> raw.add(path.getBytes(StandardCharsets.UTF_8)));
      for (String value : encoded) {
        try {
          raw.add(Base64.getDecoder().decode(value));
        } catch (IllegalArgumentException e) {
          throw new ApiError(400, "bad_request", "paths_base64 entry '" + value + "' is not base64");
        }
      }
      return turndiff.capture().snapshotBytes(turn, request.text("tool_call"), raw);
    });
    return ApiResponse.ok(Json.verdicts(verdicts));
  }

  private ApiResponse finishTurn(ApiRequest request) {
    String turn = request.path("turn");
    return ApiResponse.ok(Json.summary(serialized(turn, () -> turndiff.capture().finishTurn(turn))));
  }

  private ApiResponse fileDiff(ApiRequest request) {
    String turn = request.path("turn");
    String path = request.requireQuery("path");
    return ApiResponse.ok(Json.object().put("turn", turn).put("path", path)
        .put("diff", turndiff.queries().fileDiff(turn, path)));
  }

  private ApiResponse sessions(ApiRequest request) {
    Path workspace = Path.of(request.requireQuery("workspace"));
    return ApiResponse.ok(Json.sessions(workspace, turndiff.queries().sessions(workspace)));
  }

  private ApiResponse rewind(ApiRequest request) {
    String turn = request.requireText("turn");
    RewindRequest rewind = new RewindRequest(turn, request.flag("to"), request.text("operation"),
        request.flag("dry_run"), request.flag("force"));
    // the operation's id goes out as a header before the first write; the report follows as the body
    RewindReport report = serialized(turn, () -> turndiff.rewind().rewind(rewind, (operation, resumed) ->
        request.sendHeadersNow(Map.of("Turndiff-Operation", operation, "Turndiff-Resumed", String.valueOf(resumed)))));
    return ApiResponse.ok(Json.rewindReport(report));
  }

  private ApiResponse track(ApiRequest request) {
    Path workspace = Path.of(request.requireText("workspace"));
    long maxFiles = request.json().path("max_files").asLong(TrackingOptions.DEFAULTS.maxFiles());
    long maxBytes = request.json().path("max_bytes").asLong(TrackingOptions.DEFAULTS.maxBytes());
    TrackingOptions options;
    try {
      options = new TrackingOptions(maxFiles, maxBytes);
    } catch (IllegalArgumentException e) {
      throw new ApiError(400, "bad_request", e.getMessage());
    }
    return ApiResponse.ok(Json.trackSummary(turndiff.capture().tracker().track(workspace, options)));
  }

  private <T> T serialized(String turn, Supplier<T> work) {
    ReentrantLock lock = locks.of(turn);
    lock.lock();
    try {
      return work.get();
    } finally {
      lock.unlock();
    }
  }
}
