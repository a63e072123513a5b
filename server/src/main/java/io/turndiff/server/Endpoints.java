package io.turndiff.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.BeginTurnRequest;
import io.turndiff.api.FinishTurnRequest;
import io.turndiff.api.Json;
import io.turndiff.api.LoginCodeRequest;
import io.turndiff.api.RewindTurnRequest;
import io.turndiff.api.SnapshotRequest;
import io.turndiff.api.TrackRequest;
import io.turndiff.api.TurnEvents;
import io.turndiff.api.TurnLocks;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireBeganTurn;
import io.turndiff.api.wire.WireBlame;
import io.turndiff.api.wire.WireFileDiff;
import io.turndiff.api.wire.WireFileRecord;
import io.turndiff.api.wire.WireHealth;
import io.turndiff.api.wire.WireHistoryEntry;
import io.turndiff.api.wire.WireRange;
import io.turndiff.api.wire.WireRangeFileDiff;
import io.turndiff.api.wire.WireRewindReport;
import io.turndiff.api.wire.WireSessions;
import io.turndiff.api.wire.WireStatus;
import io.turndiff.api.wire.WireTrackSummary;
import io.turndiff.api.wire.WireTurn;
import io.turndiff.api.wire.WireTurnPage;
import io.turndiff.api.wire.WireTurnRecords;
import io.turndiff.api.wire.WireTurnSummary;
import io.turndiff.api.wire.WireVerdict;
import io.turndiff.api.wire.WireWorkspaces;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import io.turndiff.capture.track.TrackSummary;
import io.turndiff.diff.DiffOptions;
import io.turndiff.hooks.GoneRuntimes;
import io.turndiff.hooks.HookCounters;
import io.turndiff.hooks.HookOutcome;
import io.turndiff.hooks.HookQuery;
import io.turndiff.hooks.HookSightings;
import io.turndiff.model.PathInput;
import io.turndiff.model.WorkspacePath;
import io.turndiff.review.PathRecords;
import io.turndiff.review.ReviewQueries;
import io.turndiff.review.TurnRecords;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The service's endpoints, each a thin translation between JSON and the library API. Every body is
 * bound to its record ({@code io.turndiff.api}) and every workspace a client names is parsed and
 * checked against the workspace policy before anything else happens.
 */
final class Endpoints implements TurnEvents {

  /** The event stream, which {@link HttpService} serves itself (it holds the connection open). */
  static final String EVENTS = "/v1/events";

  private final Turndiff turndiff;
  private final TurnLocks locks = new TurnLocks(256);
  private final PanelEvents events;
  private final PanelLogin login;
  private final String baseUrl;
  private final HookEndpoints hooks;

  Endpoints(Turndiff turndiff, PanelEvents events, PanelLogin login, String baseUrl) {
    this.turndiff = turndiff;
    this.events = events;
    this.login = login;
    this.baseUrl = baseUrl;
    this.hooks = new HookEndpoints(turndiff, this::namedWorkspace, this);
  }

