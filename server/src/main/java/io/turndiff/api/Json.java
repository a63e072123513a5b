package io.turndiff.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import io.turndiff.capture.track.PathChange;
import io.turndiff.capture.track.TrackSummary;
import io.turndiff.capture.track.WorkspaceStatus;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Containment;
import io.turndiff.model.GivenPath;
import io.turndiff.model.Presence;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.review.HistoryEntry;
import io.turndiff.review.RangeChange;
import io.turndiff.review.RangeDiff;
import io.turndiff.review.SessionListing;
import io.turndiff.review.TurnPage;
import io.turndiff.review.TurnRecords;
import io.turndiff.rewind.RewindReport;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.TurnListing;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The JSON shapes turndiff prints (and the HTTP service returns). Built explicitly, field by field, so the
 * documented shapes are the code. Non-ASCII is escaped, so the output is ASCII whatever the locale.
 */
public final class Json {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
      .disable(SerializationFeature.INDENT_OUTPUT)
      .build();

  private Json() {
  }

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String write(Object node, boolean pretty) {
    try {
      return pretty ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node)
          : MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  public static ObjectNode object() {
    return NODES.objectNode();
  }

  public static ArrayNode array() {
    return NODES.arrayNode();
  }

  /** A path as {@code path}, plus {@code <field>_base64} with its raw bytes when they are not UTF-8. */
  public static void putPath(ObjectNode node, String field, WorkspacePath path) {
    node.put(field, path.display());
    if (!path.isUtf8()) {
      node.put(field + "_base64", Base64.getEncoder().encodeToString(path.bytes()));
    }
  }

  public static void putGiven(ObjectNode node, String field, Optional<GivenPath> given) {
    if (given.isEmpty()) {
      node.putNull(field);
      return;
    }
    node.put(field, given.get().display());
    String display = given.get().display();
    byte[] bytes = given.get().bytes();
    if (!java.util.Arrays.equals(display.getBytes(java.nio.charset.StandardCharsets.UTF_8), bytes)) {
      node.put(field + "_base64", Base64.getEncoder().encodeToString(bytes));
    }
  }

  public static ObjectNode beganTurn(BeganTurn began) {
    ObjectNode node = object();
    node.put("session", began.session());
    node.put("turn", began.turn());
    node.put("seq", began.seq());
    node.put("workspace", began.workspace().toString());
    node.put("new_session", began.newSession());
    node.put("boundary", began.boundary().code());
    return node;
  }

  /** The state of a path at one moment. */
  public static ObjectNode snapshot(Snapshot snapshot) {
    ObjectNode node = object();
    if (snapshot.presence() == Presence.UNKNOWN) {
      node.putNull("exists");
    } else {
      node.put("exists", snapshot.exists());
    }
    snapshot.type().ifPresentOrElse(type -> node.put("type", type.code()), () -> node.putNull("type"));
    snapshot.metadata().ifPresentOrElse(metadata -> {
      node.put("size", metadata.size());
      node.put("mode", String.format("%04o", metadata.mode()));
      node.put("mtime_ns", metadata.mtimeNanos());
    }, () -> {
      node.putNull("size");
      node.putNull("mode");
      node.putNull("mtime_ns");
    });
    snapshot.sha256().ifPresentOrElse(sha -> node.put("sha256", sha.hex()), () -> node.putNull("sha256"));
    snapshot.sampledSha256().ifPresentOrElse(sample -> node.put("sampled_sha256", sample.hex()),
        () -> node.putNull("sampled_sha256"));
    node.put("captured", snapshot.captured());
    snapshot.reason().ifPresentOrElse(reason -> node.put("reason", reason.code()), () -> node.putNull("reason"));
    if (snapshot.reasonDetail().isEmpty()) {
      node.putNull("detail");
    } else {
      node.put("detail", snapshot.reasonDetail());
    }
    snapshot.linkTarget().ifPresentOrElse(target -> node.put("link_target", target.display()),
        () -> node.putNull("link_target"));
    node.put("fingerprint", snapshot.fingerprint());
    node.put("boundary", snapshot.boundary().code());
    return node;
  }

  /** One path's verdict from a snapshot call. */
  public static ObjectNode verdict(SnapshotVerdict verdict) {
    Snapshot snapshot = verdict.snapshot();
    ObjectNode node = object();
    putGiven(node, "input", Optional.of(verdict.input()));
    putPath(node, "path", snapshot.path());
    putGiven(node, "via", verdict.via());
    node.put("verdict", verdict.verdict().code());
    node.put("containment", snapshot.containment().code());
    node.put("restorable", verdict.restorable());
    node.setAll(snapshot(snapshot));
    return node;
  }

  public static ArrayNode verdicts(List<SnapshotVerdict> verdicts) {
    ArrayNode array = array();
    verdicts.forEach(verdict -> array.add(verdict(verdict)));
    return array;
  }

  public static ObjectNode summary(TurnSummary summary) {
    ObjectNode node = object();
    node.put("turn", summary.turn());
    node.put("session", summary.session());
    node.put("seq", summary.seq());
    node.put("state", summary.state().code());
    node.put("files", summary.files());
    ObjectNode changes = node.putObject("changes");
    for (ChangeKind kind : ChangeKind.values()) {
      changes.put(kind.code(), summary.changes().getOrDefault(kind, 0));
    }
    node.put("lines_added", summary.linesAdded());
    node.put("lines_removed", summary.linesRemoved());
    node.put("not_restorable", summary.notRestorable());
    node.put("detected_by_scan", summary.detectedByScan());
    return node;
  }

  /** A file change as {@code turndiff show} prints it. */
  public static ObjectNode fileChange(StoredFileChange change) {
    ObjectNode node = object();
    putPath(node, "path", change.path());
    putGiven(node, "via", change.via());
    change.change().ifPresentOrElse(kind -> node.put("change", kind.code()), () -> node.putNull("change"));
    change.after().flatMap(after -> ChangeKind.whyUnknown(change.before(), after))
        .ifPresentOrElse(why -> node.put("detail", why), () -> node.putNull("detail"));
    node.put("containment", containment(change).code());
    node.put("restorable", change.restorable());
    node.put("added", change.linesAdded());
    node.put("removed", change.linesRemoved());
    node.put("detected_by", change.detectedBy().code());
    ArrayNode calls = node.putArray("tool_calls");
    change.toolCalls().forEach(calls::add);
    node.set("before", snapshot(change.before()));
    change.after().ifPresentOrElse(after -> node.set("after", snapshot(after)), () -> node.putNull("after"));
    return node;
  }

  /** The containment of a change: the before-state's, unless only the after-state left the workspace. */
  public static Containment containment(StoredFileChange change) {
    Containment before = change.before().containment();
    if (before != Containment.INSIDE) {
      return before;
    }
    return change.after().map(Snapshot::containment).orElse(Containment.INSIDE);
  }

  public static ArrayNode fileChanges(List<StoredFileChange> changes) {
    ArrayNode array = array();
    changes.forEach(change -> array.add(fileChange(change)));
    return array;
  }

  public static ObjectNode turn(StoredTurn turn) {
    ObjectNode node = object();
    node.put("turn", turn.externalId());
    node.put("session", turn.sessionExternalId());
    node.put("seq", turn.seq());
    node.put("kind", turn.kind().code());
    node.put("state", turn.state().code());
    node.put("began_at", turn.beganAt().toString());
    turn.finishedAt().ifPresentOrElse(at -> node.put("finished_at", at.toString()), () -> node.putNull("finished_at"));
    return node;
  }

  public static ObjectNode session(SessionListing listing) {
    ObjectNode node = object();
    node.put("session", listing.session().externalId());
    node.put("created_at", listing.session().createdAt().toString());
    node.put("turns", listing.turns());
    return node;
  }

  public static ObjectNode sessions(Path workspace, List<SessionListing> sessions) {
    ObjectNode node = object();
    node.put("workspace", workspace.toString());
    ArrayNode array = node.putArray("sessions");
    sessions.forEach(listing -> array.add(session(listing)));
    return node;
  }

  /**
   * Every session of a workspace, each with its turns as {@code turns} gives them (the command line's
   * {@code turns} without {@code --session}).
   */
  public static ObjectNode sessionsWithTurns(Path workspace, List<SessionListing> sessions,
                                             Function<SessionListing, TurnPage> turns) {
    ObjectNode node = sessions(workspace, sessions);
    ArrayNode withTurns = node.putArray("sessions");
    for (SessionListing listing : sessions) {
      ObjectNode entry = session(listing);
      entry.setAll(turnPage(turns.apply(listing)));
      withTurns.add(entry);
    }
    return node;
  }

  /** The line {@code turndiff serve} prints once it listens. */
  public static ObjectNode serveStarted(String url, Path tokenFile, Path store, long pid) {
    return object()
        .put("url", url)
        .put("token_file", tokenFile.toString())
        .put("store", store.toString())
        .put("pid", pid);
  }

  /** A turn in a list of turns: the turn with its counts. */
  public static ObjectNode turnListing(TurnListing listing) {
    ObjectNode node = turn(listing.turn());
    node.put("files", listing.files());
    node.put("changed", listing.changed());
    node.put("lines_added", listing.linesAdded());
    node.put("lines_removed", listing.linesRemoved());
    return node;
  }

  public static ObjectNode turnPage(TurnPage page) {
    ObjectNode node = object();
    node.put("session", page.session());
    ArrayNode turns = node.putArray("turns");
    page.turns().forEach(listing -> turns.add(turnListing(listing)));
    page.nextAfter().ifPresentOrElse(after -> node.put("next_after", after), () -> node.putNull("next_after"));
    return node;
  }

  /** A turn with its file records. */
  public static ObjectNode turnRecords(TurnRecords records) {
    ObjectNode node = turn(records.turn());
    node.put("workspace", records.workspaceRoot());
    node.set("files", fileChanges(records.changes()));
    return node;
  }

  public static ObjectNode rangeChange(RangeChange change) {
    ObjectNode node = object();
    putPath(node, "path", change.path());
    node.put("change", change.change().code());
    ChangeKind.whyUnknown(change.before(), change.after())
        .ifPresentOrElse(why -> node.put("detail", why), () -> node.putNull("detail"));
    node.put("containment", change.before().containment() != Containment.INSIDE ? change.before().containment().code()
        : change.after().containment().code());
    node.put("restorable", change.before().captured() && change.change() != ChangeKind.UNKNOWN);
    node.put("added", change.added());
    node.put("removed", change.removed());
    ArrayNode turns = node.putArray("turns");
    change.turns().forEach(turns::add);
    node.set("before", snapshot(change.before()));
    node.set("after", snapshot(change.after()));
    return node;
  }

  public static ObjectNode range(RangeDiff range) {
    ObjectNode node = object();
    node.put("from", range.from().externalId());
    node.put("to", range.to().externalId());
    node.put("session", range.from().sessionExternalId());
    ArrayNode files = node.putArray("files");
    range.changes().forEach(change -> files.add(rangeChange(change)));
    return node;
  }

  public static ArrayNode history(List<HistoryEntry> entries) {
    ArrayNode array = array();
    for (HistoryEntry entry : entries) {
      ObjectNode node = turn(entry.turn());
      node.set("file", fileChange(entry.change()));
      array.add(node);
    }
    return array;
  }

  /** A rewind's report or plan. */
  public static ObjectNode rewindReport(RewindReport report) {
    ObjectNode node = object();
    node.put("operation", report.operation());
    node.put("dry_run", report.dryRun());
    node.put("replayed", report.replayed());
    node.put("complete", report.complete());
    ArrayNode turns = node.putArray("turns");
    report.turns().forEach(turns::add);
    node.set("restored", paths(report.restored()));
    node.set("merged", paths(report.merged()));
    ArrayNode skipped = node.putArray("skipped");
    for (RewindReport.Skipped skip : report.skipped()) {
      ObjectNode entry = skipped.addObject();
      putPath(entry, "path", skip.path());
      entry.put("reason", skip.reason());
      entry.put("detail", skip.detail());
    }
    node.set("unchanged", paths(report.unchanged()));
    node.set("created_directories", paths(report.createdDirectories()));
    node.set("removed_directories", paths(report.removedDirectories()));
    node.set("directory_modes", paths(report.directoryModes()));
    report.rewindTurn().ifPresentOrElse(id -> node.put("rewind_turn", id), () -> node.putNull("rewind_turn"));
    return node;
  }

  private static ArrayNode paths(List<WorkspacePath> paths) {
    ArrayNode array = array();
    paths.forEach(path -> array.add(path.display()));
    return array;
  }

  public static ObjectNode trackSummary(TrackSummary summary) {
    ObjectNode node = object();
    node.put("workspace", summary.workspace());
    node.put("files", summary.files());
    node.put("bytes", summary.bytes());
    node.put("content_read", summary.contentRead());
    node.put("partial", summary.partial());
    ArrayNode leftOut = node.putArray("left_out");
    summary.leftOut().forEach(path -> leftOut.add(path.display()));
    ArrayNode unlisted = node.putArray("unlisted");
    summary.unlisted().forEach(unlisted::add);
    node.put("elapsed_ms", summary.elapsedNanos() / 1e6);
    return node;
  }

  public static ObjectNode status(WorkspaceStatus status) {
    ObjectNode node = object();
    node.put("workspace", status.workspace());
    node.put("partial", status.partial());
    ArrayNode leftOut = node.putArray("left_out");
    status.leftOut().forEach(path -> leftOut.add(path.display()));
    ArrayNode changes = node.putArray("changes");
    for (PathChange change : status.changes()) {
      ObjectNode entry = changes.addObject();
      putPath(entry, "path", change.path());
      entry.put("change", change.kind().code());
      entry.put("status", String.valueOf(change.letter()));
    }
    node.put("elapsed_ms", status.elapsedNanos() / 1e6);
    return node;
  }

  public static ObjectNode error(String code, String message) {
    ObjectNode node = object();
    node.put("error", code);
    node.put("message", message);
    return node;
  }
}
