package io.turndiff.diff;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.FileType;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.jgit.api.errors.CanceledException;
import org.eclipse.jgit.diff.ContentSource;
import org.eclipse.jgit.diff.DiffConfig;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;

/**
 * The renames among a turn's changes, as {@code git diff -M} finds them: JGit's {@link
 * RenameDetector} (a port of git's diffcore-rename: exact renames by content first, then content
 * renames scored by git's span-hash similarity index) over the turn's deleted and added paths, with
 * git's default threshold of 50%. JGit adds the names' likeness at 1% of the score, so a score can
 * differ from git's by one point; which pairs are renames is git's choice, and where one deletion
 * has several candidates the best score wins, ties going to the earlier name.
 *
 * <p>Only what the store holds whole is scored: a binary file (as git tells binary: a NUL in the
 * first 8000 bytes) and a file stored in chunks, too large to load, are renames only when their
 * content is the same (the same SHA-256). A side that was not captured is no candidate at all: a
 * state not captured equals nothing.
 */
public final class RenameDetection {

  /** git's {@code -M} default. */
  public static final int THRESHOLD = 50;

  /**
   * git's {@code diff.renameLimit}: past this many deletions or additions only exact renames are
   * found, as git does, so that a turn of thousands of files is not scored pair by pair.
   */
  public static final int CONTENT_LIMIT = 1000;

  /** One path's change: what it held before and after the turn. */
  public record Change(WorkspacePath path, Snapshot before, Snapshot after) {

    /** The change of a path whose after-state is known; none while its turn is open. */
    public static Optional<Change> finished(
        WorkspacePath path, Snapshot before, Optional<Snapshot> after) {
      return after.map(state -> new Change(path, before, state));
    }
  }

  private RenameDetection() {}

  /**
   * The renames among {@code changes}, in the order of their new paths; {@code load} gives the
   * stored contents of the snapshots it is handed (a content it leaves out is too large to load).
   */
  public static List<Rename> among(
      Collection<Change> changes, Function<List<Snapshot>, Map<Sha256, byte[]>> load) {
    Set<WorkspacePath> directories = directoriesOf(changes);
    List<Candidate> deleted = new ArrayList<>();
    List<Candidate> added = new ArrayList<>();
    for (Change change : changes) {
      ChangeKind kind = ChangeKind.between(change.before(), change.after());
      if (kind == ChangeKind.DELETED && candidate(change.before(), directories)) {
        deleted.add(new Candidate(change.path(), change.before()));
      } else if (kind == ChangeKind.ADDED && candidate(change.after(), directories)) {
        added.add(new Candidate(change.path(), change.after()));
      }
    }
    if (deleted.isEmpty() || added.isEmpty()) {
      return List.of();
    }
    List<Snapshot> sides = new ArrayList<>();
    deleted.forEach(candidate -> sides.add(candidate.state()));
    added.forEach(candidate -> sides.add(candidate.state()));
    return detect(deleted, added, load.apply(sides));
  }

  /**
   * A captured regular file or symlink: what git would see as a blob at the path; but not a symlink
   * at a path that another change of the turn has below it (the directory it replaced, or that
   * replaced it). {@code git apply} refuses a patch that renames such a link and names a path
   * beneath it ({@code affected file 'q/s' is beyond a symbolic link}) in one of its two
   * directions, git's own {@code git diff -M} patch of the change alike, whatever the order of its
   * entries; the same link as a delete and an add applies both ways (TypeChangeProperties drew
   * {@code rm -r q; mv p q}, {@code p} a symlink). A regular file there is renamed as git renames
   * it: both directions apply.
   */
  private static boolean candidate(Snapshot state, Set<WorkspacePath> directories) {
    Optional<FileType> type =
        state.type().filter(kind -> kind == FileType.REGULAR || kind == FileType.SYMLINK);
    return state.captured()
        && state.exists()
        && type.isPresent()
        && !(type.get() == FileType.SYMLINK && directories.contains(state.path()));
  }

  /** Every path that is the directory of another changed path, at any depth. */
  private static Set<WorkspacePath> directoriesOf(Collection<Change> changes) {
    Set<WorkspacePath> directories = new HashSet<>();
    for (Change change : changes) {
      if (change.path().isOutside()) {
        continue;
      }
      Optional<WorkspacePath> parent = change.path().parent();
      while (parent.isPresent() && directories.add(parent.get())) {
        parent = parent.get().parent();
      }
    }
    return directories;
  }

  /** A deleted or added path and the state it had. */
  private record Candidate(WorkspacePath path, Snapshot state) {}

