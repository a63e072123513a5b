package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a symlink that leads out of the workspace names a directory, so that the link is recorded as the
 * link alone (a directory is never a file change) instead of as an escape. Only the type of the name the
 * link's text gives is looked at, with {@code lstat} (the same metadata-only look an outside path given to
 * turndiff gets): nothing outside is opened, listed or read, and a name that is itself a link counts as not
 * a directory, so only a plain directory makes the difference.
 */
final class OutsideLinkTarget {

  private OutsideLinkTarget() {
  }

  static boolean isDirectory(Path rootReal, PathResolver.Link link) {
    byte[] text = link.text();
    List<byte[]> absolute = new ArrayList<>();
    if (text.length == 0 || text[0] != '/') {
      absolute.addAll(RequestedPath.split(nameBytes(rootReal)));
      absolute.addAll(link.path().parentComponents());
    }
    absolute.addAll(RequestedPath.split(text));
    byte[] target = RequestedPath.joinAbsolute(RequestedPath.normalizeLexically(absolute));
    try {
      Path path = Path.of(new String(target, encoding()));
      return Files.readAttributes(path, BasicFileAttributes.class, NOFOLLOW_LINKS).isDirectory();
    } catch (IOException | InvalidPathException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static Charset encoding() {
    return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
  }

  private static byte[] nameBytes(Path path) {
    return path.toString().getBytes(encoding());
  }
}
