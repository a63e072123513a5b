package io.turndiff.review;

import io.turndiff.diff.TextContent;
import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code turndiff blame}: who last wrote each line of a file, from the path's stored history and
 * one read of the file now.
 *
 * <p>The history is every turn of this machine's workspace that recorded exactly the path, oldest
 * first (by when the turn began). The pass ({@link LineTracking}) starts at the first turn's
 * before-state (its lines were there before any turn), and for each turn steps to its before-state
 * (the lines that differ from the state the turn before left were written outside any turn) and
 * then to its after-state (the lines its diff writes are the turn's). An open turn has no
 * after-state yet: what it has written so far is in the file now, and goes to it. Last, the file
 * now: the lines that differ from the last state stored were written outside any turn. The file now
 * is read once, by {@link CurrentFile}; the states before it come from the store, one pair at a
 * time, so a long history costs its diffs, not its size in memory.
 */
final class PathBlames {

  private final Store store;

  PathBlames(Store store) {
    this.store = store;
  }

  FileBlame blame(Path workspace, PathInput path, CurrentFile current) {
    record History(
        StoredWorkspace workspace,
        WorkspacePath path,
        LineTracking pass,
        List<BlamedTurn> turns,
        LineOrigin last) {}
    History history =
        store.read(
            tx -> {
              StoredWorkspace found = thisMachines(tx, workspace);
              WorkspacePath key = ReviewQueries.recordedKey(ReviewQueries.parserFor(found), path);
              List<StoredFileChange> changes =
                  tx.fileChanges().ofPath(found.id(), key, path.given()).stream()
                      .filter(change -> change.path().equals(key))
                      .toList();
              Map<Long, BlamedTurn> turns = new LinkedHashMap<>();
              for (StoredFileChange change : changes) {
                turns.put(
                    change.turnId(),
                    BlamedTurn.of(
                        tx.turns().byId(change.turnId()).orElseThrow(),
                        tx.prompts().of(change.turnId())));
              }
              LineTracking pass = walk(tx, changes, turns);
              LineOrigin last = LineOrigin.OUTSIDE_ANY_TURN;
              if (!changes.isEmpty() && changes.getLast().after().isEmpty()) {
                // the last turn is still open: what differs now is what it wrote so far
                last = LineOrigin.writtenBy(turns.get(changes.getLast().turnId()));
              }
              return new History(found, key, pass, List.copyOf(turns.values()), last);
            });
    CurrentFile.Now now = current.read(history.workspace(), history.path());
    TextContent text = textOf(now, history.path());
    LineTracking pass = history.pass();
    pass.moveTo(
        new LineTracking.State(LineTracking.State.identityOf(now.snapshot()), Optional.of(text)),
        history.last());
    List<FileBlame.BlamedLine> lines = new ArrayList<>(text.lineCount());
    List<LineOrigin> origins = pass.origins();
    for (int i = 0; i < text.lineCount(); i++) {
      lines.add(new FileBlame.BlamedLine(i + 1, text.line(i), origins.get(i)));
    }
    return new FileBlame(history.workspace().rootReal(), history.path(), lines, history.turns());
  }

  /**
   * Steps through the recorded states: each turn's before-state (written outside any turn where it
   * differs from the state reached), then its after-state (written by the turn).
   */
  private static LineTracking walk(
      StoreTransaction tx, List<StoredFileChange> changes, Map<Long, BlamedTurn> turns) {
    if (changes.isEmpty()) {
      // no turn recorded the path: every line of it was written outside any turn
      return new LineTracking(LineTracking.State.ABSENT);
    }
    Function<Sha256, byte[]> content = sha -> tx.blobs().requireWhole(sha);
    LineTracking pass =
        new LineTracking(LineTracking.State.of(changes.getFirst().before(), content));
    for (StoredFileChange change : changes) {
      pass.moveTo(change.before(), content, LineOrigin.OUTSIDE_ANY_TURN);
      if (change.after().isPresent()) {
        pass.moveTo(
            change.after().get(), content, LineOrigin.writtenBy(turns.get(change.turnId())));
      }
    }
    return pass;
  }

  /**
   * The workspace at {@code root} as this machine holds it: a shared store may hold other machines'
   * trees at the same path, whose histories are not this file's.
   */
  private StoredWorkspace thisMachines(StoreTransaction tx, Path root) {
    return ReviewQueries.workspace(tx, root).stream()
        .filter(found -> found.heldBy(store.host()))
        .findFirst()
        .orElseThrow(
            () ->
                new RequestException(
                    RequestException.Problem.WORKSPACE,
                    "workspace " + root + " has turns recorded only by other machines"));
  }

  /**
   * The lines of the file now; a blame needs a regular file whose content was read, as text. Any
   * other state is refused, naming the path and why.
   */
  private static TextContent textOf(CurrentFile.Now now, WorkspacePath path) {
    Snapshot snapshot = now.snapshot();
    String name = "'" + path.display() + "'";
    return switch (snapshot) {
      case Snapshot.RegularFile _ ->
          TextContent.of(now.content().orElseThrow())
              .orElseThrow(
                  () -> refused(name + " is binary: a blame shows the lines of a text file"));
      case Snapshot.Absent _ -> throw refused(name + " does not exist now");
      case Snapshot.Symlink _ -> throw refused(name + " is a symlink: blame the file it names");
      case Snapshot.Directory _ -> throw refused(name + " is a directory");
      case Snapshot.MetadataOnly only ->
          throw refused(
              name
                  + " cannot be read now ("
                  + only.why().code()
                  + (only.reasonDetail().isEmpty() ? "" : ": " + only.reasonDetail())
                  + ")");
    };
  }

  private static RequestException refused(String message) {
    return new RequestException(RequestException.Problem.BAD_INPUT, message);
  }
}
