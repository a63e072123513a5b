package io.turndiff.diff;

/**
 * The patch text of one path (possibly several git entries, e.g. a delete and an add for a type
 * change, or a comment for content that was not captured) and its line counts.
 */
public record FilePatch(String text, int added, int removed, boolean binary) {

  public static final FilePatch NONE = new FilePatch("", 0, 0, false);

  /** This patch followed by {@code next}, as one path's text and counts. */
  public FilePatch then(FilePatch next) {
    return new FilePatch(
        text + next.text, added + next.added, removed + next.removed, binary || next.binary);
  }

  public boolean isEmpty() {
    return text.isEmpty();
  }
}
