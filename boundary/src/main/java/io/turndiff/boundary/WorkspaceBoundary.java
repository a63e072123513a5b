package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.turndiff.model.BadPathException;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.GivenPath;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.PathInput;
import io.turndiff.model.PathParser;
import io.turndiff.model.Presence;
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
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Instant;
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
 */
public final class WorkspaceBoundary implements AutoCloseable {

  private final Path rootGiven;
  private final Path rootReal;
  private final Walker walker;
  private final FileReader reader;
  private final Lookups lookups;
  private final WriteProtocol protocol;
  private final PathResolver resolver;
  private final PathParser parser;
  private final BoundaryOptions options;
  private final InstantSource clock;

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
    this.clock = clock;
    List<List<byte[]>> rootNames = new ArrayList<>();
    rootNames.add(RequestedPath.normalizeLexically(RequestedPath.split(nameBytes(rootReal))));
    rootNames.add(RequestedPath.normalizeLexically(RequestedPath.split(nameBytes(rootGiven))));
    this.resolver = new PathResolver(lookups, rootNames);
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

  public BoundaryOptions options() {
    return options;
  }

  // ---- input
  // ------------------------------------------------------------------------------------------

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
  // --------------------------------------------------------------------------------------

  /**
   * The before-state of a requested path: the snapshot of the file it leads to, and, when its final
   * component is a symlink that stays inside, a snapshot of that link too (so that a tool replacing
   * the link is seen, and a rewind can put the link back). A final symlink that leads to a
   * directory, inside or outside, is recorded as the link alone: a directory is never a file
   * change.
   */
  public List<Observation> observe(RequestedPath request) {
    return switch (request) {
      case RequestedPath.Outside outside -> List.of(observeOutside(outside));
      case RequestedPath.Inside inside -> observeInside(inside);
    };
  }

  /** Parses and observes in one step. */
  public List<Observation> observe(String input) {
    return observe(parse(input));
  }

  private List<Observation> observeInside(RequestedPath.Inside request) {
    if (request.plain()) {
      WorkspacePath path = WorkspacePath.ofComponents(request.components());
      ReadOutcome outcome =
          reader.read(path, options.sizeLimit(), options.changeRetries(), options.overLimit());
      if (!(outcome instanceof ReadOutcome.LinkInPath)) {
        return List.of(
            toObservation(path, outcome, options.sizeLimit())
                .withVia(viaFor(request.given(), path)));
      }
    }
    for (int attempt = 0; ; attempt++) {
      PathResolver.Resolution resolution = resolver.resolve(request.components());
      Optional<List<Observation>> observed = observeResolution(request, resolution);
      if (observed.isPresent()) {
        return observed.get();
      }
      if (attempt >= options.changeRetries()) {
        WorkspacePath key =
            WorkspacePath.ofComponents(RequestedPath.normalizeLexically(request.components()));
        return List.of(
            new Observation(
                Snapshot.metadataOnly(
                    key,
                    kind(),
                    Presence.UNKNOWN,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Reason.CHANGED_DURING_READ,
                    "a component turned into a symlink while the path was resolved, every retry",
                    now()),
                viaFor(request.given(), key),
                Optional.empty()));
      }
    }
  }

