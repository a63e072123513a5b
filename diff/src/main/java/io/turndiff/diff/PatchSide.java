package io.turndiff.diff;

import io.turndiff.model.FileType;
import io.turndiff.model.Reason;
import io.turndiff.model.Snapshot;
import java.util.Optional;

/** One side of a file's patch: what the path held, as far as the patch can show it. */
public sealed interface PatchSide {

  record Absent() implements PatchSide {}

  /** A regular file, with its permission bits. */
  record File(byte[] content, int mode) implements PatchSide {}

  /** A symlink; git shows its text as the content of a mode 120000 entry. */
  record Link(byte[] text) implements PatchSide {}

  /**
   * A directory a snapshot named: git records no directories, so as git sees the path it holds no
   * file (what the directory holds is recorded as paths of their own); its permission bits are
   * shown in a comment when they change.
   */
  record Directory(int mode) implements PatchSide {}

  /** Not captured: the patch says why and never shows content. */
  record NotCaptured(Reason reason, String detail) implements PatchSide {}

  /** A regular file whose content is stored in chunks, too large to hold in memory: not shown. */
  record TooLargeToShow(long size) implements PatchSide {}

  /**
   * The side for a snapshot. {@code content} is the stored content of a captured regular file
   * (ignored otherwise); it is absent only for a content stored in chunks, which is never loaded
   * whole.
   */
  static PatchSide of(Snapshot snapshot, Optional<byte[]> content) {
    if (snapshot instanceof Snapshot.Directory directory) {
      return new Directory(directory.stat().mode() & 07777);
    }
    if (!snapshot.captured()) {
      return new NotCaptured(
          snapshot.reason().orElse(Reason.UNREADABLE),
          snapshot.reason().isPresent() ? snapshot.reasonDetail() : "its state could not be known");
    }
    if (!snapshot.exists()) {
      return new Absent();
    }
    FileType type = snapshot.type().orElseThrow();
    if (type == FileType.SYMLINK) {
      return new Link(snapshot.linkTarget().orElseThrow().bytes());
    }
    if (content.isEmpty()) {
      return new TooLargeToShow(snapshot.metadata().orElseThrow().size());
    }
    return new File(content.get(), snapshot.metadata().orElseThrow().mode());
  }
}
