package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether a held root's real path still names the directory held open: not removed, renamed or
 * replaced. Asked by path, so it says nothing about what the held handle may still reach; it tells
 * whether the path and the handle agree.
 */
public final class RootAtPath {

  private RootAtPath() {}

  public static boolean stillNames(WorkspaceBoundary opened) {
    return stillNames(opened.rootReal(), opened.rootDevice(), opened.rootInode());
  }

  /**
   * @param device as a boundary numbers it: {@code statx}'s {@code major << 32 | minor} ({@link
   *     DeviceNumber}); a store written before every boundary numbered it so may hold the
   *     fallback's raw {@code st_dev}, which matches too
   */
  public static boolean stillNames(Path real, long device, long inode) {
    Map<String, Object> now;
    try {
      now = Files.readAttributes(real, "unix:dev,ino", NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException gone) {
      return false;
    }
    long stDev = ((Number) now.get("dev")).longValue();
    boolean sameDevice = device == DeviceNumber.fromStDev(stDev) || device == stDev;
    return sameDevice && ((Number) now.get("ino")).longValue() == inode;
  }
}
