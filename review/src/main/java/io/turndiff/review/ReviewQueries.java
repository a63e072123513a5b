package io.turndiff.review;

import io.turndiff.diff.DiffOptions;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.diff.Rename;
import io.turndiff.diff.RenameDetection;
import io.turndiff.model.BadPathException;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.PathInput;
import io.turndiff.model.PathParser;
import io.turndiff.model.PrintableBytes;
import io.turndiff.model.RequestException;
import io.turndiff.model.RootNames;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import io.turndiff.store.TurnListing;
import io.turndiff.store.WorkspaceListing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the review panel asks: the workspaces, the sessions of a workspace, the turns of a session,
 * a turn's records, a file's diff, a turn or a stretch of turns as a patch (or one file of it), and
 * a path's history. Every answer comes from the store; nothing is read from a workspace at query
 * time.
 */
public final class ReviewQueries {

  public static final int MAX_PAGE = 500;

  private final Store store;
  private final PendingDiffs pending;
  private final GitPatchWriter summary = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);

  public ReviewQueries(Store store) {
    this(store, new PendingDiffs());
  }

  /**
   * Queries that compute a line diff still pending on the spot with {@code pending} (the one the
   * background stores).
   */
  public ReviewQueries(Store store, PendingDiffs pending) {
    this.store = store;
    this.pending = pending;
  }

  // ---- workspaces, sessions, turns

  /**
   * The workspace a runtime named, matched by the root as given or its real path as stored: every
   * machine's workspace at that path (a query reads the whole fleet's), oldest first.
   */
  static List<StoredWorkspace> workspace(StoreTransaction tx, Path workspace) {
    Path absolute = workspace.toAbsolutePath().normalize();
    List<StoredWorkspace> found = tx.workspaces().everyHostAtRealRoot(absolute.toString());
    if (found.isEmpty()) {
      found = tx.workspaces().byGivenRoot(absolute.toString()).stream().toList();
    }
    if (found.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE, "workspace " + workspace + " has no recorded turns");
    }
    return found;
  }

  public List<WorkspaceListing> workspaces() {
    return store.read(tx -> tx.workspaces().listing());
  }

  public List<SessionListing> sessions(Path workspace) {
    return store.read(
        tx -> {
          List<StoredSession> every = new ArrayList<>();
          for (StoredWorkspace found : workspace(tx, workspace)) {
            every.addAll(tx.sessions().ofWorkspace(found.id()));
          }
          every.sort(Comparator.comparingLong(StoredSession::id));
          List<SessionListing> sessions = new ArrayList<>();
          for (StoredSession session : every) {
            List<StoredTurn> turns = tx.turns().ofSession(session.id());
            Optional<Instant> last =
                turns.isEmpty() ? Optional.empty() : Optional.of(turns.getLast().beganAt());
            sessions.add(new SessionListing(session, turns.size(), last));
          }
          return sessions;
        });
  }

  /** Up to {@code limit} turns of {@code session} numbered after {@code afterSeq}. */
  public TurnPage turns(String session, long afterSeq, int limit) {
    ExternalIds.requireValid("session", session);
    requirePageLimit(limit);
    TurnPage read =
        store.read(
            tx -> {
              StoredSession found =
                  tx.sessions()
                      .byExternalId(session)
                      .orElseThrow(
                          () ->
                              new RequestException(
                                  RequestException.Problem.UNKNOWN_SESSION,
                                  "session '" + session + "' does not exist"));
              List<TurnListing> page = tx.turns().listing(found.id(), afterSeq, limit + 1);
              Optional<Long> next = Optional.empty();
              if (page.size() > limit) {
                page = page.subList(0, limit);
                next = Optional.of(page.getLast().turn().seq());
              }
              page = withPendingLines(tx, page);
              List<Long> ids = page.stream().map(listing -> listing.turn().id()).toList();
              Map<Long, TurnRewinds> rewinds = rewindsOf(tx, ids);
              Map<Long, String> prompts = tx.prompts().of(ids);
              List<ListedTurn> turns =
                  page.stream()
                      .map(
                          listing ->
                              new ListedTurn(
                                  listing,
                                  rewinds.getOrDefault(listing.turn().id(), TurnRewinds.NONE),
                                  overlapping(tx, listing.turn()),
                                  Optional.ofNullable(prompts.get(listing.turn().id()))
                                      .map(PromptTitle::of)))
                      .toList();
              String root = tx.workspaces().byId(found.workspaceId()).orElseThrow().rootReal();
              return new TurnPage(session, root, turns, next);
            });
    return new TurnPage(
        read.session(),
        read.workspace(),
        read.turns().stream().map(this::withRenamesCounted).toList(),
        read.nextAfter());
  }

  /**
   * {@code listed} counted as {@code show} counts its turn, each rename as {@code git diff -M
   * --stat} counts it: one changed file with the rename's own lines, where the records are a
   * deleted file and an added one with every line of each. Without this the list said "3 files +3
   * -7" of a turn whose {@code show} says "2 files changed, 0 insertions(+), 4 deletions(-)". A
   * rename is found only among a finished turn's deleted and added paths ({@link #renames}), so an
   * open turn or one with a single change is returned as it is, its records unread.
   */
  private ListedTurn withRenamesCounted(ListedTurn listed) {
    TurnListing listing = listed.listing();
    if (listing.turn().finishedAt().isEmpty() || listing.changed() < 2) {
      return listed;
    }
    TurnRecords records = records(listing.turn().externalId());
    List<Rename> renames = renames(records);
    if (renames.isEmpty()) {
      return listed;
    }
    long added = listing.linesAdded();
    long removed = listing.linesRemoved();
    for (Rename rename : renames) {
      StoredFileChange from = recordOf(records.changes(), rename.from());
      StoredFileChange to = recordOf(records.changes(), rename.to());
      FilePatch own = renamePatch(records, rename);
      added += own.added() - from.linesAdded() - to.linesAdded();
      removed += own.removed() - from.linesRemoved() - to.linesRemoved();
    }
    return new ListedTurn(
        new TurnListing(
            listing.turn(),
            listing.files(),
            listing.changed() - renames.size(),
            added,
            removed,
            listing.notRestorable(),
            listing.detectedByScan()),
        listed.rewinds(),
        listed.overlapping(),
        listed.title());
  }

  /**
   * The {@code after} that pages the newest {@code limit} turns of {@code session} (0 when it has
   * no more than that): what a person at a terminal is shown first, where the JSON pages from the
   * first turn. An unknown session has no turns, so 0, and {@link #turns} names it.
   */
  public long afterForNewest(String session, int limit) {
    ExternalIds.requireValid("session", session);
    requirePageLimit(limit);
    List<StoredTurn> turns =
        store.read(
            tx ->
                tx.sessions()
                    .byExternalId(session)
                    .map(found -> tx.turns().ofSession(found.id()))
                    .orElse(List.of()));
    return turns.size() <= limit ? 0 : turns.get(turns.size() - limit - 1).seq();
  }

  /**
   * A page's size is checked before any offset is computed from it: a negative one would index
   * before the first turn.
   */
  private static void requirePageLimit(int limit) {
    if (limit < 1 || limit > MAX_PAGE) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT, "limit " + limit + " is not within 1.." + MAX_PAGE);
    }
  }

  /**
   * The turns of the workspace's other sessions that were open while {@code turn} was (until now
   * while it is open).
   */
  private List<StoredTurn> overlapping(StoreTransaction tx, StoredTurn turn) {
    return tx.turns()
        .ofOtherSessionsBetween(
            turn.workspaceId(),
            turn.sessionId(),
            turn.beganAt(),
            turn.finishedAt().orElseGet(() -> store.clock().instant()));
  }

  /** {@code page} with the lines of the diffs still pending counted in (computed now). */
  private List<TurnListing> withPendingLines(StoreTransaction tx, List<TurnListing> page) {
    List<StoredFileChange> pendingChanges =
        tx.fileChanges()
            .diffPendingOfTurns(page.stream().map(listing -> listing.turn().id()).toList());
    if (pendingChanges.isEmpty()) {
      return page;
    }
    Map<Long, long[]> lines = new LinkedHashMap<>();
    for (StoredFileChange change : pending.filled(tx, pendingChanges)) {
      long[] sums = lines.computeIfAbsent(change.turnId(), id -> new long[2]);
      sums[0] += change.linesAdded();
      sums[1] += change.linesRemoved();
    }
    return page.stream()
        .map(
            listing -> {
              long[] sums = lines.get(listing.turn().id());
              return sums == null
                  ? listing
                  : new TurnListing(
                      listing.turn(),
                      listing.files(),
                      listing.changed(),
                      listing.linesAdded() + sums[0],
                      listing.linesRemoved() + sums[1],
                      listing.notRestorable(),
                      listing.detectedByScan());
            })
        .toList();
  }

  /**
   * How each of the turns {@code turnIds} (row ids) stands to rewinds; a turn no rewind touched is
   * not in the map.
   */
  private static Map<Long, TurnRewinds> rewindsOf(StoreTransaction tx, Collection<Long> turnIds) {
    Map<Long, List<StoredRewindOperation>> covering = tx.rewinds().doneCovering(turnIds);
    Map<Long, StoredRewindOperation> recorded = tx.rewinds().recordedBy(turnIds);
    Map<Long, Boolean> complete = new LinkedHashMap<>();
    Map<Long, TurnRewinds> byTurn = new LinkedHashMap<>();
    Map<Long, String> undone = undoneRewinds(tx, covering.values());
    for (long turnId : turnIds) {
      List<StoredRewindOperation> by = covering.getOrDefault(turnId, List.of());
      Optional<StoredRewindOperation> records = Optional.ofNullable(recorded.get(turnId));
      if (by.isEmpty() && records.isEmpty()) {
        continue;
      }
      List<RewoundBy> rewoundBy =
          by.stream()
              .map(
                  operation ->
                      new RewoundBy(
                          operation,
                          complete.computeIfAbsent(operation.id(), id -> tx.rewinds().complete(id)),
                          Optional.ofNullable(undone.get(operation.rewindTurnId()))))
              .toList();
      byTurn.put(turnId, new TurnRewinds(rewoundBy, records));
    }
    return byTurn;
  }

  /**
   * Of the rewind turns of {@code operations}, those undone (read {@code rewound}: a whole rewind
   * of them stands), each with the rewind turn of the newest whole rewind of it: the undo.
   */
  private static Map<Long, String> undoneRewinds(
      StoreTransaction tx, Collection<List<StoredRewindOperation>> operations) {
    List<Long> rewindTurns =
        operations.stream()
            .flatMap(List::stream)
            .map(StoredRewindOperation::rewindTurnId)
            .distinct()
            .toList();
    Map<Long, String> undone = new LinkedHashMap<>();
    if (rewindTurns.isEmpty()) {
      return undone;
    }
    tx.rewinds()
        .doneCovering(rewindTurns)
        .forEach(
            (rewindTurn, undos) -> {
              boolean standsUndone =
                  tx.turns()
                      .byId(rewindTurn)
                      .filter(turn -> turn.state() == TurnState.REWOUND)
                      .isPresent();
              undos.stream()
                  .filter(undo -> standsUndone && !undo.partial())
                  .reduce((older, newer) -> newer)
                  .ifPresent(undo -> undone.put(rewindTurn, undo.rewindTurn()));
            });
    return undone;
  }

  private static TurnRewinds rewindsOf(StoreTransaction tx, StoredTurn turn) {
    return rewindsOf(tx, List.of(turn.id())).getOrDefault(turn.id(), TurnRewinds.NONE);
  }

  // ---- one turn

  public TurnRecords records(String turnId) {
    ExternalIds.requireValid("turn", turnId);
    return store.read(
        tx -> {
          TurnAt at = TurnAt.read(tx, turnId);
          return new TurnRecords(
              at.turn(),
              at.root(),
              pending.filled(tx, tx.fileChanges().ofTurn(at.turn().id())),
              rewindsOf(tx, at.turn()),
              tx.prompts().of(at.turn().id()),
              tx.toolCalls().ofTurn(at.turn().id()));
        });
  }

  /** A turn the caller named, and the real root of its workspace. */
  private record TurnAt(StoredTurn turn, String root) {
    static TurnAt read(StoreTransaction tx, String turnId) {
      StoredTurn turn = tx.turns().require(turnId);
      return new TurnAt(turn, tx.workspaces().byId(turn.workspaceId()).orElseThrow().rootReal());
    }
  }

  /**
   * What {@code turnId} recorded of {@code paths} alone: their changes looked up by path (with the
   * tool calls and sharing turns of those changes), whatever else the turn recorded. For the
   * panel's live update of a snapshot call, which shows the paths the call recorded; reading the
   * whole turn's records for it, as it did, cost every call of a turn of a thousand files a read of
   * a thousand changes.
   */
  public PathRecords recordsAt(String turnId, Collection<WorkspacePath> paths) {
    ExternalIds.requireValid("turn", turnId);
    return store.read(
        tx -> {
          TurnAt at = TurnAt.read(tx, turnId);
          return new PathRecords(
              at.turn(),
              at.root(),
              pending.filled(tx, tx.fileChanges().ofTurnsAt(List.of(at.turn().id()), paths)));
        });
  }

  /**
   * The renames among a turn's changes, as {@code git diff -M} finds them ({@link
   * RenameDetection}): a path the turn deleted and one it added whose contents are similar enough,
   * in the order of the new paths; none while the turn is open. Only the deleted and added files'
   * contents are read, and only when the turn has both.
   */
  public List<Rename> renames(String turnId) {
    return renames(records(turnId));
  }

  /** {@link #renames(String)} of records already read. */
  public List<Rename> renames(TurnRecords records) {
    return renamesAmong(records.changes());
  }

  /**
   * One of the turn's renames as {@code git diff -M} writes it (binary content summarised), with
   * its line counts: the old path's before-state to the new path's after-state.
   */
  public FilePatch renamePatch(TurnRecords records, Rename rename) {
    return renamePatch(summary, records, rename);
  }

  private FilePatch renamePatch(GitPatchWriter writer, TurnRecords records, Rename rename) {
    Snapshot old = recordOf(records.changes(), rename.from()).before();
    Snapshot updated = recordOf(records.changes(), rename.to()).after().orElseThrow();
    return writeRename(writer, rename, old, updated, contentsOf(List.of(old, updated)));
  }

  private static StoredFileChange recordOf(List<StoredFileChange> changes, WorkspacePath path) {
    return changes.stream().filter(change -> change.path().equals(path)).findFirst().orElseThrow();
  }

  private List<Rename> renamesAmong(List<StoredFileChange> changes) {
    List<RenameDetection.Change> finished =
        changes.stream()
            .flatMap(
                change ->
                    RenameDetection.Change.finished(change.path(), change.before(), change.after())
                        .stream())
            .toList();
    return RenameDetection.among(finished, this::contentsOf);
  }

  /**
   * The turn as one patch that {@code git apply} applies to the before-tree (binary content as
   * git's binary literal); limited to the recorded paths {@code paths} name when any are given
   * ({@link #select}). A rename among the paths chosen is one entry, as {@code git diff -M} writes
   * it, where the new path's entry would be; the old path has none of its own.
   */
  public String patch(String turnId, List<PathInput> paths) {
    return patch(turnId, paths, DiffOptions.DEFAULT);
  }

  /**
   * {@link #patch(String, List)} drawn with {@code options}: with whitespace ignored or other
   * context, no longer a patch {@code git apply} takes as the turn's, but what a reader asked for.
   */
  public String patch(String turnId, List<PathInput> paths, DiffOptions options) {
    GitPatchWriter applicable = new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL, options);
    List<StoredFileChange> chosen =
        paths.isEmpty() ? records(turnId).changes() : select(turnId, paths);
    Map<Sha256, byte[]> contents = contents(chosen);
    Map<WorkspacePath, Rename> renamedTo = new LinkedHashMap<>();
    renamesAmong(chosen).forEach(rename -> renamedTo.put(rename.to(), rename));
    Set<WorkspacePath> renamedFrom =
        renamedTo.values().stream().map(Rename::from).collect(Collectors.toSet());
    Map<WorkspacePath, Snapshot> before = new LinkedHashMap<>();
    chosen.forEach(change -> before.put(change.path(), change.before()));
    StringBuilder patch = new StringBuilder();
    for (StoredFileChange change : chosen) {
      if (change.after().isEmpty()
          || change.change().orElse(ChangeKind.UNCHANGED) == ChangeKind.UNCHANGED
          || renamedFrom.contains(change.path())) {
        continue;
      }
      Rename rename = renamedTo.get(change.path());
      patch.append(
          rename == null
              ? write(applicable, change.path(), change.before(), change.after().get(), contents)
                  .text()
              : writeRename(
                      applicable, rename, before.get(rename.from()), change.after().get(), contents)
                  .text());
    }
    return patch.toString();
  }

  /**
   * The stored diff of one recorded path of a turn ({@link #select}): empty when the path did not
   * change. A path the turn added that is the new name of a rename gives the rename's entry, as
   * {@code git diff -M} writes it (binary content summarised), where the stored diff is the whole
   * file added.
   */
  public String fileDiff(String turnId, PathInput path) {
    return fileDiff(turnId, path, DiffOptions.DEFAULT);
  }

  /**
   * {@link #fileDiff(String, PathInput)} drawn with {@code options}: the stored diff when they are
   * the default, else drawn now from the two states the store holds (never from the workspace).
   */
  public String fileDiff(String turnId, PathInput path, DiffOptions options) {
    StoredFileChange change = select(turnId, List.of(path)).getFirst();
    if (change.after().isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WRONG_STATE,
          "turn '" + turnId + "' is open: its diffs are made when it finishes");
    }
    GitPatchWriter writer = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY, options);
    if (change.change().orElse(ChangeKind.UNCHANGED) == ChangeKind.ADDED) {
      TurnRecords records = records(turnId);
      Optional<Rename> rename =
          renames(records).stream().filter(found -> found.to().equals(change.path())).findFirst();
      if (rename.isPresent()) {
        return renamePatch(writer, records, rename.get()).text();
      }
    }
    if (!options.isDefault()) {
      return store.read(tx -> PendingDiffs.patchOf(tx, change, writer)).text();
    }
    if (change.diffPending()) {
      // not computed yet by the background: the same diff, computed now
      return store.read(tx -> pending.patchOf(tx, change)).text();
    }
    return change
        .diff()
        .map(sha -> new String(store.read(tx -> tx.blobs().require(sha)), StandardCharsets.UTF_8))
        .orElse("");
  }

  /** Which of a recorded change's two states: before the turn touched the path, or after it. */
  public enum Side {
    BEFORE,
    AFTER
  }

  /**
   * The state one recorded path of a turn ({@link #select}) had on {@code side}, as the store holds
   * it; the after-state of an open turn does not exist yet and is refused, as its diff is.
   */
  public Snapshot state(String turnId, PathInput path, Side side) {
    StoredFileChange change = select(turnId, List.of(path)).getFirst();
    if (side == Side.BEFORE) {
      return change.before();
    }
    return change
        .after()
        .orElseThrow(
            () ->
                new RequestException(
                    RequestException.Problem.WRONG_STATE,
                    "turn '" + turnId + "' is open: its after-states are taken when it finishes"));
  }

  /**
   * The content the store holds for {@code state}: its blob, read from the store and never from the
   * workspace (whose file may have changed since); empty for a state whose content was not stored
   * (an absence, a link, a state not captured).
   */
  public Optional<byte[]> storedContent(Snapshot state) {
    return state.storedContent().map(sha -> store.read(tx -> tx.blobs().requireWhole(sha)));
  }

  /**
   * The turn's records each of {@code paths} names: parsed against the workspace's stored roots, as
   * a snapshot's paths are, and matched by bytes with the record's path (by the name alone: {@code
   * a/./b} is {@code a/b}) or with the path it was given as ({@code via}). A name that is not
   * UTF-8, given as text in its shown form ({@code n\xff.txt}), still picks its record when no name
   * matches by bytes.
   */
  private List<StoredFileChange> select(String turnId, List<PathInput> paths) {
    ExternalIds.requireValid("turn", turnId);
    record Recorded(StoredWorkspace workspace, List<StoredFileChange> changes) {}
    Recorded recorded =
        store.read(
            tx -> {
              StoredTurn turn = tx.turns().require(turnId);
              return new Recorded(
                  tx.workspaces().byId(turn.workspaceId()).orElseThrow(),
                  tx.fileChanges().ofTurn(turn.id()));
            });
    PathParser parser = parserFor(recorded.workspace());
    List<StoredFileChange> chosen = new ArrayList<>();
    for (PathInput path : paths) {
      List<StoredFileChange> matching = matching(recorded.changes(), parser, path);
      if (matching.isEmpty()) {
        throw new RequestException(
            RequestException.Problem.BAD_INPUT,
            "path '" + path.given().display() + "' is not recorded in turn '" + turnId + "'");
      }
      matching.stream().filter(change -> !chosen.contains(change)).forEach(chosen::add);
    }
    return chosen;
  }

  /**
   * The records among {@code changes} that {@code path} names, as {@link #select} matches them, in
   * their order.
   */
  private static List<StoredFileChange> matching(
      List<StoredFileChange> changes, PathParser parser, PathInput path) {
    WorkspacePath key = recordedKey(parser, path);
    List<StoredFileChange> matching =
        changes.stream()
            .filter(
                change ->
                    change.path().equals(key)
                        || change.via().filter(path.given()::equals).isPresent())
            .toList();
    if (matching.isEmpty() && path instanceof PathInput.Text text) {
      matching = changes.stream().filter(change -> shownAs(change, text.text())).toList();
    }
    return matching;
  }

  /** Whether a record's path or {@code via}, a name that is not UTF-8, is shown as {@code text}. */
  private static boolean shownAs(StoredFileChange change, String text) {
    return !change.path().isUtf8() && change.path().display().equals(text)
        || change
            .via()
            .filter(via -> !PrintableBytes.isUtf8(via.bytes()) && via.display().equals(text))
            .isPresent();
  }

  // ---- a stretch of turns

  /** The turns of a stretch, and what each recorded, by path in path order. */
  private record Stretch(
      StoredTurn from,
      StoredTurn to,
      StoredWorkspace workspace,
      Map<WorkspacePath, List<StoredFileChange>> byPath,
      Map<Long, String> turnIds) {

    /** A path's first before-state and last after-state; refused while its last turn is open. */
    Snapshot before(WorkspacePath path) {
      return byPath.get(path).getFirst().before();
    }

    Snapshot after(WorkspacePath path) {
      StoredFileChange last = byPath.get(path).getLast();
      return last.after()
          .orElseThrow(
              () ->
                  new RequestException(
                      RequestException.Problem.WRONG_STATE,
                      "turn '"
                          + turnIds.get(last.turnId())
                          + "' is open: a range must end at finished turns"));
    }
  }

  private Stretch stretch(String fromId, String toId) {
    ExternalIds.requireValid("turn", fromId);
    ExternalIds.requireValid("turn", toId);
    Stretch stretch =
        store.read(
            tx -> {
              StoredTurn from = tx.turns().require(fromId);
              StoredTurn to = tx.turns().require(toId);
              if (from.sessionId() != to.sessionId()) {
                throw new RequestException(
                    RequestException.Problem.BAD_INPUT,
                    "turns '" + fromId + "' and '" + toId + "' are in different sessions");
              }
              if (from.seq() > to.seq()) {
                throw new RequestException(
                    RequestException.Problem.BAD_INPUT,
                    "turn '"
                        + fromId
                        + "' ("
                        + from.seq()
                        + ") comes after turn '"
                        + toId
                        + "' ("
                        + to.seq()
                        + ")");
              }
              Map<WorkspacePath, List<StoredFileChange>> byPath = new TreeMap<>();
              Map<Long, String> ids = new LinkedHashMap<>();
              for (StoredTurn turn : tx.turns().ofSession(from.sessionId())) {
                if (turn.seq() < from.seq() || turn.seq() > to.seq()) {
                  continue;
                }
                ids.put(turn.id(), turn.externalId());
                for (StoredFileChange change : tx.fileChanges().ofTurn(turn.id())) {
                  byPath.computeIfAbsent(change.path(), path -> new ArrayList<>()).add(change);
                }
              }
              StoredWorkspace workspace = tx.workspaces().byId(from.workspaceId()).orElseThrow();
              return new Stretch(from, to, workspace, byPath, ids);
            });
    // a range ends at finished turns, whichever of its files is asked for
    stretch.byPath().keySet().forEach(stretch::after);
    return stretch;
  }

  /**
   * From the before-state of turn {@code fromId} to the after-state of turn {@code toId} of the
   * same session: per path, its first before-state and its last after-state in that stretch.
   */
  public RangeDiff range(String fromId, String toId) {
    return range(fromId, toId, DiffOptions.DEFAULT);
  }

  /**
   * {@link #range(String, String)} with its patch drawn with {@code options} (the records' line
   * counts stay the change's own).
   */
  public RangeDiff range(String fromId, String toId, DiffOptions options) {
    GitPatchWriter applicable = new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL, options);
    Stretch stretch = stretch(fromId, toId);
    List<Snapshot> sides = new ArrayList<>();
    stretch
        .byPath()
        .keySet()
        .forEach(
            path -> {
              sides.add(stretch.before(path));
              sides.add(stretch.after(path));
            });
    Map<Sha256, byte[]> contents = contentsOf(sides);
    List<RangeChange> changes = new ArrayList<>();
    StringBuilder patch = new StringBuilder();
    for (Map.Entry<WorkspacePath, List<StoredFileChange>> entry : stretch.byPath().entrySet()) {
      WorkspacePath path = entry.getKey();
      Snapshot before = stretch.before(path);
      Snapshot after = stretch.after(path);
      ChangeKind kind = ChangeKind.between(before, after);
      FilePatch counts =
          kind == ChangeKind.UNCHANGED
              ? FilePatch.NONE
              : write(summary, path, before, after, contents);
      changes.add(
          new RangeChange(
              path,
              before,
              after,
              kind,
              counts.added(),
              counts.removed(),
              entry.getValue().stream()
                  .map(change -> stretch.turnIds().get(change.turnId()))
                  .toList(),
              entry.getValue().stream().anyMatch(StoredFileChange::ignoredByGit)));
      if (kind != ChangeKind.UNCHANGED) {
        patch.append(write(applicable, path, before, after, contents).text());
      }
    }
    return new RangeDiff(stretch.from(), stretch.to(), changes, patch.toString());
  }

  /**
   * One file of {@link #range}: the path's section of the range's patch, as a turn's stored diffs
   * are written (a binary file as {@code Binary files a/P and b/P differ}); empty when the stretch
   * left it unchanged. The path is matched as {@link #select} matches it, among every record of the
   * stretch; one that no turn of the stretch recorded is bad input, named. Only this path's
   * contents are read.
   */
  public String rangeFileDiff(String fromId, String toId, PathInput path) {
    return rangeFileDiff(fromId, toId, path, DiffOptions.DEFAULT);
  }

  /** {@link #rangeFileDiff(String, String, PathInput)} drawn with {@code options}. */
  public String rangeFileDiff(String fromId, String toId, PathInput path, DiffOptions options) {
    Stretch stretch = stretch(fromId, toId);
    List<StoredFileChange> all = stretch.byPath().values().stream().flatMap(List::stream).toList();
    PathParser parser = parserFor(stretch.workspace());
    List<StoredFileChange> matching = matching(all, parser, path);
    if (matching.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "path '"
              + path.given().display()
              + "' is not recorded in turns '"
              + fromId
              + "' to '"
              + toId
              + "'");
    }
    // the record of the name itself, before one reached through it (its via)
    WorkspacePath named = recordedKey(parser, path);
    WorkspacePath key =
        matching.stream()
            .map(StoredFileChange::path)
            .filter(named::equals)
            .findFirst()
            .orElse(matching.getFirst().path());
    Snapshot before = stretch.before(key);
    Snapshot after = stretch.after(key);
    if (ChangeKind.between(before, after) == ChangeKind.UNCHANGED) {
      return "";
    }
    return write(
            new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY, options),
            key,
            before,
            after,
            contentsOf(List.of(before, after)))
        .text();
  }

  // ---- a path's history

  /**
   * Every turn in the workspace that recorded {@code path}, oldest first: the path is parsed
   * against the workspace's stored roots and matched as {@link #select} matches it (by bytes, with
   * the record's path or its {@code via}). Where the turn that first recorded it added it as the
   * new name of a rename ({@link #renames}), the history follows the file to its old name: the old
   * path's turns up to and with that one come first, as {@code git log --follow} does. Only that
   * one turn's renames are looked for, so a history without a rename costs one look more.
   */
  public List<HistoryEntry> log(Path workspace, PathInput path) {
    return history(workspace, path, Long.MAX_VALUE);
  }

  /** {@link #log}, of the turns up to and with row {@code lastTurn}. */
  private List<HistoryEntry> history(Path workspace, PathInput path, long lastTurn) {
    List<HistoryEntry> own =
        store.read(
            tx -> {
              List<StoredFileChange> changes = new ArrayList<>();
              for (StoredWorkspace found : workspace(tx, workspace)) {
                WorkspacePath key = recordedKey(parserFor(found), path);
                changes.addAll(tx.fileChanges().ofPath(found.id(), key, path.given()));
              }
              changes.removeIf(change -> change.turnId() > lastTurn);
              // oldest turn first, over every machine's workspace at the path
              changes.sort(
                  Comparator.comparingLong(StoredFileChange::turnId)
                      .thenComparing(StoredFileChange::path));
              List<HistoryEntry> entries = new ArrayList<>();
              for (StoredFileChange change : pending.filled(tx, changes)) {
                StoredTurn turn = tx.turns().byId(change.turnId()).orElseThrow();
                entries.add(new HistoryEntry(turn, change, rewindsOf(tx, turn)));
              }
              return entries;
            });
    if (own.isEmpty()
        || own.getFirst().change().change().orElse(ChangeKind.UNCHANGED) != ChangeKind.ADDED) {
      return own;
    }
    HistoryEntry born = own.getFirst();
    return renames(born.turn().externalId()).stream()
        .filter(rename -> rename.to().equals(born.change().path()))
        .findFirst()
        .map(
            rename -> {
              List<HistoryEntry> followed =
                  new ArrayList<>(
                      history(workspace, PathInput.bytes(rename.from().bytes()), born.turn().id()));
              followed.addAll(own);
              return followed;
            })
        .orElse(own);
  }

  /**
   * Who last wrote each line of {@code path} as it is now in {@code workspace}: a line-tracking
   * pass over the path's stored states ({@link PathBlames}); the file now is read by {@code
   * current} alone, once.
   */
  public FileBlame blame(Path workspace, PathInput path, CurrentFile current) {
    return new PathBlames(store).blame(workspace, path, current);
  }

  /**
   * The parser for a stored workspace: its roots as the store recorded them; the file system is
   * never asked.
   */
  static PathParser parserFor(StoredWorkspace workspace) {
    return PathParser.beneath(RootNames.of(workspace.rootReal(), workspace.rootGiven()));
  }

  /** {@link PathParser#recorded}; a path it refuses is bad input, named as the parser names it. */
  static WorkspacePath recordedKey(PathParser parser, PathInput path) {
    try {
      return parser.recorded(path);
    } catch (BadPathException e) {
      throw new RequestException(RequestException.Problem.BAD_INPUT, e.getMessage());
    }
  }

  // ---- content

  private Map<Sha256, byte[]> contents(List<StoredFileChange> changes) {
    List<Snapshot> snapshots = new ArrayList<>();
    changes.forEach(
        change -> {
          snapshots.add(change.before());
          change.after().ifPresent(snapshots::add);
        });
    return contentsOf(snapshots);
  }

  private Map<Sha256, byte[]> contentsOf(List<Snapshot> snapshots) {
    return store.read(tx -> tx.blobs().contentsOf(snapshots));
  }

  private static FilePatch writeRename(
      GitPatchWriter writer,
      Rename rename,
      Snapshot before,
      Snapshot after,
      Map<Sha256, byte[]> contents) {
    return writer.writeRename(
        rename,
        PatchSide.of(before, before.storedContent().map(contents::get)),
        PatchSide.of(after, after.storedContent().map(contents::get)));
  }

  private static FilePatch write(
      GitPatchWriter writer,
      WorkspacePath path,
      Snapshot before,
      Snapshot after,
      Map<Sha256, byte[]> contents) {
    return writer.write(
        path,
        PatchSide.of(before, before.storedContent().map(contents::get)),
        PatchSide.of(after, after.storedContent().map(contents::get)));
  }
}
