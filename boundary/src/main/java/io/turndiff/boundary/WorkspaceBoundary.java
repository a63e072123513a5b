package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.turndiff.model.BadPathException;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.PathInput;
import io.turndiff.model.PathParser;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * The one type through which turndiff reads, writes and deletes anything in a workspace.
 *
 * <p>It resolves the root once, holds it open as a directory handle, and does every operation
 * relative to that handle: {@code openat2} with {@code RESOLVE_BENEATH} where the kernel has it, a
 * {@code SecureDirectoryStream} walk otherwise ({@link #kind()} says which, and every snapshot
 * records it). Later renames or retargeting of the root's path do not move it.
 *
 * <p>The contract, and the hazards it exists for: no byte of a file outside the workspace is ever
 * read or written, whatever symlinks, hardlinks, FIFOs, devices, mounts, {@code ..} or
 * mid-operation swaps the workspace holds. Symlinks that stay inside are followed for reading and
 * the record names the file it reached (and keeps the given path as {@code via}); anything that
 * leads out, any file with more than one link, and any special file is recorded with metadata only
 * and a {@link Reason}. A read error is never reported as an absence. Writes never touch an
 * existing inode: they create a new name in a parent held open from the root and rename it over the
 * target, so a symlink, hardlink or FIFO at the target is replaced as a name, and a symlinked
 * parent is refused. See {@code docs/boundary.md}.
 *
 * <p>The facade opens the root, walks the tree and delegates: what a path's state is, and why a
 * state was not captured, is decided by the {@link Observer}; every write goes through the one
 * {@link WriteProtocol}; every read through the one {@link FileReader}.
 */
public final class WorkspaceBoundary implements AutoCloseable {

  private final Path rootGiven;
  private final Path rootReal;
  private final Walker walker;
  private final Lookups lookups;
  private final FileReader reader;
  private final Observer observer;
  private final WriteProtocol protocol;
  private final PathParser parser;
  private final BoundaryOptions options;

  private WorkspaceBoundary(
      Path rootGiven,
      Path rootReal,
      RootHandle root,
      BoundaryOptions options,
      InstantSource clock) {
    this.rootGiven = rootGiven;
    this.rootReal = rootReal;
    this.walker = new Walker(root);
    this.reader = new FileReader(walker);
    this.lookups = new Lookups(walker);
    this.protocol = new WriteProtocol(walker, reader, options);
    this.options = options;
    List<List<byte[]>> rootNames = new ArrayList<>();
    rootNames.add(RequestedPath.normalizeLexically(RequestedPath.split(nameBytes(rootReal))));
    rootNames.add(RequestedPath.normalizeLexically(RequestedPath.split(nameBytes(rootGiven))));
    this.observer =
        new Observer(
            reader,
            lookups,
            new PathResolver(lookups, rootNames),
            options,
            root.kind(),
            rootReal,
            clock);
    this.parser = new PathParser(rootReal, rootGiven);
  }

  public static WorkspaceBoundary open(Path root) {
    return open(root, BoundaryOptions.defaults());
  }

  public static WorkspaceBoundary open(Path root, BoundaryOptions options) {
    return open(root, options, InstantSource.system());
  }

  /**
   * Resolves {@code root} to its real path and opens it.
   *
   * @throws BoundaryException when the workspace does not exist, is not a directory, or cannot be
   *     opened
   */
  public static WorkspaceBoundary open(Path root, BoundaryOptions options, InstantSource clock) {
    Path given = root.toAbsolutePath().normalize();
    Path real;
    try {
      real = given.toRealPath();
    } catch (NoSuchFileException e) {
      throw new BoundaryException("workspace " + root + " does not exist");
    } catch (IOException e) {
      throw new BoundaryException("workspace " + root + " cannot be resolved: " + e.getMessage());
    }
    if (!Files.isDirectory(real, NOFOLLOW_LINKS)) {
      throw new BoundaryException("workspace " + root + " is not a directory");
    }
    return new WorkspaceBoundary(given, real, HandleOpener.open(real, options), options, clock);
  }

  private static byte[] nameBytes(Path path) {
    return PathParser.nameBytes(path);
  }

  public BoundaryKind kind() {
    return walker.root().kind();
  }

  public Path rootGiven() {
    return rootGiven;
  }

  public Path rootReal() {
    return rootReal;
  }

  public long rootDevice() {
    return walker.root().rootStat().device();
  }

  public long rootInode() {
    return walker.root().rootStat().inode();
  }

  /**
   * The type of file system the root is on, as {@link RootHandle#fileSystemType} tells it; empty
   * where the handle cannot.
   */
  Optional<String> rootFileSystemType() {
    return walker.withRoot(RootHandle::fileSystemType);
  }

  public BoundaryOptions options() {
    return options;
  }

  // ---- input

  /**
   * Checks and splits a path as an agent gave it ({@link PathParser#parse(PathInput)}, against this
   * root's names); a path outside by those names that reaches the root through another of its names
   * is inside ({@link #throughAnotherNameOfTheRoot}).
   *
   * @throws BadPathException naming the input and the problem
   */
  public RequestedPath parse(PathInput input) {
    RequestedPath parsed = parser.parse(input);
    return parsed instanceof RequestedPath.Outside outside
        ? throughAnotherNameOfTheRoot(outside).orElse(outside)
        : parsed;
  }

  /**
   * The path inside that {@code outside} names when one of the directories above its file is the
   * root under another name: the workspace {@code /t/real/ws} reached as {@code /t/link/ws} ({@code
   * link -> real}), or through any link above it, a name the model took from the user, the
   * runtime's cwd or a shell's {@code $PWD}. Without this, a tool's path so spelled is recorded as
   * outside the workspace: no before-state, a rewind that skips it (issue 21, item 2).
   *
   * <p>Each directory from the top is asked whether it reaches the root held open ({@link
   * RootAtPath#reaches}: a {@code stat}, the lookups the kernel does when it opens the path, links
   * followed); the first that does makes the rest of the name a path inside, which is then resolved
   * beneath the root as any other: its links and {@code ..} are the boundary's to follow, never the
   * kernel's. Nothing outside is opened or read, and a link swapped after the {@code stat} only
   * changes which name was believed: every read and write still goes through the held root. A
   * directory that reaches a subdirectory of the root is not the root: the path stays outside, as
   * the name of a file that the kernel would reach through a link from outside.
   */
  private Optional<RequestedPath> throughAnotherNameOfTheRoot(RequestedPath.Outside outside) {
    List<byte[]> components = RequestedPath.split(outside.key().bytes());
    for (int depth = 1; depth < components.size(); depth++) {
      Optional<Path> directory = pathOf(RequestedPath.joinAbsolute(components.subList(0, depth)));
      if (directory.isPresent() && RootAtPath.reaches(directory.get(), this)) {
        return Optional.of(
            new RequestedPath.Inside(
                outside.given(), List.copyOf(components.subList(depth, components.size()))));
      }
    }
    return Optional.empty();
  }

  /** The name of {@code bytes} as a {@link Path}, empty when the JVM's encoding cannot hold it. */
  private static Optional<Path> pathOf(byte[] bytes) {
    try {
      return Optional.of(
          Path.of(
              new String(bytes, Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")))));
    } catch (InvalidPathException unnamed) {
      return Optional.empty();
    }
  }

  /** {@link #parse(PathInput)} of a path given as text. */
  public RequestedPath parse(String input) {
    return parse(PathInput.text(input));
  }

  /** {@link #parse(PathInput)} of a path given as raw bytes. */
  public RequestedPath parse(byte[] input) {
    return parse(PathInput.bytes(input));
  }

  // ---- read side

  /**
   * The before-state of a requested path: the snapshot of the file it leads to, and, when its final
   * component is a symlink that stays inside, a snapshot of that link too (so that a tool replacing
   * the link is seen, and a rewind can put the link back). A final symlink that leads to a
   * directory, inside or outside, is recorded as the link alone: a directory is never a file
   * change.
   */
  public List<Observation> observe(RequestedPath request) {
    return observer.observe(request, options.wholeReadLimit(), options.overLimit());
  }

  /** Parses and observes in one step. */
  public List<Observation> observe(String input) {
    return observe(parse(input));
  }

  /**
   * The state of exactly {@code path} now, its final component not followed: the after-state of a
   * path a turn recorded, or the current state a rewind checks before it writes. A symlink is
   * recorded as a link.
   */
  public Observation observeExact(WorkspacePath path) {
    return observer.observeExact(path, options.wholeReadLimit(), options.overLimit());
  }

  /**
   * {@link #observeExact(WorkspacePath)} with another limit on the content kept: turndiff's own
   * reads of workspace files that are not recorded (git's index, which outgrows a source file's
   * limit).
   */
  public Observation observeExact(WorkspacePath path, long sizeLimit) {
    return observer.observeExact(path, sizeLimit, options.overLimit());
  }

  /**
   * As {@link #observeExact(WorkspacePath)}, capturing the state whatever its size: a file over the
   * size limit is streamed into {@code sink} (unless it holds that content already), so that the
   * snapshot is captured. What a rewind reads before it overwrites or deletes a path, so that its
   * undo can put the path back.
   */
  public Observation observeExact(WorkspacePath path, ContentSink sink) {
    return observer.observeExact(path, options.wholeReadLimit(), new OverLimit.Capture(sink));
  }

  /**
   * {@link #observe(RequestedPath)} as a capture records it: a file too large to hold in memory but
   * within the size limit is streamed into {@code sink} (unless it holds that content already), so
   * that the snapshot is captured; one over the size limit is fingerprinted as ever.
   */
  public List<Observation> observeCapturing(RequestedPath request, ContentSink sink) {
    return observer.observe(request, options.wholeReadLimit(), streamingInto(sink));
  }

  /**
   * {@link #observeExact(WorkspacePath)} as a capture records it ({@link #observeCapturing(
   * RequestedPath, ContentSink)}): the after-state of a path a turn recorded.
   */
  public Observation observeCapturing(WorkspacePath path, ContentSink sink) {
    return observer.observeExact(path, options.wholeReadLimit(), streamingInto(sink));
  }

  private OverLimit streamingInto(ContentSink sink) {
    return new OverLimit.Stream(sink, options.sizeLimit(), options.overLimit());
  }

  /**
   * Holds exactly {@code path} open (beneath the root, nothing followed in any component) and runs
   * {@code reads} on it, for a file read in parts at positions rather than whole; the inode is
   * checked first as every read's is (a regular file with one link, on the root's device).
   *
   * @throws BoundaryException naming the path and why, when it cannot be opened or read
   */
  public <T> T readPositioned(WorkspacePath path, PositionedFile.Reads<T> reads) {
    requireInside(path);
    return switch (reader.readPositioned(path, reads)) {
      case FileReader.PositionedOutcome.Read<T> read -> read.value();
      case FileReader.PositionedOutcome.Refused<T> refused ->
          throw new BoundaryException(path.display() + ": " + refused.why());
    };
  }

  /**
   * The {@code lstat} of exactly {@code path}, relative to the root with nothing followed in any
   * component and nothing opened; empty when it does not exist, a parent is a symlink or the kernel
   * refused.
   */
  public Optional<ScannedEntry> lstat(WorkspacePath path) {
    if (path.isOutside()) {
      return Optional.empty();
    }
    return lookups.lstat(path) instanceof Lookup.Found found
        ? Optional.of(ScannedEntry.of(path, found.stat(), null, false))
        : Optional.empty();
  }

  // ---- scanning

  /**
   * Walks the whole workspace, directory by directory, each listed relative to the held root with
   * nothing followed: symlinks are reported as links, other mounts are reported and not entered,
   * ignored directories are never listed. Nothing is opened for reading; the visitor decides what
   * to read (through this boundary).
   */
  public void scan(ScanVisitor visitor) {
    new TreeWalk(lookups, visitor).run();
  }

  /**
   * As {@link #scan(ScanVisitor)}, each directory watched by {@code watch} before it is listed
   * (through the descriptor the listing uses) and each git directory met watched for its index.
   */
  public void scan(ScanVisitor visitor, TreeWatch watch) {
    new TreeWalk(lookups, visitor, Optional.of(watch)).run();
  }

  /**
   * Looks again at {@code starts} alone, the names {@code watch} saw change, as {@link
   * #scan(ScanVisitor)} would have met them: the directories above each are decided on and entered
   * (their ignore files looked up by name), a file is found, a directory is walked whole and
   * watched. A start that does not exist now is not reported.
   */
  public void scanPaths(Collection<WorkspacePath> starts, ScanVisitor visitor, TreeWatch watch) {
    for (WorkspacePath start : starts) {
      requireInside(start);
    }
    new TreeWalk(lookups, visitor, Optional.of(watch)).runFrom(List.copyOf(starts));
  }

  // ---- write side: stage (each file synced), commit each if unchanged, sync each directory once
  //
  // Every write goes through this checked sequence: a write that does not first look at what it
  // replaces could destroy work.

  /**
   * Writes {@code content} under a temporary name beside {@code path} (parents created, nothing
   * followed) and syncs it, without renaming: {@link #commitIfUnchanged(WriteOutcome.Staged,
   * Snapshot)} then renames each over its name, and {@link #syncDirectory} makes the renames
   * durable, once per directory for many files. Staged files are independent of each other: several
   * threads may stage at once.
   */
  public WriteOutcome stageFile(
      WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    return stageFile(path, content, mode, temporaryName, Durability.SYNCED_EACH);
  }

  /**
   * As {@link #stageFile(WorkspacePath, byte[], int, Optional)}, synced now or by the caller's
   * {@link #syncFileSystem} after its batch.
   */
  public WriteOutcome stageFile(
      WorkspacePath path,
      byte[] content,
      int mode,
      Optional<String> temporaryName,
      Durability durability) {
    requireInside(path);
    return protocol.stageFile(
        path, WriteProtocol.Content.of(content), mode, temporaryName, durability);
  }

  /**
   * As {@link #stageFile(WorkspacePath, byte[], int, Optional)}, streaming the content (never held
   * whole).
   */
  public WriteOutcome stageFile(
      WorkspacePath path, InputStream content, int mode, Optional<String> temporaryName) {
    return stageFile(path, content, mode, temporaryName, Durability.SYNCED_EACH);
  }

  /** As {@link #stageFile(WorkspacePath, InputStream, int, Optional)}, synced as asked. */
  public WriteOutcome stageFile(
      WorkspacePath path,
      InputStream content,
      int mode,
      Optional<String> temporaryName,
      Durability durability) {
    requireInside(path);
    return protocol.stageFile(
        path, WriteProtocol.Content.of(content), mode, temporaryName, durability);
  }

  public WriteOutcome stageSymlink(
      WorkspacePath path, LinkTarget target, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.stageSymlink(path, target.bytes(), temporaryName);
  }

  /**
   * Renames a staged file over its name only if the name still holds {@code expected} (the same
   * state, proven: {@link Snapshot#sameStateAs}). The name is looked at through the same parent
   * directory, held open from the root, that the rename then uses, right before it; when it
   * differs, the staged file is removed and the outcome is {@link WriteOutcome.Changed} with what
   * the name holds now. Not synced: {@link #syncDirectory} after many. A file over the size limit
   * is only fingerprinted here, which never proves sameness: for one, use {@link
   * #commitIfUnchanged(WriteOutcome.Staged, OverLimit, Predicate)} with {@link OverLimit.Capture}.
   */
  public WriteOutcome commitIfUnchanged(WriteOutcome.Staged staged, Snapshot expected) {
    return commitIfUnchanged(staged, new OverLimit.Sample(), now -> now.sameStateAs(expected));
  }

  /**
   * As {@link #commitIfUnchanged(WriteOutcome.Staged, Snapshot)}, with the caller's rule for
   * "unchanged" and how a file over the size limit is read to decide it (a rewind captures it:
   * {@link OverLimit.Capture}).
   */
  public WriteOutcome commitIfUnchanged(
      WriteOutcome.Staged staged, OverLimit overLimit, Predicate<Snapshot> unchanged) {
    requireInside(staged.path());
    return protocol.commitIfUnchanged(
        staged, overLimit, observer.unlessStill(overLimit, unchanged));
  }

  /**
   * Removes the name {@code path} only if it still holds {@code expected}, looked at through the
   * same held parent right before the unlink; else {@link WriteOutcome.Changed}. A name already
   * gone counts as done when {@code expected} is an absence. Not synced: {@link #syncDirectory}
   * after many.
   */
  public WriteOutcome deleteIfUnchanged(WorkspacePath path, Snapshot expected) {
    return deleteIfUnchanged(path, new OverLimit.Sample(), now -> now.sameStateAs(expected));
  }

  /**
   * As {@link #deleteIfUnchanged(WorkspacePath, Snapshot)}, with the caller's rule for "unchanged".
   */
  public WriteOutcome deleteIfUnchanged(
      WorkspacePath path, OverLimit overLimit, Predicate<Snapshot> unchanged) {
    requireInside(path);
    return protocol.deleteIfUnchanged(path, overLimit, observer.unlessStill(overLimit, unchanged));
  }

  /**
   * Removes a staged file that will not be committed; also one a killed process staged under a name
   * it journaled (a {@link WriteOutcome.Staged} made of the path and that name).
   */
  public void discard(WriteOutcome.Staged staged) {
    requireInside(staged.path());
    protocol.discard(staged);
  }

  /**
   * A fresh temporary name for a write beside a target ({@code .turndiff-<random>.tmp}): a caller
   * that must find its staged file after a crash journals the name before it writes under it, and
   * since no one else can know the name beforehand, a file found under it is the caller's own.
   */
  public String newTemporaryName() {
    return options.nextTemporaryName();
  }

  // ---- directories

  /**
   * The directory at {@code path} now, nothing followed: a directory with its permission bits,
   * absent, or empty when it is neither (a file or a link is there, or it cannot be looked at).
   */
  public Optional<DirectoryState> directoryAt(WorkspacePath path) {
    if (path.isOutside()) {
      return Optional.empty();
    }
    return switch (lookups.lstat(path)) {
      case Lookup.Found found when found.stat().type() == FileType.DIRECTORY ->
          Optional.of(DirectoryState.present(path, found.stat().mode() & 07777));
      case Lookup.Missing missing -> Optional.of(DirectoryState.absent(path));
      default -> Optional.empty();
    };
  }

  /**
   * Creates the directory {@code path} in its parent, walked from the root without following links
   * (missing parents are created with the default mode); with {@code mode}, exactly those
   * permission bits. A directory already there is left as it is; anything else there is refused.
   */
  public DirectoryOutcome makeDirectory(WorkspacePath path, OptionalInt mode) {
    requireInside(path);
    return protocol.makeDirectory(path, mode);
  }

  /**
   * Removes the directory {@code path} when it is empty; never follows a link, never removes a
   * file.
   */
  public DirectoryOutcome removeDirectory(WorkspacePath path) {
    requireInside(path);
    return protocol.removeDirectory(path);
  }

  /**
   * Sets the permission bits of the directory {@code path} to {@code to}, if they are still {@code
   * from}: the directory is opened beneath the root with nothing followed in any component and
   * changed through that descriptor ({@code fchmod}), never through a name. {@link
   * DirectoryOutcome.Changed} when its bits are neither; {@link DirectoryOutcome.AlreadySo} when
   * they are {@code to} already; a file, a link or a missing name is refused.
   */
  public DirectoryOutcome changeDirectoryMode(WorkspacePath path, int from, int to) {
    requireInside(path);
    return protocol.changeDirectoryMode(path, from, to);
  }

  /**
   * The names in the directory {@code path} (to say what keeps it), or empty when it cannot be
   * listed.
   */
  public List<String> namesIn(WorkspacePath path) {
    if (!(lookups.list(Optional.of(path)) instanceof DirectoryListing.Listed listed)) {
      return List.of();
    }
    return listed.entries().stream()
        .map(entry -> new String(entry.name(), StandardCharsets.UTF_8))
        .sorted()
        .toList();
  }

  /**
   * The paths in the directory {@code path}, by their exact names (a rewind's dry run tells from
   * them whether a directory it removes would be empty by then), or empty when it cannot be listed.
   */
  public Optional<List<WorkspacePath>> entriesIn(WorkspacePath path) {
    if (path.isOutside()
        || !(lookups.list(Optional.of(path)) instanceof DirectoryListing.Listed listed)) {
      return Optional.empty();
    }
    return Optional.of(listed.entries().stream().map(entry -> path.child(entry.name())).toList());
  }

  /**
   * Makes the entries of {@code directory} (the root when empty) durable, {@code fsync} of that
   * directory alone: after files were committed or deleted in it, directories made or removed in
   * it, or its own mode changed. Only what the workspace's writes changed is flushed, never the
   * rest of the file system (another program's dirty pages are not turndiff's to wait for).
   */
  public WriteOutcome syncDirectory(Optional<WorkspacePath> directory) {
    directory.ifPresent(WorkspaceBoundary::requireInside);
    return protocol.syncDirectory(directory);
  }

  /**
   * Makes everything written on the workspace's file system durable, in one {@code syncfs(2)}
   * through the root directory: the end of a batch staged with {@link Durability#SYNCED_AT_THE_END}
   * and renamed and unlinked without a directory sync each. It flushes the whole file system (other
   * programs' dirty pages too), once per batch instead of once per file and directory: measured on
   * ext4 here, one {@code syncfs} after a rewind of 1,070 files costs what a few {@code fsync}s did
   * (docs/rewind-protocol.md, section 5a). Refused where the handle cannot sync (the stream
   * fallback).
   */
  public WriteOutcome syncFileSystem() {
    return protocol.syncFileSystem();
  }

  private static void requireInside(WorkspacePath path) {
    if (path.isOutside()) {
      throw new IllegalArgumentException("never written: " + path + " is outside the workspace");
    }
  }

  @Override
  public void close() {
    walker.close();
  }
}
