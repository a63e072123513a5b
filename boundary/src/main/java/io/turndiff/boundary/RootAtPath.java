package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether a path names the directory a boundary holds open: its real path still (not removed,
 * renamed or replaced), or another name of it. Asked by path, so it says nothing about what the
 * held handle may still reach; it tells whether the path and the handle agree.
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
    return isTheDirectory(real, device, inode, NOFOLLOW_LINKS);
  }

  /**
   * Whether {@code name}, every symbolic link in it followed as an open of it would follow them,
   * reaches the directory {@code opened} holds: one {@code stat}, the lookups the kernel does to
   * open the name and nothing more; nothing is opened or read. Another name of the root ({@code
   * /t/link/ws} for {@code /t/real/ws}, {@code link -> real}) reaches it.
   */
  public static boolean reaches(Path name, WorkspaceBoundary opened) {
    return isTheDirectory(name, opened.rootDevice(), opened.rootInode());
  }

  private static boolean isTheDirectory(
      Path name, long device, long inode, LinkOption... followed) {
    Map<String, Object> now;
    try {
      now = Files.readAttributes(name, "unix:dev,ino", followed);
    } catch (IOException | UnsupportedOperationException gone) {
      return false;
    }
    long stDev = ((Number) now.get("dev")).longValue();
    boolean sameDevice = device == DeviceNumber.fromStDev(stDev) || device == stDev;
    return sameDevice && ((Number) now.get("ino")).longValue() == inode;
  }
}
