package io.turndiff.boundary;

import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import java.util.Optional;

/** What reading one workspace path (no symlink followed in any component) gave. */
sealed interface ReadOutcome {

  /** A regular file with one link, read whole and unchanged while it was read. */
  record Content(StatInfo stat, byte[] bytes, Sha256 sha256) implements ReadOutcome {}

  /** A regular file over the size limit: hashed while streaming, content not kept. */
  record TooLarge(StatInfo stat, Sha256 sha256) implements ReadOutcome {}

  /**
   * A regular file over the size limit, fingerprinted by sampled blocks ({@link SampledBlocks}).
   */
  record Sampled(StatInfo stat, Sha256 sample) implements ReadOutcome {}

  /**
   * A regular file over the size limit whose whole content is in a {@link ContentSink}, unchanged
   * while read.
   */
  record Stored(StatInfo stat, Sha256 sha256) implements ReadOutcome {}

  /**
   * Not read, or not safely: a directory, special file, hardlinked file, another mount, a moving
   * file.
   */
  record MetadataOnly(Optional<StatInfo> stat, Reason reason, String detail)
      implements ReadOutcome {}

  /** The path does not exist. */
  record Missing() implements ReadOutcome {}

  /** The final or a parent component is a symlink; nothing was followed. */
  record LinkInPath() implements ReadOutcome {}

  /** The kernel refused or failed the open or the read: existence unknown. */
  record Failed(String detail) implements ReadOutcome {}
}
