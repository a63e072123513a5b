package io.turndiff.store;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.time.Instant;

/**
 * The regular files the store's tests hand it as captured: one fixed capture time and metadata, so
 * that a test's rows differ only by what it is about (the path and the content).
 */
final class CapturedFiles {

  /** When every file of these tests was captured. */
  static final Instant TAKEN_AT = Instant.ofEpochMilli(1_700_000_000_123L);

  private CapturedFiles() {}

  /** A regular file at {@code path} holding {@code content}, captured at {@link #TAKEN_AT}. */
  static Snapshot file(String path, byte[] content) {
    return Snapshot.regularFile(
        WorkspacePath.of(path),
        BoundaryKind.OPENAT2,
        new FileMetadata(FileType.REGULAR, content.length, 1L, 0644, 1, 1),
        Sha256.of(content),
        TAKEN_AT);
  }
}
