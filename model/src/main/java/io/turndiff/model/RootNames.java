package io.turndiff.model;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The names a workspace root goes by, split and lexically normalized: its real path, and the path
 * it was given as. An absolute path under either is inside the workspace. Names only: nothing is
 * looked up on disk, so the roots a store recorded serve as well as a root held open.
 */
public final class RootNames {

  private final List<byte[]> real;
  private final List<List<byte[]>> all;

  private RootNames(List<byte[]> real, List<List<byte[]>> all) {
    this.real = real;
    this.all = all;
  }

  /**
   * @param real the root's real path, as the boundary resolved it (absolute)
   * @param given the root as it was given; left out when it is not absolute (it named the root only
   *     from the working directory it was given in)
   */
  public static RootNames of(String real, String given) {
    if (!real.startsWith("/")) {
      throw new IllegalArgumentException("a root's real path is absolute, not '" + real + "'");
    }
    List<byte[]> realNames = normalized(real);
    List<List<byte[]>> all = new ArrayList<>(List.of(realNames));
    if (given.startsWith("/")) {
      all.add(normalized(given));
    }
    return new RootNames(realNames, List.copyOf(all));
  }

  public static RootNames of(Path real, Path given) {
    return of(real.toString(), given.toString());
  }

  /** A name as the bytes the kernel is given for it (the JVM's file name encoding). */
  public static byte[] nameBytes(String name) {
    return name.getBytes(Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")));
  }

  private static List<byte[]> normalized(String name) {
    return RequestedPath.normalizeLexically(RequestedPath.split(nameBytes(name)));
  }

  /** The real root's components: what a {@code ..} that leaves the workspace is applied to. */
  List<byte[]> real() {
    return real;
  }

  /** Every name of the root, the real one first. */
  List<List<byte[]>> all() {
    return all;
  }
}
