package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * From what a scan found and what was read to the changes since the index and the index entries to
 * write: a candidate read whose state differs from its entry is a change (a stat that moved alone,
 * a touch, is not), a new path is added, an indexed path the scan did not see is deleted where the
 * scan looked (not under a directory it left out or could not list) and dropped from the index,
 * without a change, when it is ignored now.
 */
final class IndexComparison {

  private IndexComparison() {}

  /** The candidates whose content is read: all but other mounts, which are never read. */
  static List<ScannedEntry> toRead(Scan scan) {
    return scan.candidates().stream()
        .map(Scan.Candidate::entry)
        .filter(entry -> !entry.otherMount())
        .toList();
  }

  /** The content the index holds for each candidate whose content it stores. */
  static Map<WorkspacePath, Sha256> storedContents(Scan scan) {
    Map<WorkspacePath, Sha256> stored = new HashMap<>();
    for (Scan.Candidate candidate : scan.candidates()) {
      candidate
          .indexed()
          .flatMap(IndexEntry::storedContent)
          .ifPresent(sha -> stored.put(candidate.entry().path(), sha));
    }
    return stored;
  }

  /**
   * The comparison of {@code index} with the tree, given what the scan found and the candidates
   * read.
   */
  static Tracker.Comparison of(
      Scan scan, IndexCache.Index index, ContentReader.Reading reading, OptionalLong mark) {
    Map<WorkspacePath, Observation> read = reading.observations();
    List<IndexEntry> upserts = new ArrayList<>();
    List<PathChange> changes = new ArrayList<>();
    for (Scan.Candidate candidate : scan.candidates()) {
      ScannedEntry entry = candidate.entry();
      if (entry.otherMount()) {
        upserts.add(metadataOnly(entry, Reason.ESCAPES_WORKSPACE));
        continue;
      }
      Observation observation = read.get(entry.path());
      Optional<IndexEntry> old = candidate.indexed();
      Optional<IndexEntry> now = entryOf(observation, entry);
      if (now.isEmpty()) {
        // gone between the listing and the read: a deletion if it was indexed
        old.ifPresent(
            gone ->
                changes.add(
                    new PathChange(
                        entry.path(),
                        ChangeKind.DELETED,
                        Optional.of(gone),
                        Optional.empty(),
                        scan.ignoredByGit(entry.path()))));
        continue;
      }
      upserts.add(now.get());
      if (old.isEmpty()) {
        changes.add(
            new PathChange(
                entry.path(),
                ChangeKind.ADDED,
                Optional.empty(),
                Optional.of(observation),
                scan.ignoredByGit(entry.path())));
      } else if (!sameState(old.get(), now.get())) {
        changes.add(
            new PathChange(
                entry.path(),
                old.get().type() != now.get().type()
                    ? ChangeKind.TYPE_CHANGED
                    : ChangeKind.MODIFIED,
                old,
                Optional.of(observation),
                scan.ignoredByGit(entry.path())));
      }
    }
    List<WorkspacePath> removals = new ArrayList<>();
    for (IndexEntry old : scan.unseen()) {
      if (!covered(old.path(), scan.notCovered())) {
        continue;
      }
      removals.add(old.path());
      if (!scan.ignored().contains(old.path())) {
        changes.add(
            new PathChange(
                old.path(),
                ChangeKind.DELETED,
                Optional.of(old),
                Optional.empty(),
                scan.ignoredByGit(old.path())));
      }
    }
    changes.sort((a, b) -> a.path().compareTo(b.path()));
    return new Tracker.Comparison(
        scan,
        changes,
        upserts,
        removals,
        read.size(),
        index.version(),
        index.directories(),
        mark,
        reading.unstored(),
        reading.stored());
  }