  Router router() {
    return new Router()
        .add("GET", "/v1/health", request -> ApiResponse.ok(WireHealth.OK))
        .add("POST", "/v1/turns", this::beginTurn)
        .add("POST", "/v1/turns/{turn}/snapshots", this::snapshot)
        .add("POST", "/v1/turns/{turn}/finish", this::finishTurn)
        .add(
            "GET",
            "/v1/turns/{turn}",
            request ->
                ApiResponse.ok(WireTurnRecords.read(turndiff.queries(), request.path("turn"))))
        .add(
            "GET",
            "/v1/turns/{turn}/patch",
            Set.of("path"),
            request ->
                ApiResponse.patch(
                    turndiff
                        .queries()
                        .patch(request.path("turn"), PathInput.texts(request.queryAll("path")))))
        .add(
            "GET", "/v1/turns/{turn}/file", Set.of("path", "whitespace", "context"), this::fileDiff)
        .add(
            "GET",
            StoredImageEndpoint.PATH,
            Set.of("path", "side"),
            new StoredImageEndpoint(turndiff.queries())::handle)
        .add("GET", "/v1/workspaces", this::workspaces)
        .add("GET", "/v1/sessions", Set.of("workspace"), this::sessions)
        .add(
            "GET",
            "/v1/sessions/{session}/turns",
            Set.of("after", "limit"),
            request ->
                ApiResponse.ok(
                    WireTurnPage.of(
                        turndiff
                            .queries()
                            .turns(
                                request.path("session"),
                                request.queryLong("after", 0, 0, Long.MAX_VALUE),
                                (int) request.queryLong("limit", 100, 1, ReviewQueries.MAX_PAGE)))))
        .add(
            "GET",
            "/v1/range",
            Set.of("from", "to"),
            request ->
                ApiResponse.ok(
                    WireRange.of(
                        turndiff
                            .queries()
                            .range(request.requireQuery("from"), request.requireQuery("to")))))
        .add(
            "GET",
            "/v1/range/patch",
            Set.of("from", "to"),
            request ->
                ApiResponse.patch(
                    turndiff
                        .queries()
                        .range(request.requireQuery("from"), request.requireQuery("to"))
                        .patch()))
        .add(
            "GET",
            "/v1/range/file",
            Set.of("from", "to", "path", "whitespace", "context"),
            this::rangeFileDiff)
        .add(
            "GET",
            "/v1/history",
            Set.of("workspace", "path"),
            request ->
                ApiResponse.ok(
                    WireHistoryEntry.of(
                        turndiff
                            .queries()
                            .log(
                                namedWorkspace(request.requireQuery("workspace")),
                                PathInput.text(request.requireQuery("path"))))))
        .add(
            "GET",
            "/v1/blame",
            Set.of("workspace", "path"),
            request ->
                ApiResponse.ok(
                    WireBlame.of(
                        turndiff.blame(
                            namedWorkspace(request.requireQuery("workspace")),
                            PathInput.text(request.requireQuery("path"))))))
        .add("POST", "/v1/rewind", this::rewind)
        .add("POST", "/v1/workspaces/track", this::track)
        .add(
            "GET",
            "/v1/workspaces/status",
            Set.of("workspace"),
            request ->
                ApiResponse.ok(
                    WireStatus.of(
                        turndiff.status(namedWorkspace(request.requireQuery("workspace"))))))
        .add("POST", HookEndpoints.PATH, HookEndpoints.query(), hooks::handle)
        .add("POST", "/v1/login-codes", this::loginCode)
        .add("POST", "/v1/logout", request -> login.logout(loggedOut(request)))
        .add(
            "GET",
            EVENTS,
            Set.of("session", "workspace"),
            request -> {
              throw new IllegalStateException("the event stream is served by HttpService");
            });
  }

  private PanelSessions.Session loggedOut(ApiRequest request) {
    PanelSessions.Session session = request.requirePanel("/v1/logout");
    events.endSession(session.id());
    return session;
  }

  /** A hook call kept in the hook script's spool since {@code spooledAt}, acted on late. */
  HookOutcome receiveLateHook(String runtime, byte[] body, HookQuery query, Instant spooledAt) {
    return hooks.receiveLate(runtime, body, query, spooledAt);
  }

  /** What the hook endpoints did since the service started. */
  HookCounters hookCounters() {
    return hooks.counters();
  }

  /** What the hook calls showed of each runtime, kept across restarts. */
  HookSightings hookSightings() {
    return hooks.sightings();
  }

  /** The open turns whose runtime is gone, and their finish. */
  GoneRuntimes goneRuntimes() {
    return hooks.goneRuntimes();
  }

  private ApiResponse loginCode(ApiRequest request) {
    request.requireBearer("/v1/login-codes");
    LoginCodeRequest body = request.body(LoginCodeRequest.class);
    Optional<Path> workspace = body.workspaceGiven().map(this::namedWorkspace);
    return ApiResponse.json(201, login.mint(baseUrl, workspace));
  }

  /**
   * A workspace a client named: a path without NUL, not empty, and within the allowed directories.
   */
  Path namedWorkspace(String given) {
    Path workspace = WorkspacePolicy.parse(given);
    turndiff.workspacePolicy().admitNamed(workspace);
    return workspace;
  }

