package io.turndiff.boundary;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A device number as the boundary records it, whichever interface reported it: {@code statx}'s
 * major and minor as {@code major << 32 | minor}. The JDK reports glibc's {@code st_dev} encoding
 * instead (its {@code unix:dev} attribute and its file keys), which is converted here, once; so a
 * workspace registered through one boundary and reopened through another has the same root device.
 */
final class DeviceNumber {

  /** How the JDK's {@code UnixFileKey} spells itself: {@code (dev=<hex st_dev>,ino=<decimal>)}. */
  private static final Pattern FILE_KEY = Pattern.compile("\\(dev=([0-9a-f]+),ino=(\\d+)\\)");

  private DeviceNumber() {}

  static long of(long major, long minor) {
    return major << 32 | minor;
  }

  /**
   * From glibc's {@code st_dev} ({@code gnu_dev_major} and {@code gnu_dev_minor} of {@code
   * sys/sysmacros.h}).
   */
  static long fromStDev(long stDev) {
    long major = ((stDev >>> 8) & 0xfffL) | ((stDev >>> 32) & 0xfffff000L);
    long minor = (stDev & 0xffL) | ((stDev >>> 12) & 0xffffff00L);
    return of(major, minor);
  }

  /**
   * The device of a JDK file key ({@code BasicFileAttributes.fileKey()}), or empty when it is not
   * spelled so.
   */
  static OptionalLong ofFileKey(Object fileKey) {
    Matcher matcher = FILE_KEY.matcher(String.valueOf(fileKey));
    return matcher.matches()
        ? OptionalLong.of(fromStDev(Long.parseUnsignedLong(matcher.group(1), 16)))
        : OptionalLong.empty();
  }

  /**
   * Whether a JDK file key names the inode of {@code stat} (device and inode, whichever numbering).
   */
  static boolean sameInode(Object fileKey, StatInfo stat) {
    Matcher matcher = FILE_KEY.matcher(String.valueOf(fileKey));
    return matcher.matches()
        && fromStDev(Long.parseUnsignedLong(matcher.group(1), 16)) == stat.device()
        && Long.parseLong(matcher.group(2)) == stat.inode();
  }
}
