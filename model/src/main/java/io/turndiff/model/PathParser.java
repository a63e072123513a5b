package io.turndiff.model;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks and splits the paths an agent gives, against the names of one workspace root (as given and as
 * resolved). It only reads names: nothing is looked up on disk, so a path it accepts is still to be resolved
 * through the boundary.
 */
public final class PathParser {

  private final Path rootReal;
  private final Path rootGiven;

  /**
   * @param rootReal the root's real path, as the boundary resolved it
   * @param rootGiven the root as given (absolute, normalized): an absolute path under either is inside
   */
  public PathParser(Path rootReal, Path rootGiven) {
    this.rootReal = rootReal;
    this.rootGiven = rootGiven;
  }

  /** A path's name as the bytes the kernel is given for it (the JVM's file name encoding). */
  public static byte[] nameBytes(Path path) {
    return path.toString().getBytes(Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")));
  }

  /**
   * Checks and splits a path as an agent gave it. A string that holds U+FFFD or an unpaired surrogate is
   * refused: it is a name that was not valid UTF-8 before it reached turndiff, and guessing its bytes could
   * make two names one. Such names are given as bytes ({@link #parse(byte[])}).
   *
   * @throws BadPathException naming the input and the problem
   */
  public RequestedPath parse(String input) {
    if (input.indexOf('\uFFFD') >= 0) {
      throw new BadPathException(input, "contains U+FFFD: a name that was not valid UTF-8 before it reached "
          + "turndiff; give its bytes instead (base64)");
    }
    byte[] bytes;
    try {
      ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(java.nio.CharBuffer.wrap(input));
      bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
    } catch (CharacterCodingException e) {
      throw new BadPathException(input, "is not valid Unicode (an unpaired surrogate)");
    }
    return parse(bytes);
  }

  /** Checks and splits a path given as raw bytes. */
  public RequestedPath parse(byte[] input) {
    GivenPath given = GivenPath.of(input);
    String shown = given.display();
    if (input.length == 0) {
      throw new BadPathException(shown, "is empty");
    }
    for (byte b : input) {
      if (b == 0) {
        throw new BadPathException(shown.replace("\0", "\\0"), "contains a NUL byte");
      }
    }
    if (input.length > RequestedPath.PATH_MAX) {
      throw new BadPathException(shown.substring(0, 60) + "…", "is " + input.length
          + " bytes long; the kernel opens names of at most " + RequestedPath.PATH_MAX + " bytes");
    }
    if (input[input.length - 1] == '/') {
      throw new BadPathException(shown, "ends with '/': it names a directory, and snapshots are of files");
    }
    List<byte[]> components = RequestedPath.split(input);
    for (byte[] component : components) {
      if (component.length > RequestedPath.NAME_MAX) {
        throw new BadPathException(shown.length() > 80 ? shown.substring(0, 80) + "…" : shown,
            "has a component of " + component.length + " bytes; names are at most " + RequestedPath.NAME_MAX);
      }
    }
    if (input[0] == '/') {
      List<byte[]> absolute = RequestedPath.normalizeLexically(components);
      for (Path root : List.of(rootReal, rootGiven)) {
        List<byte[]> rootComponents = RequestedPath.normalizeLexically(RequestedPath.split(nameBytes(root)));
        if (RequestedPath.startsWith(absolute, rootComponents)) {
          List<byte[]> inside = absolute.subList(rootComponents.size(), absolute.size());
          if (inside.isEmpty()) {
            throw new BadPathException(shown, "is the workspace root, a directory");
          }
          return new RequestedPath.Inside(given, List.copyOf(inside));
        }
      }
      return new RequestedPath.Outside(given, WorkspacePath.outside(RequestedPath.joinAbsolute(absolute)));
    }
    int depth = 0;
    for (byte[] component : components) {
      if (RequestedPath.isDot(component)) {
        continue;
      }
      depth += RequestedPath.isDotDot(component) ? -1 : 1;
      if (depth < 0) {
        List<byte[]> joined = new ArrayList<>(RequestedPath.split(nameBytes(rootReal)));
        joined.addAll(components);
        return new RequestedPath.Outside(given,
            WorkspacePath.outside(RequestedPath.joinAbsolute(RequestedPath.normalizeLexically(joined))));
      }
    }
    if (depth == 0) {
      throw new BadPathException(shown, "names the workspace root, a directory");
    }
    return new RequestedPath.Inside(given, List.copyOf(components));
  }
}