  /** The observations for one resolution, or empty when the workspace changed under it (retry). */
  private Optional<List<Observation>> observeResolution(
      RequestedPath.Inside request, PathResolver.Resolution resolution) {
    GivenPath given = request.given();
    switch (resolution) {
      case PathResolver.Resolved resolved -> {
        List<Observation> observations = new ArrayList<>(2);
        if (resolved.ownLink().isPresent()) {
          PathResolver.Link link = resolved.ownLink().get();
          observations.add(
              new Observation(linkSnapshot(link), viaFor(given, link.path()), Optional.empty()));
        }
        ReadOutcome outcome =
            reader.read(
                resolved.path(), options.sizeLimit(), options.changeRetries(), options.overLimit());
        if (outcome instanceof ReadOutcome.LinkInPath) {
          return Optional.empty();
        }
        Observation reached =
            toObservation(resolved.path(), outcome, options.sizeLimit())
                .withVia(viaFor(given, resolved.path()));
        if (resolved.ownLink().isPresent()
            && reached.snapshot().type().orElse(null) == FileType.DIRECTORY) {
          // a link to a directory is the link: the directory it reaches is no file change of its
          // own
          return Optional.of(observations);
        }
        observations.add(reached);
        return Optional.of(observations);
      }
      case PathResolver.Absent absent -> {
        List<Observation> observations = new ArrayList<>(2);
        absent
            .ownLink()
            .ifPresent(
                link ->
                    observations.add(
                        new Observation(
                            linkSnapshot(link), viaFor(given, link.path()), Optional.empty())));
        observations.add(
            new Observation(
                Snapshot.absent(absent.key(), kind(), now()),
                viaFor(given, absent.key()),
                Optional.empty()));
        return Optional.of(observations);
      }
      case PathResolver.Escapes escapes -> {
        return Optional.of(
            List.of(
                new Observation(
                    escapeOrLinkSnapshot(escapes),
                    viaFor(given, escapes.key()),
                    Optional.empty())));
      }
      case PathResolver.Unresolvable unresolvable -> {
        Snapshot snapshot =
            Snapshot.metadataOnly(
                unresolvable.key(),
                kind(),
                unresolvable.link().isPresent() ? Presence.PRESENT : Presence.UNKNOWN,
                unresolvable.link().map(link -> link.stat().metadata()),
                Optional.empty(),
                unresolvable.link().map(link -> LinkTarget.of(link.text())),
                Reason.UNREADABLE,
                unresolvable.detail(),
                now());
        return Optional.of(
            List.of(
                new Observation(snapshot, viaFor(given, unresolvable.key()), Optional.empty())));
      }
      case PathResolver.Raced raced -> {
        return Optional.empty();
      }
      case PathResolver.Root root ->
          throw new BadPathException(given.display(), "leads to the workspace root, a directory");
    }
  }

  /**
   * An escape, except when the path's own link leads to a directory outside: then the record is
   * that link, captured (its text is all a rewind puts back), as for a link to a directory inside.
   */
  private Snapshot escapeOrLinkSnapshot(PathResolver.Escapes escapes) {
    Optional<PathResolver.Link> link = escapes.link().filter(own -> escapes.ownLink());
    if (link.isPresent() && leadsToDirectory(link.get())) {
      return linkSnapshot(link.get());
    }
    return escapeSnapshot(escapes);
  }

  /**
   * Whether a link out leads to a directory, as the kernel resolves it (a {@code ..} in its text
   * applies after the links before it, so its text alone cannot tell), and the name is still that
   * link: one swapped since it was read stays an escape.
   */
  private boolean leadsToDirectory(PathResolver.Link link) {
    return lookups.leadsToDirectory(link.path())
        && lookups.lstat(link.path()) instanceof Lookup.Found found
        && found.stat().unchangedSince(link.stat());
  }

  private Snapshot escapeSnapshot(PathResolver.Escapes escapes) {
    Optional<PathResolver.Link> link = escapes.link();
    // the link is described (it is inside); what it points to is never looked at
    Presence presence = escapes.ownLink() ? Presence.PRESENT : Presence.UNKNOWN;
    Optional<FileMetadata> metadata =
        escapes.ownLink() ? link.map(l -> l.stat().metadata()) : Optional.empty();
    return Snapshot.metadataOnly(
        escapes.key(),
        kind(),
        presence,
        metadata,
        Optional.empty(),
        escapes.ownLink() ? link.map(l -> LinkTarget.of(l.text())) : Optional.empty(),
        Reason.ESCAPES_WORKSPACE,
        escapes.detail(),
        now());
  }

  private Snapshot linkSnapshot(PathResolver.Link link) {
    return Snapshot.symlink(
        link.path(), kind(), link.stat().metadata(), LinkTarget.of(link.text()), now());
  }

  private static Optional<GivenPath> viaFor(GivenPath given, WorkspacePath recorded) {
    return given.sameBytesAs(recorded) ? Optional.empty() : Optional.of(given);
  }

  /**
   * The state of exactly {@code path} now, its final component not followed: the after-state of a
   * path a turn recorded, or the current state a rewind checks before it writes. A symlink is
   * recorded as a link.
   */
  public Observation observeExact(WorkspacePath path) {
    return observeExact(path, options.sizeLimit(), options.overLimit());
  }

  /**
   * {@link #observeExact(WorkspacePath)} with another limit on the content kept: turndiff's own
   * reads of workspace files that are not recorded (git's index, which outgrows a source file's
   * limit).
   */
  public Observation observeExact(WorkspacePath path, long sizeLimit) {
    return observeExact(path, sizeLimit, options.overLimit());
  }

