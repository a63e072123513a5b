package io.turndiff.boundary;

import io.turndiff.model.BoundaryKind;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/** How a workspace boundary reads and writes. Immutable; build with {@link #builder()}. */
public final class BoundaryOptions {

  /** Which handles hold the workspace root (docs/boundary.md says what each protects). */
  public enum Mechanism {
    /**
     * The strongest that works here: openat2, else openat per component, else the directory stream.
     */
    AUTO("auto"),
    /** {@code openat2} with {@code RESOLVE_BENEATH}; refused where the kernel blocks it. */
    OPENAT2("openat2"),
    /**
     * {@code openat(O_NOFOLLOW)} one component at a time, mounts refused by device and mount-root
     * checks.
     */
    OPENAT("openat"),
    /** The JDK's {@code SecureDirectoryStream}: no native access needed. */
    SECURE_DIRECTORY_STREAM("fallback");

    private final String option;

    Mechanism(String option) {
      this.option = option;
    }

    /** The {@code --boundary} value that names this mechanism, as messages spell it. */
    public String option() {
      return option;
    }

    /** The mechanism a {@code --boundary} value names, or an exception listing the values. */
    public static Mechanism ofOption(String value) {
      for (Mechanism mechanism : values()) {
        if (mechanism.option.equals(value)) {
          return mechanism;
        }
      }
      throw new IllegalArgumentException(
          "--boundary must be auto, openat2, openat or fallback, not '" + value + "'");
    }

    /** The mechanism that records snapshots as {@code kind}. */
    public static Mechanism of(BoundaryKind kind) {
      return switch (kind) {
        case OPENAT2 -> OPENAT2;
        case OPENAT -> OPENAT;
        case SECURE_DIRECTORY_STREAM -> SECURE_DIRECTORY_STREAM;
      };
    }
  }

  /**
   * Files over 64 MiB are fingerprinted but not stored. Common files a turn changes outgrow a few
   * MiB (lockfiles, notebooks, SQLite databases, images), and a file that is not stored cannot be
   * rewound; content this large is never held whole, it is streamed into the store in chunks.
   */
  public static final long DEFAULT_SIZE_LIMIT = 64L << 20;

  /**
   * Content up to 2 MiB is read whole into memory (most source files, in one read); a larger file
   * is streamed chunk by chunk into the store by a read that captures it, so that a finish reading
   * many files in parallel holds at most a chunk of each big one.
   */
  public static final long IN_MEMORY_LIMIT = 2L << 20;

  private final long sizeLimit;
  private final int changeRetries;
  private final Mechanism mechanism;
  private final boolean fullHash;
  private final Supplier<String> temporaryNames;

  private BoundaryOptions(Builder builder) {
    this.sizeLimit = builder.sizeLimit;
    this.fullHash = builder.fullHash;
    this.changeRetries = builder.changeRetries;
    this.mechanism = builder.mechanism;
    this.temporaryNames = builder.temporaryNames;
  }

  public static BoundaryOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public long sizeLimit() {
    return sizeLimit;
  }

  /**
   * The most a read holds whole: the size limit, or the in-memory limit when that is lower. A read
   * that has no store to stream into treats a larger file as over the size limit.
   */
  public long wholeReadLimit() {
    return Math.min(sizeLimit, IN_MEMORY_LIMIT);
  }

  public int changeRetries() {
    return changeRetries;
  }

  public boolean forceFallback() {
    return mechanism == Mechanism.SECURE_DIRECTORY_STREAM;
  }

  public Mechanism mechanism() {
    return mechanism;
  }

  /**
   * Whether files over the size limit are read whole for their SHA-256 instead of fingerprinted by
   * sampling.
   */
  public boolean fullHash() {
    return fullHash;
  }

  /** What an ordinary read does with a file over the size limit. */
  public OverLimit overLimit() {
    return fullHash ? new OverLimit.Hash() : new OverLimit.Sample();
  }

  String nextTemporaryName() {
    return temporaryNames.get();
  }

  public static final class Builder {
    private long sizeLimit = DEFAULT_SIZE_LIMIT;
    private int changeRetries = 3;
    private Mechanism mechanism = Mechanism.AUTO;
    private boolean fullHash;
    private Supplier<String> temporaryNames = Builder::randomTemporaryName;

    private Builder() {}

    private static String randomTemporaryName() {
      byte[] random = new byte[8];
      ThreadLocalRandom.current().nextBytes(random);
      return ".turndiff-" + HexFormat.of().formatHex(random) + ".tmp";
    }

    /**
     * Content over this many bytes is not stored; it is fingerprinted by sampling (or hashed:
     * {@link #fullHash}).
     */
    public Builder sizeLimit(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("size limit must not be negative: " + bytes);
      }
      this.sizeLimit = bytes;
      return this;
    }

    /**
     * How often a file that moved while it was read is read again before it is recorded as moving.
     */
    public Builder changeRetries(int retries) {
      if (retries < 0 || retries > 100) {
        throw new IllegalArgumentException("retries must be within 0..100: " + retries);
      }
      this.changeRetries = retries;
      return this;
    }

    /**
     * Reads files over the size limit whole for their SHA-256 (slow for huge files) instead of
     * sampling them.
     */
    public Builder fullHash(boolean full) {
      this.fullHash = full;
      return this;
    }

    /**
     * Uses the {@code SecureDirectoryStream} boundary even where {@code openat2} works (false:
     * {@code AUTO}).
     */
    public Builder forceFallback(boolean force) {
      this.mechanism = force ? Mechanism.SECURE_DIRECTORY_STREAM : Mechanism.AUTO;
      return this;
    }

    /**
     * Which handles hold the root; one that does not work here fails {@link
     * WorkspaceBoundary#open}.
     */
    public Builder mechanism(Mechanism mechanism) {
      this.mechanism = Objects.requireNonNull(mechanism);
      return this;
    }

    /**
     * Where temporary names for writes come from (a test plants files at the names it will hand
     * out).
     */
    public Builder temporaryNames(Supplier<String> names) {
      this.temporaryNames = Objects.requireNonNull(names);
      return this;
    }

    public BoundaryOptions build() {
      return new BoundaryOptions(this);
    }
  }
}