  private ApiResponse beginTurn(ApiRequest request) {
    BeginTurnRequest begin = request.body(BeginTurnRequest.class);
    BeganTurn began =
        turndiff
            .capture()
            .beginTurn(namedWorkspace(begin.workspace()), begin.sessionId(), begin.turnId());
    began(began);
    return ApiResponse.json(201, WireBeganTurn.of(began));
  }

  /** {@code turn_begun}, to the panel's event streams. */
  @Override
  public void began(BeganTurn began) {
    if (events.watched()) {
      TurnRecords records = turndiff.queries().records(began.turn());
      ObjectNode data = Json.mapper().valueToTree(WireTurn.of(records.turn()));
      data.put("new_session", began.newSession());
      events.publish("turn_begun", began.session(), records.workspaceRoot(), data);
    }
  }

  private ApiResponse snapshot(ApiRequest request) {
    String turn = request.path("turn");
    SnapshotRequest snapshot = request.body(SnapshotRequest.class);
    List<SnapshotVerdict> verdicts =
        serialized(
            turn,
            () ->
                turndiff
                    .capture()
                    .snapshot(turn, snapshot.toolCallId(), snapshot.toolName(), snapshot.inputs()));
    snapshotted(turn, verdicts);
    return ApiResponse.ok(WireVerdict.of(verdicts));
  }

  @Override
  public void snapshotted(String turn, List<SnapshotVerdict> verdicts) {
    if (events.watched()) {
      publishSnapshotted(turn, verdicts);
    }
  }

  private ApiResponse finishTurn(ApiRequest request) {
    String turn = request.path("turn");
    request.body(FinishTurnRequest.class);
    TurnSummary finished = serialized(turn, () -> turndiff.capture().finishTurn(turn));
    finished(turn, finished);
    return ApiResponse.ok(WireTurnSummary.of(finished));
  }

  /** {@code turn_finished}, to the panel's event streams. */
  @Override
  public void finished(String turn, TurnSummary finished) {
    if (events.watched()) {
      WireTurnSummary summary = WireTurnSummary.of(finished);
      TurnRecords records = turndiff.queries().records(turn);
      ObjectNode data = Json.mapper().valueToTree(summary);
      WireTurn wire = WireTurn.of(records.turn());
      data.put("began_at", wire.beganAt());
      data.put("finished_at", wire.finishedAt());
      events.publish("turn_finished", summary.session(), records.workspaceRoot(), data);
    }
  }

  /** {@code file_snapshotted}: the records of the paths this call recorded first, if any. */
  private void publishSnapshotted(String turn, List<SnapshotVerdict> verdicts) {
    Set<WorkspacePath> recorded = new HashSet<>();
    for (SnapshotVerdict verdict : verdicts) {
      if (verdict.verdict() != SnapshotVerdict.Verdict.ALREADY_RECORDED) {
        recorded.add(verdict.snapshot().path());
      }
    }
    if (recorded.isEmpty()) {
      return;
    }
    PathRecords records = turndiff.queries().recordsAt(turn, recorded);
    ArrayNode files = Json.array();
    for (WireFileRecord file : WireFileRecord.of(records.changes())) {
      files.add(Json.mapper().<ObjectNode>valueToTree(file));
    }
    ObjectNode data = Json.object().put("turn", turn);
    data.set("files", files);
    events.publish(
        "file_snapshotted", records.turn().sessionExternalId(), records.workspaceRoot(), data);
  }

  private ApiResponse fileDiff(ApiRequest request) {
    String turn = request.path("turn");
    String path = request.requireQuery("path");
    return ApiResponse.ok(
        new WireFileDiff(
            turn,
            path,
            turndiff.queries().fileDiff(turn, PathInput.text(path), diffOptions(request))));
  }

