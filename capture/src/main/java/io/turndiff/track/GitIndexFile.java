package io.turndiff.track;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The names of the paths a git index file holds ({@code .git/index}, format versions 2 to 4, SHA-1 or
 * SHA-256 object names), read from bytes the workspace boundary read.
 *
 * <p>Why not JGit's {@code DirCache}: it reads an index only from a {@code java.io.File}, by name, which
 * would follow a symlinked {@code .git}, or a name swapped under it, out of the workspace. Only the names are
 * needed, and they are read here with the format's own checks (entry lengths, padding, name lengths, the
 * extensions filling the file up to its checksum), so that anything that is not an index is refused rather
 * than misread. A split index ({@code core.splitIndex}: its {@code link} extension) holds only part of the
 * names and is refused; so are a sparse index's directory entries, which are not checked out.
 */
final class GitIndexFile {

  private static final byte[] SIGNATURE = "DIRC".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SPLIT_INDEX = "link".getBytes(StandardCharsets.US_ASCII);
  private static final int STAT_BYTES = 40;
  private static final int EXTENDED = 0x4000;
  private static final int NAME_LENGTH = 0xFFF;
  private static final int MODE_DIRECTORY = 0040000;
  private static final int MODE_TYPE = 0170000;

  private GitIndexFile() {
  }

  /** Not an index this reader can read completely. */
  private static final class Unreadable extends Exception {
    Unreadable() {
      super(null, null, false, false);
    }
  }

  /** The path names in {@code index}, each once; empty when the bytes are not a complete index. */
  static Optional<List<byte[]>> names(byte[] index) {
    // the object names' length is not in the file: SHA-1 (20 bytes) almost always, else SHA-256 (32)
    for (int hashLength : new int[] {20, 32}) {
      try {
        return Optional.of(names(index, hashLength));
      } catch (Unreadable notWithThisLength) {
        // try the other length
      }
    }
    return Optional.empty();
  }

  private static List<byte[]> names(byte[] index, int hashLength) throws Unreadable {
    int end = index.length - hashLength;
    check(end >= 12 && Arrays.equals(index, 0, 4, SIGNATURE, 0, 4));
    int version = int32(index, 4);
    check(version >= 2 && version <= 4);
    long count = int32(index, 8) & 0xFFFFFFFFL;
    List<byte[]> names = new ArrayList<>((int) Math.min(count, 1 << 16));
    byte[] previous = new byte[0];
    int at = 12;
    for (long entry = 0; entry < count; entry++) {
      int start = at;
      check(at + STAT_BYTES + hashLength + 2 <= end);
      int mode = int32(index, at + 24);
      int flags = ((index[at + STAT_BYTES + hashLength] & 0xFF) << 8) | (index[at + STAT_BYTES + hashLength + 1] & 0xFF);
      at += STAT_BYTES + hashLength + 2;
      if ((flags & EXTENDED) != 0) {
        check(version >= 3 && at + 2 <= end);
        at += 2;
      }
      byte[] name;
      if (version == 4) {
        // the name is the previous one less its last `strip` bytes, plus what follows up to a NUL
        long strip = 0;
        int c;
        do {
          check(at < end && strip < Integer.MAX_VALUE >> 7);
          c = index[at++] & 0xFF;
          strip = (strip << 7) | (c & 0x7F);
          if ((c & 0x80) != 0) {
            strip++;
          }
        } while ((c & 0x80) != 0);
        check(strip <= previous.length);
        int nul = nul(index, at, end);
        int kept = previous.length - (int) strip;
        name = Arrays.copyOf(previous, kept + nul - at);
        System.arraycopy(index, at, name, kept, nul - at);
        at = nul + 1;
      } else {
        int nul = nul(index, at, end);
        name = Arrays.copyOfRange(index, at, nul);
        // 1 to 8 NULs pad the entry to a multiple of 8 bytes
        at = start + ((nul - start + 8) & ~7);
        check(at <= end);
        for (int pad = nul; pad < at; pad++) {
          check(index[pad] == 0);
        }
      }
      int nameLength = flags & NAME_LENGTH;
      check(nameLength == NAME_LENGTH ? name.length >= NAME_LENGTH : name.length == nameLength);
      check(name.length > 0);
      if ((mode & MODE_TYPE) != MODE_DIRECTORY && !Arrays.equals(name, previous)) {
        names.add(name);
      }
      previous = name;
    }
    while (at < end) {
      check(at + 8 <= end);
      check(!Arrays.equals(index, at, at + 4, SPLIT_INDEX, 0, 4));
      long size = int32(index, at + 4) & 0xFFFFFFFFL;
      check(size <= end - at - 8);
      at += 8 + (int) size;
    }
    check(at == end);
    return names;
  }

  private static int nul(byte[] bytes, int from, int end) throws Unreadable {
    for (int i = from; i < end; i++) {
      if (bytes[i] == 0) {
        return i;
      }
    }
    throw new Unreadable();
  }

  private static int int32(byte[] bytes, int at) {
    return ((bytes[at] & 0xFF) << 24) | ((bytes[at + 1] & 0xFF) << 16) | ((bytes[at + 2] & 0xFF) << 8)
        | (bytes[at + 3] & 0xFF);
  }

  private static void check(boolean holds) throws Unreadable {
    if (!holds) {
      throw new Unreadable();
    }
  }
}