  private static List<Rename> detect(
      List<Candidate> deleted, List<Candidate> added, Map<Sha256, byte[]> contents) {
    Blobs blobs = new Blobs(contents);
    Map<String, WorkspacePath> paths = new HashMap<>();
    List<DiffEntry> entries = new ArrayList<>();
    for (Candidate candidate : deleted) {
      paths.put(key(candidate.path()), candidate.path());
      entries.add(TurnEntry.deleted(key(candidate.path()), blobs.put(candidate.state())));
    }
    for (Candidate candidate : added) {
      paths.put(key(candidate.path()), candidate.path());
      entries.add(TurnEntry.added(key(candidate.path()), blobs.put(candidate.state())));
    }
    // the detector wants a reader to start from; the contents come from the store through `blobs`
    Repository none = new InMemoryRepository(new DfsRepositoryDescription("turn"));
    try (ObjectReader reader = none.newObjectReader()) {
      RenameDetector detector = new RenameDetector(reader, none.getConfig().get(DiffConfig.KEY));
      detector.setRenameScore(THRESHOLD);
      detector.setRenameLimit(CONTENT_LIMIT);
      detector.setSkipContentRenamesForBinaryFiles(true);
      detector.setBigFileThreshold(Blobs.NOT_LOADED_SIZE - 1);
      detector.addAll(entries);
      List<Rename> renames = new ArrayList<>();
      for (DiffEntry entry :
          detector.compute(new ContentSource.Pair(blobs, blobs), NullProgressMonitor.INSTANCE)) {
        if (entry.getChangeType() == DiffEntry.ChangeType.RENAME) {
          renames.add(
              new Rename(
                  paths.get(entry.getOldPath()), paths.get(entry.getNewPath()), entry.getScore()));
        }
      }
      return renames;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (CanceledException e) {
      throw new IllegalStateException("nothing cancels a rename detection", e);
    } finally {
      none.close();
    }
  }

  /**
   * A path as the detector's string: its bytes one to one as Latin-1, so that any name (not UTF-8
   * too) maps back to exactly its path, and git's name likeness still compares the bytes.
   */
  private static String key(WorkspacePath path) {
    return new String(path.bytes(), StandardCharsets.ISO_8859_1);
  }

  /** A deleted or added entry: {@link DiffEntry}'s own factories are not public. */
  private static final class TurnEntry extends DiffEntry {

    static TurnEntry deleted(String path, Blob blob) {
      TurnEntry entry = new TurnEntry();
      entry.oldPath = path;
      entry.newPath = DEV_NULL;
      entry.oldMode = blob.mode();
      entry.newMode = FileMode.MISSING;
      entry.oldId = blob.id().abbreviate(Constants.OBJECT_ID_STRING_LENGTH);
      entry.newId = blob.none().abbreviate(Constants.OBJECT_ID_STRING_LENGTH);
      entry.changeType = ChangeType.DELETE;
      return entry;
    }

    static TurnEntry added(String path, Blob blob) {
      TurnEntry entry = new TurnEntry();
      entry.oldPath = DEV_NULL;
      entry.newPath = path;
      entry.oldMode = FileMode.MISSING;
      entry.newMode = blob.mode();
      entry.oldId = blob.none().abbreviate(Constants.OBJECT_ID_STRING_LENGTH);
      entry.newId = blob.id().abbreviate(Constants.OBJECT_ID_STRING_LENGTH);
      entry.changeType = ChangeType.ADD;
      return entry;
    }
  }

  /**
   * A side as the detector sees it: its id (equal ids are the same content: the first 20 bytes of
   * the SHA-256 for a file, git's blob id of the text for a symlink) and its mode.
   */
  private record Blob(ObjectId id, FileMode mode) {
    ObjectId none() {
      return ObjectId.zeroId();
    }
  }

  /**
   * The contents by id. A file whose content was not loaded (stored in chunks) reports a size past
   * the detector's big-file threshold, so the detector never scores and never opens it: it can only
   * be an exact rename, found by id.
   */
  private static final class Blobs extends ContentSource {

    static final int NOT_LOADED_SIZE = Integer.MAX_VALUE;

    private final Map<Sha256, byte[]> stored;
    private final Map<ObjectId, byte[]> byId = new HashMap<>();

    Blobs(Map<Sha256, byte[]> stored) {
      this.stored = stored;
    }

    Blob put(Snapshot state) {
      if (state.type().orElseThrow() == FileType.SYMLINK) {
        byte[] text = state.linkTarget().orElseThrow().bytes();
        ObjectId id = ObjectId.fromString(GitBinary.blobId(text));
        byId.put(id, text);
        return new Blob(id, FileMode.SYMLINK);
      }
      Sha256 sha = state.storedContent().orElseThrow();
      ObjectId id = ObjectId.fromRaw(HexFormat.of().parseHex(sha.hex()), 0);
      Optional.ofNullable(stored.get(sha)).ifPresent(content -> byId.put(id, content));
      boolean executable = (state.metadata().orElseThrow().mode() & 0100) != 0;
      return new Blob(id, executable ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE);
    }

    @Override
    public long size(String path, ObjectId id) {
      byte[] content = byId.get(id);
      return content == null ? NOT_LOADED_SIZE : content.length;
    }

    @Override
    public ObjectLoader open(String path, ObjectId id) {
      byte[] content = byId.get(id);
      if (content == null) {
        throw new IllegalStateException("the detector opened content it was told is too large");
      }
      return new ObjectLoader.SmallObject(Constants.OBJ_BLOB, content);
    }
  }
}
