package io.turndiff.store;

import com.github.luben.zstd.ZstdDictTrainer;
import com.github.luben.zstd.ZstdException;
import java.util.List;
import java.util.Optional;

/**
 * Trains a workspace's zstd dictionary on a sample of its files (zstd's own trainer), before the
 * track that took the sample stores them.
 *
 * <p>The sizes were measured (docs/performance.md, "A tracked workspace's dictionary"): a
 * dictionary of {@value #DICTIONARY_BYTES} bytes (the {@code zstd --train} default) trained on
 * 10,000 of `bench scale`'s 250,000 small files (2 MB) took their frames to 0.44x of their size
 * compressed alone, on the files trained on and the others alike; on spring-framework's sources,
 * samples spread over the tree of 2, 4, 8 and 16 MB gave 0.650, 0.649, 0.647 and 0.648x, trained in
 * 140, 249, 388 and 633 ms. So a sample of at most {@value #SAMPLE_BYTES} bytes and {@value
 * #MOST_SAMPLES} files: more costs the track time and gains nothing. A tree of fewer small files
 * than {@link #FEWEST_FILES} trains none: its frames would pay the dictionary's size in the store
 * before they gained it back.
 */
public final class DictionaryTraining {

  /** The dictionary's size: {@code zstd --train}'s default. */
  static final int DICTIONARY_BYTES = 112_640;

  /** A tree with fewer files that could be samples than this trains no dictionary. */
  public static final int FEWEST_FILES = 1_000;

  /** Fewer samples than this train none: zstd's trainer finds too little in them. */
  static final int FEWEST_SAMPLES = 100;

  /** Samples drawn at most, in files. */
  public static final int MOST_SAMPLES = 10_000;

  /** Samples drawn at most, in bytes. */
  public static final long SAMPLE_BYTES = 4 * 1024 * 1024;

  /**
   * A file larger than this is no sample: its frame gains little from a dictionary (zstd's window
   * finds what it repeats within itself), and a few large files would take the sample's budget.
   */
  public static final long LARGEST_SAMPLE = 64 * 1024;

  private DictionaryTraining() {}

  /**
   * A dictionary's bytes trained on {@code samples}, or none when they are too few or zstd's
   * trainer finds nothing to learn (it fails rather than give a useless dictionary): the files are
   * then compressed alone, as before.
   */
  public static Optional<byte[]> train(List<byte[]> samples) {
    if (samples.size() < FEWEST_SAMPLES) {
      return Optional.empty();
    }
    ZstdDictTrainer trainer =
        new ZstdDictTrainer(Math.toIntExact(SAMPLE_BYTES + LARGEST_SAMPLE), DICTIONARY_BYTES);
    for (byte[] sample : samples) {
      if (sample.length > 0 && sample.length <= LARGEST_SAMPLE && !trainer.addSample(sample)) {
        break; // the buffer is full
      }
    }
    try {
      byte[] dictionary = trainer.trainSamples();
      return dictionary.length == 0 ? Optional.empty() : Optional.of(dictionary);
    } catch (ZstdException e) {
      return Optional.empty();
    }
  }
}
