package io.turndiff.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The state of one path at one moment, as the workspace boundary saw it: one of five kinds, each a
 * small value that refuses, when it is built, a combination of facts that cannot be true.
 *
 * <ul>
 *   <li>{@link Absent}, {@link RegularFile} (its content stored) and {@link Symlink} (its text) are
 *       <em>captured</em>: the state is completely known, so that it can be put back.
 *   <li>{@link Directory}: a directory a snapshot named. A file write cannot put it back (the
 *       directories' rewind does), so it is not captured; but what it holds is recorded as paths of
 *       their own, so its mode is all its record has to know, and two directories compare on their
 *       mode alone.
 *   <li>{@link MetadataOnly}: everything else, with the {@link Reason} why. It is never restorable
 *       and never equals any other state, but what it knows (existence, type, mode, size, a content
 *       or sampled hash, a link's text) can still prove a change. A file over the size limit
 *       fingerprinted by sampled blocks is one of these: its sampled hash is one more thing it
 *       knows, which can show that the content changed and never that it did not, exactly the rule
 *       every metadata-only state follows.
 * </ul>
 *
 * <p>The accessors ({@link #presence()}, {@link #metadata()}, {@link #sha256()}, ...) answer for
 * every kind, for code that reads a state's facts (the store's row, the JSON); the rules ({@link
 * #captured()}, {@link #compareState}, {@link #fingerprint()}) are decided by switches over the
 * kinds.
 */
public sealed interface Snapshot
    permits Snapshot.Absent,
        Snapshot.RegularFile,
        Snapshot.Symlink,
        Snapshot.Directory,
        Snapshot.MetadataOnly {

  /** How many blocks of {@link #SAMPLED_BLOCK_SIZE} bytes a sampled fingerprint hashes. */
  int SAMPLED_BLOCKS = 16;

  int SAMPLED_BLOCK_SIZE = 8192;

  /** The path whose state this is (after in-workspace symlinks were resolved). */
  WorkspacePath path();

  /** The boundary implementation that produced it. */
  BoundaryKind boundary();

  Instant takenAt();

  /** A path inside the workspace known not to exist. Captured. */
  record Absent(WorkspacePath path, BoundaryKind boundary, Instant takenAt) implements Snapshot {

    public Absent {
      requireInside(path, boundary, takenAt, "a known absence");
    }
  }

  /**
   * A regular file inside the workspace whose content was read whole and is stored under its hash.
   * Captured.
   *
   * @param stat what stat said: a regular file
   * @param content the hash of the whole content, which is stored under it
   */
  record RegularFile(
      WorkspacePath path, BoundaryKind boundary, FileMetadata stat, Sha256 content, Instant takenAt)
      implements Snapshot {

    public RegularFile {
      requireInside(path, boundary, takenAt, "a stored regular file");
      requireType(stat, FileType.REGULAR, "a stored regular file");
      Objects.requireNonNull(content, "a stored regular file has its content's hash");
    }
  }

  /**
   * A symlink inside the workspace, recorded as a link: its text, never what it points to.
   * Captured.
   *
   * @param stat what lstat said: a symlink
   * @param target the link's text
   */
  record Symlink(
      WorkspacePath path,
      BoundaryKind boundary,
      FileMetadata stat,
      LinkTarget target,
      Instant takenAt)
      implements Snapshot {

    public Symlink {
      requireInside(path, boundary, takenAt, "a symlink's text");
      requireType(stat, FileType.SYMLINK, "a symlink's text");
      Objects.requireNonNull(target, "a symlink's state has its text");
    }
  }

  /**
   * A directory inside the workspace that a snapshot named (reason {@link Reason#DIRECTORY}); one
   * on another mount leads outside and is {@link MetadataOnly}. Not captured, but compared on its
   * mode.
   *
   * @param stat what stat said: a directory
   * @param reasonDetail what the boundary said about it
   */
  record Directory(
      WorkspacePath path,
      BoundaryKind boundary,
      FileMetadata stat,
      String reasonDetail,
      Instant takenAt)
      implements Snapshot {

    public Directory {
      requireInside(path, boundary, takenAt, "a directory");
      requireType(stat, FileType.DIRECTORY, "a directory");
      Objects.requireNonNull(reasonDetail, "reasonDetail");
    }
  }

  /**
   * What could not be captured, with the reason why: its content was not read, or not read safely,
   * or its existence could not be told. Never restorable, and never equal to any other state.
   *
   * @param presence whether it existed; {@link Presence#UNKNOWN} when the boundary could not tell
   * @param metadata what stat said; held exactly when the state is present
   * @param sha256 the hash of the whole content of a regular file, when it was read (a file over
   *     the size limit with a full hash, or an index entry's hash)
   * @param sampledSha256 for a regular file over the size limit that was not read whole: a hash of
   *     sampled blocks (see {@link #SAMPLED_BLOCKS}), never together with a whole-content hash
   * @param linkTarget the text of a symlink, when it could be read
   * @param why the reason it is metadata only; {@link Reason#OUTSIDE_WORKSPACE} exactly for a path
   *     outside the workspace, and never {@link Reason#DIRECTORY} (that is a {@link Directory})
   * @param reasonDetail a human explanation to go with the reason (the errno, the link that
   *     escapes), or ""
   */
  record MetadataOnly(
      WorkspacePath path,
      BoundaryKind boundary,
      Presence presence,
      Optional<FileMetadata> metadata,
      Optional<Sha256> sha256,
      Optional<Sha256> sampledSha256,
      Optional<LinkTarget> linkTarget,
      Reason why,
      String reasonDetail,
      Instant takenAt)
      implements Snapshot {

    public MetadataOnly {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(boundary, "boundary");
      Objects.requireNonNull(takenAt, "takenAt");
      Objects.requireNonNull(presence, "presence");
      Objects.requireNonNull(metadata, "metadata");
      Objects.requireNonNull(sha256, "sha256");
      Objects.requireNonNull(sampledSha256, "sampledSha256");
      Objects.requireNonNull(linkTarget, "linkTarget");
      Objects.requireNonNull(why, "a metadata-only state has the reason why");
      Objects.requireNonNull(reasonDetail, "reasonDetail");
      if (why == Reason.DIRECTORY) {
        throw new IllegalArgumentException(
            "a directory a snapshot named is a Directory, not metadata only");
      }
      if (path.isOutside() != (why == Reason.OUTSIDE_WORKSPACE)) {
        throw new IllegalArgumentException(
            "a path outside the workspace, and only such a path, is recorded "
                + "with reason "
                + Reason.OUTSIDE_WORKSPACE.code()
                + ": "
                + path
                + " ("
                + why.code()
                + ")");
      }
      if ((presence == Presence.PRESENT) != metadata.isPresent()) {
        throw new IllegalArgumentException(
            presence == Presence.PRESENT
                ? "a present state holds what stat said"
                : "what stat said is the state of something present, not of a state whose presence is "
                    + presence);
      }
      Optional<FileType> type = metadata.map(FileMetadata::type);
      if (sha256.isPresent() && !type.equals(Optional.of(FileType.REGULAR))) {
        throw new IllegalArgumentException(
            "a content hash is the hash of a regular file, not of " + describe(type));
      }
      if (linkTarget.isPresent() && !type.equals(Optional.of(FileType.SYMLINK))) {
        throw new IllegalArgumentException(
            "a link's text is the text of a symlink, not of " + describe(type));
      }
      if (sampledSha256.isPresent()
          && (why != Reason.TOO_LARGE
              || sha256.isPresent()
              || !type.equals(Optional.of(FileType.REGULAR)))) {
        throw new IllegalArgumentException(
            "a sampled fingerprint stands in for the content hash of a present "
                + "regular file over the size limit (reason "
                + Reason.TOO_LARGE.code()
                + ")");
      }
    }

    private static String describe(Optional<FileType> type) {
      return type.map(FileType::code).orElse("a state without stat");
    }

    /**
     * A present state of which {@code stat} is known, not captured for {@code why} (never {@link
     * Reason#DIRECTORY}: that is a {@link Directory}).
     */
    public static MetadataOnly of(
        WorkspacePath path,
        BoundaryKind boundary,
        FileMetadata stat,
        NotCaptured why,
        Instant takenAt) {
      return new MetadataOnly(
          path,
          boundary,
          Presence.PRESENT,
          Optional.of(stat),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          why.reason(),
          why.detail(),
          takenAt);
    }

    /** This state, with the hash of its whole content (a regular file read but not stored). */
    public MetadataOnly withContentHash(Sha256 hash) {
      return new MetadataOnly(
          path,
          boundary,
          presence,
          metadata,
          Optional.of(hash),
          sampledSha256,
          linkTarget,
          why,
          reasonDetail,
          takenAt);
    }

    /** This state, with the text of the symlink it is. */
    public MetadataOnly withLinkTarget(LinkTarget text) {
      return new MetadataOnly(
          path,
          boundary,
          presence,
          metadata,
          sha256,
          sampledSha256,
          Optional.of(text),
          why,
          reasonDetail,
          takenAt);
    }
  }

  private static void requireInside(
      WorkspacePath path, BoundaryKind boundary, Instant takenAt, String what) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(boundary, "boundary");
    Objects.requireNonNull(takenAt, "takenAt");
    if (path.isOutside()) {
      throw new IllegalArgumentException(
          what + " is of a path inside the workspace, never of " + path);
    }
  }

  private static void requireType(FileMetadata stat, FileType type, String what) {
    if (stat == null) {
      throw new NullPointerException(what + " holds what stat said");
    }
    if (stat.type() != type) {
      throw new IllegalArgumentException(
          what + " needs the stat of a " + type.code() + ", but stat says " + stat.type().code());
    }
  }

  /** A path that is known not to exist. */
  static Absent absent(WorkspacePath path, BoundaryKind boundary, Instant takenAt) {
    return new Absent(path, boundary, takenAt);
  }

  /** A regular file whose content was read and is stored under its hash. */
  static RegularFile regularFile(
      WorkspacePath path,
      BoundaryKind boundary,
      FileMetadata metadata,
      Sha256 content,
      Instant takenAt) {
    return new RegularFile(path, boundary, metadata, content, takenAt);
  }

  /** A symlink recorded as a link: its text, never its target's content. */
  static Symlink symlink(
      WorkspacePath path,
      BoundaryKind boundary,
      FileMetadata metadata,
      LinkTarget target,
      Instant takenAt) {
    return new Symlink(path, boundary, metadata, target, takenAt);
  }

  /**
   * A state of which nothing could be seen, not even whether it exists: {@code why} says what
   * stopped the look (a read error is never taken for an absence).
   */
  static MetadataOnly unknown(
      WorkspacePath path, BoundaryKind boundary, NotCaptured why, Instant takenAt) {
    return unseen(path, boundary, Presence.UNKNOWN, why, takenAt);
  }

  /**
   * A path known not to exist that is still not captured: only a path outside the workspace, whose
   * absence is reported but never restored.
   */
  static MetadataOnly knownAbsent(
      WorkspacePath path, BoundaryKind boundary, NotCaptured why, Instant takenAt) {
    return unseen(path, boundary, Presence.ABSENT, why, takenAt);
  }

  private static MetadataOnly unseen(
      WorkspacePath path,
      BoundaryKind boundary,
      Presence presence,
      NotCaptured why,
      Instant takenAt) {
    return new MetadataOnly(
        path,
        boundary,
        presence,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        why.reason(),
        why.detail(),
        takenAt);
  }

  /**
   * A present state of which only {@code stat} is known, and why its content was not (or could not
   * safely be) stored: a {@link Directory} for reason {@link Reason#DIRECTORY}, else a {@link
   * MetadataOnly} ({@link MetadataOnly#of}, which can be told a content hash or a link's text).
   */
  static Snapshot notCaptured(
      WorkspacePath path,
      BoundaryKind boundary,
      FileMetadata stat,
      NotCaptured why,
      Instant takenAt) {
    if (why.reason() == Reason.DIRECTORY) {
      return new Directory(path, boundary, stat, why.detail(), takenAt);
    }
    return MetadataOnly.of(path, boundary, stat, why, takenAt);
  }

  /**
   * A regular file over the size limit, fingerprinted without reading it whole: its stat and a hash
   * of sampled blocks ({@code sample}). Metadata only, reason {@link Reason#TOO_LARGE}.
   */
  static MetadataOnly sampled(
      WorkspacePath path,
      BoundaryKind boundary,
      FileMetadata metadata,
      Sha256 sample,
      String detail,
      Instant takenAt) {
    return new MetadataOnly(
        path,
        boundary,
        Presence.PRESENT,
        Optional.of(metadata),
        Optional.empty(),
        Optional.of(sample),
        Optional.empty(),
        Reason.TOO_LARGE,
        detail,
        takenAt);
  }

  /** Whether the path existed: {@link Presence#UNKNOWN} when the boundary could not tell. */
  default Presence presence() {
    return switch (this) {
      case Absent _ -> Presence.ABSENT;
      case RegularFile _, Symlink _, Directory _ -> Presence.PRESENT;
      case MetadataOnly only -> only.presence();
    };
  }

  /** What stat said; empty for an absence, or when the object could not be looked at. */
  default Optional<FileMetadata> metadata() {
    return switch (this) {
      case Absent _ -> Optional.empty();
      case RegularFile file -> Optional.of(file.stat());
      case Symlink link -> Optional.of(link.stat());
      case Directory directory -> Optional.of(directory.stat());
      case MetadataOnly only -> only.metadata();
    };
  }

  /** The hash of the whole content whenever it was read, also when it was too large to store. */
  default Optional<Sha256> sha256() {
    return switch (this) {
      case RegularFile file -> Optional.of(file.content());
      case MetadataOnly only -> only.sha256();
      case Absent _, Symlink _, Directory _ -> Optional.empty();
    };
  }

  /** For a file over the size limit that was not read whole: the hash of sampled blocks. */
  default Optional<Sha256> sampledSha256() {
    return switch (this) {
      case MetadataOnly only -> only.sampledSha256();
      case Absent _, RegularFile _, Symlink _, Directory _ -> Optional.empty();
    };
  }

  /** The blob holding the content, when the content itself was stored. */
  default Optional<Sha256> storedContent() {
    return switch (this) {
      case RegularFile file -> Optional.of(file.content());
      case Absent _, Symlink _, Directory _, MetadataOnly _ -> Optional.empty();
    };
  }

  /** The text of a symlink, when it was read. */
  default Optional<LinkTarget> linkTarget() {
    return switch (this) {
      case Symlink link -> Optional.of(link.target());
      case MetadataOnly only -> only.linkTarget();
      case Absent _, RegularFile _, Directory _ -> Optional.empty();
    };
  }

  /** Why the state is not captured; empty for a captured one. */
  default Optional<Reason> reason() {
    return switch (this) {
      case Directory _ -> Optional.of(Reason.DIRECTORY);
      case MetadataOnly only -> Optional.of(only.why());
      case Absent _, RegularFile _, Symlink _ -> Optional.empty();
    };
  }

  /** A human explanation to go with the reason (the errno, the link that escapes), or "". */
  default String reasonDetail() {
    return switch (this) {
      case Directory directory -> directory.reasonDetail();
      case MetadataOnly only -> only.reasonDetail();
      case Absent _, RegularFile _, Symlink _ -> "";
    };
  }

  default Optional<FileType> type() {
    return metadata().map(FileMetadata::type);
  }

  default boolean exists() {
    return presence() == Presence.PRESENT;
  }

  /** The state is completely known and could be put back. */
  default boolean captured() {
    return switch (this) {
      case Absent _, RegularFile _, Symlink _ -> true;
      case Directory _, MetadataOnly _ -> false;
    };
  }

  default Containment containment() {
    return switch (this) {
      case MetadataOnly only -> only.why().containment();
      case Absent _, RegularFile _, Symlink _, Directory _ -> Containment.INSIDE;
    };
  }

  /** Whether the path leads out of the workspace: what it reaches there was never read. */
  default boolean leadsOutside() {
    Containment containment = containment();
    return containment == Containment.ESCAPED || containment == Containment.OUTSIDE;
  }

  /**
   * Type, size, mtime and mode, or {@code absent} / {@code unknown}; for a sampled file also its
   * inode and the sampled hash, marked {@code sampled}.
   */
  default String fingerprint() {
    return switch (this) {
      case Absent _ -> "absent";
      case RegularFile file -> file.stat().fingerprint();
      case Symlink link -> link.stat().fingerprint();
      case Directory directory -> directory.stat().fingerprint();
      case MetadataOnly only ->
          switch (only.presence()) {
            case ABSENT -> "absent";
            case UNKNOWN -> "unknown";
            case PRESENT ->
                only.metadata().orElseThrow().fingerprint()
                    + only.sampledSha256()
                        .map(
                            sample ->
                                ":inode="
                                    + only.metadata().orElseThrow().inode()
                                    + ":sampled="
                                    + sample.hex())
                        .orElse("");
          };
    };
  }

  /**
   * How this state of a path compares with another. Two states are {@link StateComparison#SAME}
   * only when both were captured and agree on existence, type, content hash, link text and mode, or
   * both are directories of the same mode. Otherwise the comparison is {@link
   * StateComparison#DIFFERENT} if what is known proves a difference (existence, type, mode, size,
   * link text, or content or sampled hashes that differ), else {@link StateComparison#UNKNOWN}: an
   * uncaptured state equals nothing, not even another uncaptured state.
   */
  default StateComparison compareState(Snapshot other) {
    return switch (this) {
      case Absent _ when other instanceof Absent -> StateComparison.SAME;
      case RegularFile file when other instanceof RegularFile theirs ->
          file.content().equals(theirs.content()) && file.stat().mode() == theirs.stat().mode()
              ? StateComparison.SAME
              : StateComparison.DIFFERENT;
      case Symlink link when other instanceof Symlink theirs ->
          link.target().equals(theirs.target()) ? StateComparison.SAME : StateComparison.DIFFERENT;
      // what a directory holds is recorded as paths of their own: existence, type and mode are all
      // it knows
      case Directory directory when other instanceof Directory theirs ->
          directory.stat().mode() == theirs.stat().mode()
              ? StateComparison.SAME
              : StateComparison.DIFFERENT;
      // two states of different kinds, or a state that was not captured: only a proven difference
      // counts
      case Absent _, RegularFile _, Symlink _, Directory _, MetadataOnly _ ->
          provablyDifferent(other) ? StateComparison.DIFFERENT : StateComparison.UNKNOWN;
    };
  }

  /** The same state, proven: {@link #compareState} is {@link StateComparison#SAME}. */
  default boolean sameStateAs(Snapshot other) {
    return compareState(other) == StateComparison.SAME;
  }

  /** A directory a snapshot named: never a file change, its mode is all its record knows. */
  default boolean isDirectory() {
    return this instanceof Directory;
  }

  /**
   * This state as a file: a {@link Directory} holds no file at its path, so as a file it is a known
   * absence (what the directory holds is recorded as paths of their own, and the directory itself
   * is a directory record's: it is created, removed and given its mode back by the directories'
   * rewind); every other state is itself. So a path that turns from a file into a directory is, as
   * a file, deleted, and the chain of a path's states over several turns follows its file through a
   * directory in between (a file, then a directory, then a file again is one file's history).
   */
  default Snapshot asFile() {
    return this instanceof Directory directory
        ? absent(directory.path(), directory.boundary(), directory.takenAt())
        : this;
  }

  /**
   * Whether what both states know shows a difference: existence (when both are known), type, mode,
   * a link's text, or a regular file's size or content or sampled hash. Two states of different
   * kinds always differ in existence or type, so captured states never reach {@link
   * StateComparison#UNKNOWN} here.
   */
  private boolean provablyDifferent(Snapshot other) {
    if (presence() == Presence.UNKNOWN || other.presence() == Presence.UNKNOWN) {
      return false;
    }
    if (presence() != other.presence()) {
      return true;
    }
    if (presence() == Presence.ABSENT) {
      return false;
    }
    FileMetadata mine = metadata().orElseThrow();
    FileMetadata theirs = other.metadata().orElseThrow();
    if (mine.type() != theirs.type()) {
      return true;
    }
    if (mine.type() == FileType.SYMLINK) {
      return differ(linkTarget(), other.linkTarget());
    }
    if (mine.mode() != theirs.mode()) {
      return true;
    }
    return mine.type() == FileType.REGULAR
        && (mine.size() != theirs.size()
            || differ(sha256(), other.sha256())
            || differ(sampledSha256(), other.sampledSha256()));
  }

  private static <T> boolean differ(Optional<T> mine, Optional<T> theirs) {
    return mine.isPresent() && theirs.isPresent() && !mine.equals(theirs);
  }
}
