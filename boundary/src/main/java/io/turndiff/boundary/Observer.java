package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.turndiff.model.BadPathException;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileType;
import io.turndiff.model.GivenPath;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What a path's state <em>is</em>: the one place that turns what the read pipeline ({@link
 * FileReader}), the lookups and the resolver found into a {@link Snapshot}, and decides which
 * states are captured and which are metadata only, with the reason why ({@link NotCaptured}).
 *
 * <p>Two ways to look. {@link #observe} follows a path as an agent gave it: symlinks that stay
 * inside are followed and the record names the file reached; a final link is recorded too, and a
 * link to a directory is the link alone. {@link #observeExact} looks at exactly a recorded path,
 * its final component not followed. Either way a path that changes under the look is looked at
 * again, up to the boundary's retries, and then recorded as {@link Reason#CHANGED_DURING_READ}; a
 * read error is never recorded as an absence.
 */
final class Observer {

  private final FileReader reader;
  private final Lookups lookups;
  private final PathResolver resolver;
  private final BoundaryOptions options;
  private final BoundaryKind kind;
  private final Path rootReal;
  private final InstantSource clock;

  Observer(
      FileReader reader,
      Lookups lookups,
      PathResolver resolver,
      BoundaryOptions options,
      BoundaryKind kind,
      Path rootReal,
      InstantSource clock) {
    this.reader = reader;
    this.lookups = lookups;
    this.resolver = resolver;
    this.options = options;
    this.kind = kind;
    this.rootReal = rootReal;
    this.clock = clock;
  }

  // ---- a path as an agent gave it

  /**
   * The state a requested path leads to, and, when its final component is a symlink that stays
   * inside, that link's state before it.
   */
  List<Observation> observe(RequestedPath request, long sizeLimit, OverLimit overLimit) {
    return switch (request) {
      case RequestedPath.Outside outside -> List.of(observeOutside(outside));
      case RequestedPath.Inside inside -> observeInside(inside, sizeLimit, overLimit);
    };
  }

  private List<Observation> observeInside(
      RequestedPath.Inside request, long sizeLimit, OverLimit overLimit) {
    if (request.plain()) {
      WorkspacePath path = WorkspacePath.ofComponents(request.components());
      ReadOutcome outcome = reader.read(path, sizeLimit, options.changeRetries(), overLimit);
      if (!(outcome instanceof ReadOutcome.LinkInPath)) {
        return List.of(
            toObservation(path, outcome, notStoredAbove(sizeLimit, overLimit))
                .withVia(viaFor(request.given(), path)));
      }
    }
    for (int attempt = 0; ; attempt++) {
      PathResolver.Resolution resolution = resolver.resolve(request.components());
      Optional<List<Observation>> observed =
          observeResolution(request, resolution, sizeLimit, overLimit);
      if (observed.isPresent()) {
        return observed.get();
      }
      if (attempt >= options.changeRetries()) {
        WorkspacePath key =
            WorkspacePath.ofComponents(RequestedPath.normalizeLexically(request.components()));
        return List.of(
            new Observation(
                unknown(
                    key,
                    Reason.CHANGED_DURING_READ,
                    "a component turned into a symlink while the path was resolved, every retry"),
                viaFor(request.given(), key),
                Optional.empty()));
      }
    }
  }

  /** The observations for one resolution, or empty when the workspace changed under it (retry). */
  private Optional<List<Observation>> observeResolution(
      RequestedPath.Inside request,
      PathResolver.Resolution resolution,
      long sizeLimit,
      OverLimit overLimit) {
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
            reader.read(resolved.path(), sizeLimit, options.changeRetries(), overLimit);
        if (outcome instanceof ReadOutcome.LinkInPath) {
          return Optional.empty();
        }
        Observation reached =
            toObservation(resolved.path(), outcome, notStoredAbove(sizeLimit, overLimit))
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
                Snapshot.absent(absent.key(), kind, clock.instant()),
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
        NotCaptured why = new NotCaptured(Reason.UNREADABLE, unresolvable.detail());
        Snapshot snapshot =
            unresolvable
                .link()
                .<Snapshot>map(link -> linkNotCaptured(unresolvable.key(), link, why))
                .orElseGet(() -> Snapshot.unknown(unresolvable.key(), kind, why, clock.instant()));
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

  /**
   * The path's own link that leads out is described (it is inside: its stat and text); what it
   * points to is never looked at. An escape through a link further up says nothing of the path.
   */
  private Snapshot escapeSnapshot(PathResolver.Escapes escapes) {
    NotCaptured why = new NotCaptured(Reason.ESCAPES_WORKSPACE, escapes.detail());
    Optional<PathResolver.Link> own = escapes.link().filter(link -> escapes.ownLink());
    return own.<Snapshot>map(link -> linkNotCaptured(escapes.key(), link, why))
        .orElseGet(() -> Snapshot.unknown(escapes.key(), kind, why, clock.instant()));
  }

  private Snapshot linkSnapshot(PathResolver.Link link) {
    return Snapshot.symlink(
        link.path(), kind, link.stat().metadata(), LinkTarget.of(link.text()), clock.instant());
  }

  /** A symlink at {@code path}, its stat and text known, not captured for {@code why}. */
  private Snapshot linkNotCaptured(WorkspacePath path, PathResolver.Link link, NotCaptured why) {
    return Snapshot.MetadataOnly.of(path, kind, link.stat().metadata(), why, clock.instant())
        .withLinkTarget(LinkTarget.of(link.text()));
  }

  private static Optional<GivenPath> viaFor(GivenPath given, WorkspacePath recorded) {
    return given.sameBytesAs(recorded) ? Optional.empty() : Optional.of(given);
  }

  // ---- exactly a recorded path

  /**
   * The state of exactly {@code path} now, its final component not followed (a symlink is recorded
   * as a link), content kept up to {@code sizeLimit} and read past it as {@code overLimit} says.
   */
  Observation observeExact(WorkspacePath path, long sizeLimit, OverLimit overLimit) {
    if (path.isOutside()) {
      return observeOutside(new RequestedPath.Outside(GivenPath.of(path.bytes()), path));
    }
    for (int attempt = 0; attempt <= options.changeRetries(); attempt++) {
      ReadOutcome outcome = reader.read(path, sizeLimit, options.changeRetries(), overLimit);
      if (!(outcome instanceof ReadOutcome.LinkInPath)) {
        return toObservation(path, outcome, notStoredAbove(sizeLimit, overLimit));
      }
      Lookup lookup = lookups.lstat(path);
      switch (lookup) {
        case Lookup.Found found when found.stat().type() == FileType.SYMLINK -> {
          return observeLinkAt(path, found.stat());
        }
        // a parent is a symlink: with nothing followed, exactly this path cannot exist, as under a
        // parent that is a file (a directory replaced by a link to one holds no file of its own)
        case Lookup.LinkInPath _, Lookup.Missing _ -> {
          return observed(Snapshot.absent(path, kind, clock.instant()));
        }
        default -> {
          // it changed between the read and the lstat: look again
        }
      }
    }
    return observed(
        unknown(
            path,
            Reason.CHANGED_DURING_READ,
            "it kept changing between a symlink and a file while it was read"));
  }

  /** A symlink at a recorded path: its text, and whether following it would leave the workspace. */
  private Observation observeLinkAt(WorkspacePath path, StatInfo stat) {
    PathResolver.Resolution resolution = resolver.resolve(path.components());
    Snapshot snapshot =
        switch (resolution) {
          case PathResolver.Escapes escapes when escapes.ownLink() -> escapeOrLinkSnapshot(escapes);
          case PathResolver.Unresolvable unresolvable when unresolvable.link().isPresent() ->
              Snapshot.MetadataOnly.of(
                      path,
                      kind,
                      stat.metadata(),
                      new NotCaptured(Reason.UNREADABLE, unresolvable.detail()),
                      clock.instant())
                  .withLinkTarget(LinkTarget.of(unresolvable.link().get().text()));
          default -> {
            byte[] text = lookups.readLink(path);
            yield text == null
                ? Snapshot.notCaptured(
                    path,
                    kind,
                    stat.metadata(),
                    new NotCaptured(Reason.UNREADABLE, "cannot read the symlink's text"),
                    clock.instant())
                : Snapshot.symlink(
                    path, kind, stat.metadata(), LinkTarget.of(text), clock.instant());
          }
        };
    return observed(snapshot);
  }

  // ---- what a read found, as a state

  /** What one read of {@code path} found, as its state (and its content, when that was kept). */
  Observation toObservation(WorkspacePath path, ReadOutcome outcome, long sizeLimit) {
    return switch (outcome) {
      case ReadOutcome.Content content ->
          new Observation(
              Snapshot.regularFile(
                  path, kind, content.stat().metadata(), content.sha256(), clock.instant()),
              Optional.empty(),
              Optional.of(content.bytes()));
      case ReadOutcome.TooLarge large ->
          observed(
              Snapshot.MetadataOnly.of(
                      path,
                      kind,
                      large.stat().metadata(),
                      new NotCaptured(Reason.TOO_LARGE, overTheLimit(large.stat(), sizeLimit)),
                      clock.instant())
                  .withContentHash(large.sha256()));
      case ReadOutcome.Sampled sampled ->
          observed(
              Snapshot.sampled(
                  path,
                  kind,
                  sampled.stat().metadata(),
                  sampled.sample(),
                  overTheLimit(sampled.stat(), sizeLimit)
                      + "; fingerprinted by sampling "
                      + Snapshot.SAMPLED_BLOCKS
                      + " blocks",
                  clock.instant()));
      case ReadOutcome.Stored stored ->
          new Observation(
              Snapshot.regularFile(
                  path, kind, stored.stat().metadata(), stored.sha256(), clock.instant()),
              Optional.empty(),
              Optional.empty(),
              true);
      case ReadOutcome.MetadataOnly only -> {
        NotCaptured why = new NotCaptured(only.reason(), only.detail());
        yield observed(
            only.stat()
                .map(
                    stat -> Snapshot.notCaptured(path, kind, stat.metadata(), why, clock.instant()))
                .orElseGet(() -> Snapshot.unknown(path, kind, why, clock.instant())));
      }
      case ReadOutcome.Missing missing -> observed(Snapshot.absent(path, kind, clock.instant()));
      case ReadOutcome.Failed failed -> observed(unknown(path, Reason.UNREADABLE, failed.detail()));
      case ReadOutcome.LinkInPath link -> throw new IllegalStateException("resolved by the caller");
    };
  }

  /**
   * The size over which a read with these limits leaves a file's content unstored: the limit of
   * content held whole, or, for a read that streams what is over it into a store, the size limit.
   */
  private static long notStoredAbove(long sizeLimit, OverLimit overLimit) {
    return overLimit instanceof OverLimit.Stream stream ? stream.upTo() : sizeLimit;
  }

  private String overTheLimit(StatInfo stat, long sizeLimit) {
    if (stat.size() <= options.sizeLimit()) {
      // within the size limit, but this read had no store to stream it into
      return stat.size() + " bytes is over the " + sizeLimit + " bytes a read holds in memory";
    }
    return stat.size() + " bytes is over the size limit of " + sizeLimit;
  }

  /**
   * The check a write makes right before a rename or unlink: what the held parent's read found, as
   * an observation (a symlink at the name is observed as a link, whether it escapes included),
   * unless it still is what {@code unchanged} accepts.
   */
  WriteProtocol.TargetCheck unlessStill(OverLimit overLimit, Predicate<Snapshot> unchanged) {
    return (path, outcome) -> {
      Observation now =
          outcome instanceof ReadOutcome.LinkInPath
              ? observeExact(path, options.wholeReadLimit(), overLimit)
              : toObservation(path, outcome, notStoredAbove(options.wholeReadLimit(), overLimit));
      return unchanged.test(now.snapshot()) ? Optional.empty() : Optional.of(now);
    };
  }

  // ---- outside the workspace

  /** Something outside the workspace by name: its {@code lstat}, never an open. */
  private Observation observeOutside(RequestedPath.Outside outside) {
    Instant now = clock.instant();
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
          Snapshot.notCaptured(
              outside.key(),
              kind,
              stat.metadata(),
              new NotCaptured(Reason.OUTSIDE_WORKSPACE, detail),
              now);
    } catch (NoSuchFileException | NotDirectoryException e) {
      snapshot =
          Snapshot.knownAbsent(
              outside.key(), kind, new NotCaptured(Reason.OUTSIDE_WORKSPACE, detail), now);
    } catch (IOException | InvalidPathException | UnsupportedOperationException e) {
      snapshot =
          Snapshot.unknown(
              outside.key(),
              kind,
              new NotCaptured(
                  Reason.OUTSIDE_WORKSPACE, detail + "; lstat failed: " + e.getMessage()),
              now);
    }
    return new Observation(snapshot, viaFor(outside.given(), outside.key()), Optional.empty());
  }

  private Snapshot unknown(WorkspacePath path, Reason reason, String detail) {
    return Snapshot.unknown(path, kind, new NotCaptured(reason, detail), clock.instant());
  }

  /** A state that carries no content, observed by its own name. */
  private static Observation observed(Snapshot snapshot) {
    return new Observation(snapshot, Optional.empty(), Optional.empty());
  }
}
