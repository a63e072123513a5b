package io.turndiff.store;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Which finished turns a collection removes, and how long a blob no row refers to is kept anyway.
 *
 * @param olderThan only turns finished longer ago than this (empty: whatever their age)
 * @param keepTurns never the newest this many turns of each session (empty: none kept for that)
 * @param maxSize when the pages in use still hold more than this many bytes after the other
 *     criteria, more finished turns go, oldest first across sessions (never among the {@code
 *     keepTurns} newest of a session), until they do not
 * @param grace a blob stored or looked up more recently than this is kept even when no row refers
 *     to it yet: a capture or a rewind in another process may be about to refer to it
 */
public record RetentionPolicy(
    Optional<Duration> olderThan, OptionalInt keepTurns, OptionalLong maxSize, Duration grace) {

  public RetentionPolicy {
    if (olderThan.isPresent() && olderThan.get().isNegative()) {
      throw new IllegalArgumentException("--older-than must not be negative: " + olderThan.get());
    }
    if (keepTurns.isPresent() && keepTurns.getAsInt() < 0) {
      throw new IllegalArgumentException(
          "--keep-turns must not be negative: " + keepTurns.getAsInt());
    }
    if (maxSize.isPresent() && maxSize.getAsLong() < 0) {
      throw new IllegalArgumentException("--max-size must not be negative: " + maxSize.getAsLong());
    }
    if (grace.isNegative()) {
      throw new IllegalArgumentException("--grace must not be negative: " + grace);
    }
  }

  /** How long a blob nothing refers to is kept by default (see {@link #grace}). */
  public static final Duration DEFAULT_GRACE = Duration.ofHours(1);

  /**
   * The policy a new store keeps (migration V14, which writes these values; {@code StoreTest} keeps
   * the two in step): turns finished over 30 days ago go, never each session's newest 10, and while
   * the pages in use hold more than 2 GiB, more of the oldest. Thirty days outlasts the time in
   * which a turn is reviewed and undone, ten turns cover the last prompts of any session a user
   * comes back to, and 2 GiB is a store no disk notices, where the peers' unbounded histories
   * reached 98–300 GB. A turn goes only with every turn of the rewinds that refer to it ({@link
   * Retention#groups}), so a rewind that is kept stays undoable.
   */
  public static final RetentionPolicy DEFAULT =
      new RetentionPolicy(
          Optional.of(Duration.ofDays(30)),
          OptionalInt.of(10),
          OptionalLong.of(2L * 1024 * 1024 * 1024),
          Duration.ZERO);

  /** The names the policy is kept under in the store's settings ({@code turndiff config}). */
  public static final String OLDER_THAN = "gc.older_than";

  public static final String KEEP_TURNS = "gc.keep_turns";
  public static final String MAX_SIZE = "gc.max_size";

  /**
   * The policy kept with the store (none of its criteria when none is kept), with {@code grace}.
   */
  public static RetentionPolicy stored(StoreSettings settings, Duration grace) {
    Optional<String> olderThan = settings.get(OLDER_THAN);
    Optional<String> keepTurns = settings.get(KEEP_TURNS);
    Optional<String> maxSize = settings.get(MAX_SIZE);
    try {
      return new RetentionPolicy(
          olderThan.map(Duration::parse),
          keepTurns
              .map(value -> OptionalInt.of(Integer.parseInt(value)))
              .orElse(OptionalInt.empty()),
          maxSize.map(value -> OptionalLong.of(Long.parseLong(value))).orElse(OptionalLong.empty()),
          grace);
    } catch (RuntimeException e) {
      throw new StoreException(
          "the retention policy kept in the store cannot be read ("
              + e.getMessage()
              + "); set it again with turndiff config",
          e);
    }
  }

  /** Keeps this policy's criteria in the store's settings, replacing any kept before. */
  public void store(StoreSettings settings) {
    olderThan.ifPresentOrElse(
        value -> settings.put(OLDER_THAN, value.toString()), () -> settings.remove(OLDER_THAN));
    keepTurns.ifPresentOrElse(
        value -> settings.put(KEEP_TURNS, Integer.toString(value)),
        () -> settings.remove(KEEP_TURNS));
    maxSize.ifPresentOrElse(
        value -> settings.put(MAX_SIZE, Long.toString(value)), () -> settings.remove(MAX_SIZE));
  }

  /** This policy's criteria with {@code grace} (the default's, say, with the default grace). */
  public RetentionPolicy withGrace(Duration grace) {
    return new RetentionPolicy(olderThan, keepTurns, maxSize, grace);
  }

  /** Whether any criterion is set. */
  public boolean any() {
    return choosesTurns() || maxSize.isPresent();
  }

  /**
   * Whether the age and count criteria choose turns (a collection without any policy removes no
   * turn, only blobs no row refers to).
   */
  public boolean choosesTurns() {
    return olderThan.isPresent() || keepTurns.isPresent();
  }
}
