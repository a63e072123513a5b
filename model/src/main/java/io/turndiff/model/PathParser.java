package io.turndiff.model;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place a path an agent gives is read: it checks and splits it against the names of one
 * workspace root and says whether it is inside (components relative to the root) or outside (its
 * normalized absolute name). Capture parses what a tool is about to change; the review parses the
 * paths it is asked about against the roots the store recorded. It only reads names: nothing is
 * looked up on disk, so a path it accepts is still to be resolved through the boundary.
 */
public final class PathParser {

  private final RootNames roots;

  private PathParser(RootNames roots) {
    this.roots = roots;
  }

  /** A parser for paths beneath the root that goes by {@code roots}. */
  public static PathParser beneath(RootNames roots) {
    return new PathParser(roots);
  }

  /**
   * @param rootReal the root's real path, as the boundary resolved it
   * @param rootGiven the root as given (absolute, normalized): an absolute path under either is
   *     inside
   */
  public PathParser(Path rootReal, Path rootGiven) {
    this(RootNames.of(rootReal, rootGiven));
  }

  /** A path's name as the bytes the kernel is given for it (the JVM's file name encoding). */
  public static byte[] nameBytes(Path path) {
    return RootNames.nameBytes(path.toString());
  }

  /**
   * Checks and splits a path as an agent gave it. A text is held to the rule of {@link #bytesOf}
   * whatever else the call carries (a text beside a base64 path is still a text); bytes are exact
   * and only checked as names.
   *
   * @throws BadPathException naming the input and the problem
   */
  public RequestedPath parse(PathInput input) {
    byte[] bytes =
        switch (input) {
          case PathInput.Text text -> bytesOf(text.text());
          case PathInput.Bytes raw -> raw.given().bytes();
        };
    return parse(bytes);
  }

  /**
   * The key a record of {@code input} is stored under, for the review ({@code log PATH}, {@code
   * diff --turn T PATH}): the path parsed as a snapshot's paths are, then {@code .} and {@code ..}
   * applied to the name ({@code a/./b} is {@code a/b}). Nothing is resolved, since the review reads
   * the store and never the workspace: a record made through a symlink is found by the path it was
   * given as ({@code via}, compared with {@link PathInput#given()}). A path outside the workspace
   * gives the key a snapshot records it under (metadata only), so its history can be looked up too.
   *
   * @throws BadPathException naming the input and the problem, as {@link #parse} does
   */
  public WorkspacePath recorded(PathInput input) {
    return parse(input).lexicalKey();
  }

  /**
   * A text's bytes. A text that holds U+FFFD or an unpaired surrogate is refused: it is a name that
   * was not valid UTF-8 before it reached turndiff, and guessing its bytes could make two names
   * one. Such names are given as bytes. (Exact bytes are never refused for this: they are the
   * name.)
   */
  private static byte[] bytesOf(String text) {
    if (text.indexOf('\uFFFD') >= 0) {
      throw new BadPathException(
          text,
          "contains U+FFFD: a name that was not valid UTF-8 before it reached "
              + "turndiff; give its bytes instead (base64)");
    }
    try {
      ByteBuffer encoded =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(text));
      byte[] bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new BadPathException(text, "is not valid Unicode (an unpaired surrogate)");
    }
  }

  private RequestedPath parse(byte[] input) {
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
      throw new BadPathException(
          shown.substring(0, 60) + "…",
          "is "
              + input.length
              + " bytes long; the kernel opens names of at most "
              + RequestedPath.PATH_MAX
              + " bytes");
    }
    if (input[input.length - 1] == '/') {
      throw new BadPathException(
          shown, "ends with '/': it names a directory, and snapshots are of files");
    }
    List<byte[]> components = RequestedPath.split(input);
    for (byte[] component : components) {
      if (component.length > RequestedPath.NAME_MAX) {
        throw new BadPathException(
            shown.length() > 80 ? shown.substring(0, 80) + "…" : shown,
            "has a component of "
                + component.length
                + " bytes; names are at most "
                + RequestedPath.NAME_MAX);
      }
    }
    if (input[0] == '/') {
      List<byte[]> absolute = RequestedPath.normalizeLexically(components);
      for (List<byte[]> root : roots.all()) {
        if (RequestedPath.startsWith(absolute, root)) {
          List<byte[]> inside = absolute.subList(root.size(), absolute.size());
          if (inside.isEmpty()) {
            throw new BadPathException(shown, "is the workspace root, a directory");
          }
          return new RequestedPath.Inside(given, List.copyOf(inside));
        }
      }
      return new RequestedPath.Outside(
          given, WorkspacePath.outside(RequestedPath.joinAbsolute(absolute)));
    }
    int depth = 0;
    for (byte[] component : components) {
      if (RequestedPath.isDot(component)) {
        continue;
      }
      depth += RequestedPath.isDotDot(component) ? -1 : 1;
      if (depth < 0) {
        List<byte[]> joined = new ArrayList<>(roots.real());
        joined.addAll(components);
        return new RequestedPath.Outside(
            given,
            WorkspacePath.outside(
                RequestedPath.joinAbsolute(RequestedPath.normalizeLexically(joined))));
      }
    }
    if (depth == 0) {
      throw new BadPathException(shown, "names the workspace root, a directory");
    }
    return new RequestedPath.Inside(given, List.copyOf(components));
  }
}