  /**
   * How a reader asked a file's diff to be drawn: {@code whitespace=show} (the default) or {@code
   * ignore} ({@code git diff -w}), and {@code context=N} lines around each hunk, 0 to {@link
   * DiffOptions#MAX_CONTEXT} (the whole file), 3 by default. Anything else is bad input, named.
   */
  private static DiffOptions diffOptions(ApiRequest request) {
    String whitespace = request.query("whitespace").orElse("show");
    if (!whitespace.equals("show") && !whitespace.equals("ignore")) {
      throw new ApiError(
          400,
          "bad_request",
          "query parameter 'whitespace' must be 'show' or 'ignore', not '" + whitespace + "'");
    }
    long context =
        request.queryLong("context", DiffOptions.DEFAULT.context(), 0, DiffOptions.MAX_CONTEXT);
    return new DiffOptions(whitespace.equals("ignore"), (int) context);
  }

  /**
   * Every workspace with recorded turns; with {@code --allow-workspace}, only those the service may
   * name.
   */
  private ApiResponse workspaces(ApiRequest request) {
    return ApiResponse.ok(
        WireWorkspaces.of(
            turndiff.queries().workspaces().stream()
                .filter(
                    listing -> turndiff.workspacePolicy().admitsNamed(Path.of(listing.rootReal())))
                .toList()));
  }

  private ApiResponse rangeFileDiff(ApiRequest request) {
    String from = request.requireQuery("from");
    String to = request.requireQuery("to");
    String path = request.requireQuery("path");
    return ApiResponse.ok(
        new WireRangeFileDiff(
            from,
            to,
            path,
            turndiff
                .queries()
                .rangeFileDiff(from, to, PathInput.text(path), diffOptions(request))));
  }

  private ApiResponse sessions(ApiRequest request) {
    Path workspace = namedWorkspace(request.requireQuery("workspace"));
    return ApiResponse.ok(WireSessions.of(workspace, turndiff.queries().sessions(workspace)));
  }

  private ApiResponse rewind(ApiRequest request) {
    RewindTurnRequest body = request.body(RewindTurnRequest.class);
    RewindRequest rewind =
        new RewindRequest(
            body.turn(),
            body.to(),
            body.operationId(),
            body.dryRun(),
            body.force(),
            body.inputs(),
            body.beforeToolCallId(),
            body.hunkNumber());
    // the operation's id goes out as a header before the first write; the report follows as the
    // body
    RewindReport report =
        serialized(
            body.turn(),
            () ->
                turndiff
                    .rewind()
                    .rewind(
                        rewind,
                        (operation, resumed) ->
                            request.sendHeadersNow(
                                Map.of(
                                    "Turndiff-Operation",
                                    operation,
                                    "Turndiff-Resumed",
                                    String.valueOf(resumed)))));
    if (!report.dryRun() && !report.turns().isEmpty() && events.watched()) {
      TurnRecords rewound = turndiff.queries().records(report.turns().getFirst());
      ObjectNode data =
          Json.object()
              .put("operation", report.operation())
              .put("rewind_turn", report.rewindTurn().orElse(null))
              .put("complete", report.complete());
      ArrayNode turns = data.putArray("turns");
      report.turns().forEach(turns::add);
      if (report.paths().isEmpty()) {
        data.putNull("paths");
      } else {
        ArrayNode paths = data.putArray("paths");
        report.paths().stream().map(WorkspacePath::display).forEach(paths::add);
      }
      events.publish(
          "rewind_done", rewound.turn().sessionExternalId(), rewound.workspaceRoot(), data);
    }
    // the caller has its answer without waiting for the disk: the syncfs and the synced mark are
    // made on the rewind's own thread (the receipt says in_place meanwhile)
    turndiff.rewind().makeDurableLater(report);
    return ApiResponse.ok(WireRewindReport.of(report));
  }

  private ApiResponse track(ApiRequest request) {
    TrackRequest track = request.body(TrackRequest.class);
    Path workspace = namedWorkspace(track.workspace());
    TrackSummary summary = turndiff.track(workspace, track.options());
    tracked(summary);
    return ApiResponse.ok(WireTrackSummary.of(summary));
  }

  @Override
  public void tracked(TrackSummary summary) {
    ServiceHeap.afterTrack(summary);
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