  /**
   * Whether the scan looked at {@code path}: it is under no directory the scan ignored, left out or
   * could not list.
   */
  static boolean covered(WorkspacePath path, Set<WorkspacePath> notCovered) {
    if (notCovered.isEmpty()) {
      return true;
    }
    for (WorkspacePath directory : notCovered) {
      if (path.isWithin(directory)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Same content, type, mode and link text: a stat that moved without a change (a touch). An
   * ignored file whose content is now stored, or no longer (the workspace's {@link IgnoredFiles}
   * changed), is the same state when its hash is.
   */
  private static boolean sameState(IndexEntry old, IndexEntry now) {
    return old.type() == now.type()
        && old.stat().mode() == now.stat().mode()
        && old.linkTarget().equals(now.linkTarget())
        && old.sha256().equals(now.sha256())
        && storedOrNot(old.reason()).equals(storedOrNot(now.reason()))
        && (old.sha256().isPresent()
            || old.linkTarget().isPresent()
            || old.stat().equals(now.stat()));
  }

  private static Optional<Reason> storedOrNot(Optional<Reason> reason) {
    return reason.filter(why -> why != Reason.IGNORED_NOT_STORED);
  }

  /**
   * What was read of an ignored file in a workspace that keeps ignored files' metadata only: the
   * regular file's stat and hash, its content dropped (it was never stored: {@link ContentReader}
   * read it without storing).
   */
  static Observation withoutContent(Observation read) {
    if (!(read.snapshot() instanceof Snapshot.RegularFile file)) {
      return read;
    }
    Snapshot hashed =
        Snapshot.MetadataOnly.of(
                file.path(),
                file.boundary(),
                file.stat(),
                new NotCaptured(
                    Reason.IGNORED_NOT_STORED,
                    "ignored by git; this store keeps ignored files' stat and hash only"),
                file.takenAt())
            .withContentHash(file.content());
    return new Observation(hashed, read.via(), Optional.empty());
  }

  /** The stat a scan found, as the index keeps it. */
  static StatProof statOf(ScannedEntry entry) {
    return new StatProof(
        entry.type(),
        entry.size(),
        entry.mtimeNanos(),
        entry.ctimeNanos(),
        entry.inode(),
        entry.mode(),
        entry.nlink());
  }

  private static IndexEntry metadataOnly(ScannedEntry entry, Reason reason) {
    return new IndexEntry(
        entry.path(),
        statOf(entry),
        entry.linkTarget(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(reason));
  }

  /**
   * The index entry for what was read; the change time is the scan's only if the read saw the same
   * inode, size and mtime (otherwise 0, which no stat matches: the next scan reads the file again).
   */
  private static Optional<IndexEntry> entryOf(Observation observation, ScannedEntry scanned) {
    Snapshot snapshot = observation.snapshot();
    if (snapshot.presence() == Presence.ABSENT) {
      return Optional.empty();
    }
    if (snapshot.presence() == Presence.UNKNOWN || snapshot.metadata().isEmpty()) {
      return Optional.of(metadataOnly(scanned, snapshot.reason().orElse(Reason.UNREADABLE)));
    }
    FileMetadata metadata = snapshot.metadata().get();
    boolean sameInode =
        metadata.inode() == scanned.inode()
            && metadata.size() == scanned.size()
            && metadata.mtimeNanos() == scanned.mtimeNanos();
    return Optional.of(
        new IndexEntry(
            scanned.path(),
            StatProof.of(metadata, sameInode ? scanned.ctimeNanos() : 0),
            snapshot.linkTarget(),
            snapshot.sha256(),
            snapshot.storedContent(),
            snapshot.reason()));
  }

  /**
   * The directories a comparison saw appear, go or change mode since the index, and those above
   * {@code paths} (the changes a turn records), each as the index had it and as the scan found it;
   * none when the index was written before directories were indexed. Directories the scan did not
   * cover are left out.
   */
  static List<DirectoryDelta> directories(
      Tracker.Comparison comparison, Collection<WorkspacePath> paths) {
    if (comparison.directoriesBefore().isEmpty()) {
      return List.of();
    }
    DirectoryModes before = comparison.directoriesBefore().get();
    DirectoryModes now = comparison.scan().directories();
    Set<WorkspacePath> notCovered = comparison.scan().notCovered();
    TreeSet<WorkspacePath> directories = new TreeSet<>();
    for (WorkspacePath path : paths) {
      List<byte[]> parents = path.parentComponents();
      for (int depth = 1; depth <= parents.size(); depth++) {
        directories.add(WorkspacePath.ofComponents(parents.subList(0, depth)));
      }
    }
    // appeared, or their mode changed (a shell's chmod 700 dir), or went
    DirectoryModes.Changes changed = now.since(before);
    directories.addAll(changed.set().keySet());
    directories.addAll(changed.gone());
    List<DirectoryDelta> deltas = new ArrayList<>();
    for (WorkspacePath directory : directories) {
      if (covered(directory, notCovered)) {
        deltas.add(new DirectoryDelta(state(directory, before), state(directory, now)));
      }
    }
    return deltas;
  }

  private static DirectoryState state(WorkspacePath directory, DirectoryModes modes) {
    Integer mode = modes.get(directory);
    return mode == null
        ? DirectoryState.absent(directory)
        : DirectoryState.present(directory, mode);
  }
}
