package io.turndiff.boundary;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * One path a scan found, by its {@code lstat} alone (nothing was opened): its stat with the change
 * time, the text of a symlink, and whether it is a directory the scan did not enter because it is
 * another mount.
 */
public record ScannedEntry(
    WorkspacePath path,
    FileType type,
    long size,
    long mtimeNanos,
    long ctimeNanos,
    long inode,
    int mode,
    long nlink,
    Optional<LinkTarget> linkTarget,
    boolean otherMount) {

  static ScannedEntry of(WorkspacePath path, StatInfo stat, byte[] linkText, boolean otherMount) {
    return new ScannedEntry(
        path,
        stat.type(),
        stat.size(),
        stat.mtimeNanos(),
        stat.ctimeNanos(),
        stat.inode(),
        stat.mode() & 07777,
        stat.nlink(),
        Optional.ofNullable(linkText).filter(text -> text.length > 0).map(LinkTarget::of),
        otherMount);
  }

  public FileMetadata metadata() {
    return new FileMetadata(type, size, mtimeNanos, mode, inode, nlink);
  }
}