  /**
   * As {@link #observeExact(WorkspacePath)}, capturing the state whatever its size: a file over the
   * size limit is streamed into {@code sink} (unless it holds that content already), so that the
   * snapshot is captured. What a rewind reads before it overwrites or deletes a path, so that its
   * undo can put the path back.
   */
  public Observation observeExact(WorkspacePath path, ContentSink sink) {
    return observeExact(path, options.sizeLimit(), new OverLimit.Capture(sink));
  }

  private Observation observeExact(WorkspacePath path, long sizeLimit, OverLimit overLimit) {
    if (path.isOutside()) {
      return observeOutside(new RequestedPath.Outside(GivenPath.of(path.bytes()), path));
    }
    for (int attempt = 0; attempt <= options.changeRetries(); attempt++) {
      ReadOutcome outcome = reader.read(path, sizeLimit, options.changeRetries(), overLimit);
      if (!(outcome instanceof ReadOutcome.LinkInPath)) {
        return toObservation(path, outcome, sizeLimit);
      }
      Lookup lookup = lookups.lstat(path);
      switch (lookup) {
        case Lookup.Found found when found.stat().type() == FileType.SYMLINK -> {
          return observeLinkAt(path, found.stat());
        }
        case Lookup.LinkInPath link -> {
          return new Observation(
              Snapshot.metadataOnly(
                  path,
                  kind(),
                  Presence.UNKNOWN,
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty(),
                  Reason.UNREADABLE,
                  "a parent directory of the path is a symlink now; it is not followed",
                  now()),
              Optional.empty(),
              Optional.empty());
        }
        case Lookup.Missing missing -> {
          return new Observation(
              Snapshot.absent(path, kind(), now()), Optional.empty(), Optional.empty());
        }
        default -> {
          // it changed between the read and the lstat: look again
        }
      }
    }
    return new Observation(
        Snapshot.metadataOnly(
            path,
            kind(),
            Presence.UNKNOWN,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Reason.CHANGED_DURING_READ,
            "it kept changing between a symlink and a file while it was read",
            now()),
        Optional.empty(),
        Optional.empty());
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

  /** A symlink at a recorded path: its text, and whether following it would leave the workspace. */
  private Observation observeLinkAt(WorkspacePath path, StatInfo stat) {
    PathResolver.Resolution resolution = resolver.resolve(path.components());
    Snapshot snapshot =
        switch (resolution) {
          case PathResolver.Escapes escapes when escapes.ownLink() -> escapeOrLinkSnapshot(escapes);
          case PathResolver.Unresolvable unresolvable when unresolvable.link().isPresent() ->
              Snapshot.metadataOnly(
                  path,
                  kind(),
                  Presence.PRESENT,
                  Optional.of(stat.metadata()),
                  Optional.empty(),
                  unresolvable.link().map(link -> LinkTarget.of(link.text())),
                  Reason.UNREADABLE,
                  unresolvable.detail(),
                  now());
          default -> {
            byte[] text = lookups.readLink(path);
            yield text == null
                ? Snapshot.metadataOnly(
                    path,
                    kind(),
                    Presence.PRESENT,
                    Optional.of(stat.metadata()),
                    Optional.empty(),
                    Optional.empty(),
                    Reason.UNREADABLE,
                    "cannot read the symlink's text",
                    now())
                : Snapshot.symlink(path, kind(), stat.metadata(), LinkTarget.of(text), now());
          }
        };
    return new Observation(snapshot, Optional.empty(), Optional.empty());
  }

  private Observation toObservation(WorkspacePath path, ReadOutcome outcome, long sizeLimit) {
    Instant now = now();
    return switch (outcome) {
      case ReadOutcome.Content content ->
          new Observation(
              Snapshot.regularFile(path, kind(), content.stat().metadata(), content.sha256(), now),
              Optional.empty(),
              Optional.of(content.bytes()));
      case ReadOutcome.TooLarge large ->
          new Observation(
              Snapshot.metadataOnly(
                  path,
                  kind(),
                  Presence.PRESENT,
                  Optional.of(large.stat().metadata()),
                  Optional.of(large.sha256()),
                  Optional.empty(),
                  Reason.TOO_LARGE,
                  large.stat().size() + " bytes is over the size limit of " + sizeLimit,
                  now),
              Optional.empty(),
              Optional.empty());
      case ReadOutcome.Sampled sampled ->
          new Observation(
              Snapshot.sampled(
                  path,
                  kind(),
                  sampled.stat().metadata(),
                  sampled.sample(),
                  sampled.stat().size()
                      + " bytes is over the size limit of "
                      + sizeLimit
                      + "; fingerprinted by sampling "
                      + Snapshot.SAMPLED_BLOCKS
                      + " blocks",
                  now),
              Optional.empty(),
              Optional.empty());
      case ReadOutcome.Stored stored ->
          new Observation(
              Snapshot.regularFile(path, kind(), stored.stat().metadata(), stored.sha256(), now),
              Optional.empty(),
              Optional.empty(),
              true);
      case ReadOutcome.MetadataOnly only ->
          new Observation(
              Snapshot.metadataOnly(
                  path,
                  kind(),
                  only.stat().isPresent() ? Presence.PRESENT : Presence.UNKNOWN,
                  only.stat().map(StatInfo::metadata),
                  Optional.empty(),
                  Optional.empty(),
                  only.reason(),
                  only.detail(),
                  now),
              Optional.empty(),
              Optional.empty());
      case ReadOutcome.Missing missing ->
          new Observation(Snapshot.absent(path, kind(), now), Optional.empty(), Optional.empty());
      case ReadOutcome.Failed failed ->
          new Observation(
              Snapshot.metadataOnly(
                  path,
                  kind(),
                  Presence.UNKNOWN,
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty(),
                  Reason.UNREADABLE,
                  failed.detail(),
                  now),
              Optional.empty(),
              Optional.empty());
      case ReadOutcome.LinkInPath link -> throw new IllegalStateException("resolved by the caller");
    };
  }

  /** Something outside the workspace by name: its {@code lstat}, never an open. */
  private Observation observeOutside(RequestedPath.Outside outside) {
    Instant now = now();
    String detail = "outside the workspace root " + rootReal;
    Snapshot snapshot;
    try {
      Path absolute =
          Path.of(
              new String(
                  outside.key().bytes(),
                  Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"))));
      StatInfo stat = StreamHandle.statOf(Files.readAttributes(absolute, "unix:*", NOFOLLOW_LINKS));
      snapshot =
          Snapshot.metadataOnly(
              outside.key(),
              kind(),
              Presence.PRESENT,
              Optional.of(stat.metadata()),
              Optional.empty(),
              Optional.empty(),
              Reason.OUTSIDE_WORKSPACE,
              detail,
              now);
    } catch (NoSuchFileException | NotDirectoryException e) {
      snapshot =
          Snapshot.metadataOnly(
              outside.key(),
              kind(),
              Presence.ABSENT,
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Reason.OUTSIDE_WORKSPACE,
              detail,
              now);
    } catch (IOException | InvalidPathException | UnsupportedOperationException e) {
      snapshot =
          Snapshot.metadataOnly(
              outside.key(),
              kind(),
              Presence.UNKNOWN,
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Reason.OUTSIDE_WORKSPACE,
              detail + "; lstat failed: " + e.getMessage(),
              now);
    }
    return new Observation(snapshot, viaFor(outside.given(), outside.key()), Optional.empty());
  }

  private Instant now() {
    return clock.instant();
  }

  // ---- scanning
  // ---------------------------------------------------------------------------------------

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

  // ---- write side
  // -------------------------------------------------------------------------------------
  //
  // The product writes only through the checked sequence below (stage, commitIfUnchanged /
  // deleteIfUnchanged, syncDirectory): a write that does not first look at what it replaces could
  // destroy
  // work. The
  // unchecked one-file writes here are package-private: the boundary's own tests use them to prove
  // what a
  // write may and may not touch.

  /**
   * Puts {@code content} at {@code path} with permission bits {@code mode}: a new file beside it,
   * synced, renamed over the name, directory synced. Missing parents are created; a symlinked or
   * non-directory parent is refused; whatever the name held (a symlink, a hardlink, a FIFO) is
   * replaced, never written.
   */
  WriteOutcome writeFile(WorkspacePath path, byte[] content, int mode) {
    return writeFile(path, content, mode, Optional.empty());
  }

  /**
   * As {@link #writeFile(WorkspacePath, byte[], int)}, with the new file made under exactly {@code
   * temporaryName} (when given), so that a caller that journaled the name and then crashed
   * mid-write finds and removes it. A name already taken is never written: the outcome is then
   * {@link WriteOutcome.NameTaken}, and the caller journals another name ({@link
   * #newTemporaryName()}).
   */
  WriteOutcome writeFile(
      WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.writeFile(path, WriteProtocol.Content.of(content), mode, temporaryName);
  }

  /**
   * As {@link #writeFile(WorkspacePath, byte[], int, Optional)}, streaming the content (never held
   * whole).
   */
  WriteOutcome writeFile(
      WorkspacePath path, InputStream content, int mode, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.writeFile(path, WriteProtocol.Content.of(content), mode, temporaryName);
  }

  /** Puts a symlink with exactly {@code target} as its text at {@code path}, replacing the name. */
  WriteOutcome writeSymlink(WorkspacePath path, LinkTarget target) {
    return writeSymlink(path, target, Optional.empty());
  }

  WriteOutcome writeSymlink(WorkspacePath path, LinkTarget target, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.writeSymlink(path, target.bytes(), temporaryName);
  }

  /** Removes the name {@code path} (a file, link or special file; never a directory). */
  WriteOutcome delete(WorkspacePath path) {
    requireInside(path);
    return protocol.delete(path, true);
  }

  // ---- many writes at once: stage (each file synced), commit each, sync each directory once
  // -----------------------------------

  /**
   * Writes {@code content} under a temporary name beside {@code path} (parents created, nothing
   * followed) and syncs it, without renaming: {@link #commit} then renames each over its name, and
   * {@link #syncDirectory} makes the renames durable, once per directory for many files. This is
   * {@link #writeFile}'s sequence with one directory sync for many files instead of one per file.
   * Staged files are independent of each other: several threads may stage at once.
   */
  public WriteOutcome stageFile(
      WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.stageFile(path, WriteProtocol.Content.of(content), mode, temporaryName);
  }

  /**
   * As {@link #stageFile(WorkspacePath, byte[], int, Optional)}, streaming the content (never held
   * whole).
   */
  public WriteOutcome stageFile(
      WorkspacePath path, InputStream content, int mode, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.stageFile(path, WriteProtocol.Content.of(content), mode, temporaryName);
  }

  public WriteOutcome stageSymlink(
      WorkspacePath path, LinkTarget target, Optional<String> temporaryName) {
    requireInside(path);
    return protocol.stageSymlink(path, target.bytes(), temporaryName);
  }

  /**
   * Renames a staged file over its name (the parent is walked again from the root, nothing
   * followed).
   */
  WriteOutcome commit(WriteOutcome.Staged staged) {
    return protocol.commit(staged);
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
    return protocol.commitIfUnchanged(staged, overLimit, check(overLimit, unchanged));
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
    return protocol.deleteIfUnchanged(path, overLimit, check(overLimit, unchanged));
  }

  /**
   * The check before a rename or unlink: what the held parent's read found, as an observation (a
   * symlink at the name is observed as a link, whether it escapes included), unless it still is
   * what {@code unchanged} accepts.
   */
  private WriteProtocol.TargetCheck check(OverLimit overLimit, Predicate<Snapshot> unchanged) {
    return (path, outcome) -> {
      Observation now =
          outcome instanceof ReadOutcome.LinkInPath
              ? observeExact(path, options.sizeLimit(), overLimit)
              : toObservation(path, outcome, options.sizeLimit());
      return unchanged.test(now.snapshot()) ? Optional.empty() : Optional.of(now);
    };
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

  /** Removes a name, leaving the directory to the next {@link #syncDirectory}. */
  WriteOutcome deleteUnsynced(WorkspacePath path) {
    requireInside(path);
    return protocol.delete(path, false);
  }

  // ---- directories
  // ------------------------------------------------------------------------------------

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
   * Makes the entries of {@code directory} (the root when empty) durable, {@code fsync} of that
   * directory alone: after files were committed or deleted in it, directories made or removed in
   * it, or its own mode changed. Only what the workspace's writes changed is flushed, never the
   * rest of the file system (another program's dirty pages are not turndiff's to wait for).
   */
  public WriteOutcome syncDirectory(Optional<WorkspacePath> directory) {
    directory.ifPresent(WorkspaceBoundary::requireInside);
    return protocol.syncDirectory(directory);
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
