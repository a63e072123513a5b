package io.turndiff.diff;

import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * Writes one path's change as git writes it ({@code diff --git}, {@code new file mode}, {@code
 * deleted file mode}, {@code old mode}/{@code new mode}, {@code index}, {@code --- /dev/null},
 * unified hunks), so that {@code git apply} turns the before-tree into the after-tree and {@code
 * git apply -R} turns it back. A type change (file to symlink) is a delete and an add, as in git; a
 * directory holds no file, as git sees it (a file replaced by a directory is that file deleted). A
 * side whose content was not captured, or is stored but too large to show, becomes a comment-only
 * entry that says so, and never holds content.
 */
public final class GitPatchWriter {

  /** How binary content appears: a one-line summary, or git's applicable binary literal. */
  public enum BinaryStyle {
    SUMMARY,
    LITERAL
  }

  private final BinaryStyle binaryStyle;
  private final DiffOptions options;

  /** A writer of the hunks git draws by default (what the store keeps). */
  public GitPatchWriter(BinaryStyle binaryStyle) {
    this(binaryStyle, DiffOptions.DEFAULT);
  }

  /** A writer of the hunks {@code options} draw (a reader's whitespace and context). */
  public GitPatchWriter(BinaryStyle binaryStyle, DiffOptions options) {
    this.binaryStyle = binaryStyle;
    this.options = options;
  }

  public FilePatch write(WorkspacePath path, PatchSide before, PatchSide after) {
    if (before instanceof PatchSide.Directory || after instanceof PatchSide.Directory) {
      return withDirectory(path, before, after);
    }
    if (before instanceof PatchSide.NotCaptured
        || after instanceof PatchSide.NotCaptured
        || before instanceof PatchSide.TooLargeToShow
        || after instanceof PatchSide.TooLargeToShow) {
      return notCaptured(path, before, after);
    }
    if (before instanceof PatchSide.Absent && after instanceof PatchSide.Absent) {
      return FilePatch.NONE;
    }
    if (before instanceof PatchSide.Absent) {
      return entry(path, Optional.empty(), Optional.of(Entry.of(after)));
    }
    if (after instanceof PatchSide.Absent) {
      return entry(path, Optional.of(Entry.of(before)), Optional.empty());
    }
    Entry old = Entry.of(before);
    Entry updated = Entry.of(after);
    if (old.symlink() != updated.symlink()) {
      return entry(path, Optional.of(old), Optional.empty())
          .then(entry(path, Optional.empty(), Optional.of(updated)));
    }
    FilePatch patch = entry(path, Optional.of(old), Optional.of(updated));
    if (before instanceof PatchSide.File a
        && after instanceof PatchSide.File b
        && (a.mode() & 07777) != (b.mode() & 07777)
        && old.gitMode().equals(updated.gitMode())) {
      // permission changes git cannot express (it only knows the executable bit) are still shown
      String note =
          "# turndiff: "
              + printable(path)
              + ": mode "
              + octal(a.mode())
              + " -> "
              + octal(b.mode())
              + " (not expressible in a git patch)\n";
      return new FilePatch(note + patch.text(), patch.added(), patch.removed(), patch.binary());
    }
    return patch;
  }

  /**
   * A change with a directory on a side. Git records no directories: as git sees the path, a
   * directory holds no file there (its files are entries of their own), so a file replaced by a
   * directory is that file deleted, and a directory replaced by a file is that file added, as
   * {@code git diff} writes them and {@code git apply} applies them. A directory that appeared or
   * went, or whose permission bits changed, has no git entry: a comment says so, which {@code git
   * apply} skips.
   */
  private FilePatch withDirectory(WorkspacePath path, PatchSide before, PatchSide after) {
    if (before instanceof PatchSide.Directory old && after instanceof PatchSide.Directory updated) {
      return old.mode() == updated.mode()
          ? FilePatch.NONE
          : comment(
              path,
              "directory mode "
                  + octal(old.mode())
                  + " -> "
                  + octal(updated.mode())
                  + " (git records no directories)");
    }
    PatchSide fileBefore = before instanceof PatchSide.Directory ? new PatchSide.Absent() : before;
    PatchSide fileAfter = after instanceof PatchSide.Directory ? new PatchSide.Absent() : after;
    if (fileBefore instanceof PatchSide.Absent && fileAfter instanceof PatchSide.Absent) {
      return after instanceof PatchSide.Directory created
          ? comment(
              path,
              "directory created (mode " + octal(created.mode()) + "; git records no directories)")
          : comment(
              path,
              "directory removed (mode "
                  + octal(((PatchSide.Directory) before).mode())
                  + "; git records no directories)");
    }
    return write(path, fileBefore, fileAfter);
  }

  private static FilePatch comment(WorkspacePath path, String text) {
    return new FilePatch("# turndiff: " + printable(path) + ": " + text + "\n", 0, 0, false);
  }

  private static String octal(int mode) {
    return String.format("%04o", mode & 07777);
  }

  /** A side as git sees it: content and mode. */
  private record Entry(byte[] content, String gitMode, boolean symlink) {
    static Entry of(PatchSide side) {
      return switch (side) {
        case PatchSide.File file ->
            new Entry(file.content(), (file.mode() & 0100) != 0 ? "100755" : "100644", false);
        case PatchSide.Link link -> new Entry(link.text(), "120000", true);
        default -> throw new IllegalArgumentException("no git entry for " + side);
      };
    }
  }

  private FilePatch entry(WorkspacePath path, Optional<Entry> before, Optional<Entry> after) {
    return entry(path.bytes(), path.bytes(), before, after, Optional.empty());
  }

  /**
   * A rename of {@code rename.from()} to {@code rename.to()} as {@code git diff -M} writes it: the
   * two names on the {@code diff --git} line, a mode change first, then {@code similarity index},
   * {@code rename from} and {@code rename to}, and the hunks from the old content to the new (none
   * for a pure rename). A side the writer cannot show whole (not captured, too large, a directory,
   * a change of type) is not a rename it can write: it gives the deletion and the addition apart,
   * as without rename detection.
   */
  public FilePatch writeRename(Rename rename, PatchSide before, PatchSide after) {
    boolean showable =
        (before instanceof PatchSide.File || before instanceof PatchSide.Link)
            && (after instanceof PatchSide.File || after instanceof PatchSide.Link);
    if (!showable || Entry.of(before).symlink() != Entry.of(after).symlink()) {
      return write(rename.from(), before, new PatchSide.Absent())
          .then(write(rename.to(), new PatchSide.Absent(), after));
    }
    return entry(
        rename.from().bytes(),
        rename.to().bytes(),
        Optional.of(Entry.of(before)),
        Optional.of(Entry.of(after)),
        Optional.of(rename.similarity()));
  }

  private FilePatch entry(
      byte[] oldPath,
      byte[] newPath,
      Optional<Entry> before,
      Optional<Entry> after,
      Optional<Integer> similarity) {
    StringBuilder out = new StringBuilder();
    out.append("diff --git ")
        .append(GitPaths.header("a/", oldPath))
        .append(' ')
        .append(GitPaths.header("b/", newPath))
        .append('\n');
    String oldId = before.map(e -> GitBinary.blobId(e.content())).orElse(GitBinary.NO_OBJECT);
    String newId = after.map(e -> GitBinary.blobId(e.content())).orElse(GitBinary.NO_OBJECT);
    if (before.isEmpty()) {
      out.append("new file mode ").append(after.get().gitMode()).append('\n');
      out.append("index ").append(oldId).append("..").append(newId).append('\n');
    } else if (after.isEmpty()) {
      out.append("deleted file mode ").append(before.get().gitMode()).append('\n');
      out.append("index ").append(oldId).append("..").append(newId).append('\n');
    } else {
      boolean modeChanged = !before.get().gitMode().equals(after.get().gitMode());
      if (modeChanged) {
        out.append("old mode ").append(before.get().gitMode()).append('\n');
        out.append("new mode ").append(after.get().gitMode()).append('\n');
      }
      similarity.ifPresent(
          percent ->
              out.append("similarity index ")
                  .append(percent)
                  .append("%\n")
                  .append("rename from ")
                  .append(GitPaths.header("", oldPath))
                  .append("\nrename to ")
                  .append(GitPaths.header("", newPath))
                  .append('\n'));
      if (oldId.equals(newId)) {
        return modeChanged || similarity.isPresent()
            ? new FilePatch(out.toString(), 0, 0, false)
            : FilePatch.NONE;
      }
      out.append("index ").append(oldId).append("..").append(newId);
      if (!modeChanged) {
        out.append(' ').append(before.get().gitMode());
      }
      out.append('\n');
    }
    byte[] oldContent = before.map(Entry::content).orElse(new byte[0]);
    byte[] newContent = after.map(Entry::content).orElse(new byte[0]);
    Optional<TextContent> oldText = TextContent.of(oldContent);
    Optional<TextContent> newText = TextContent.of(newContent);
    String oldName = before.isPresent() ? GitPaths.header("a/", oldPath) : "/dev/null";
    String newName = after.isPresent() ? GitPaths.header("b/", newPath) : "/dev/null";
    if (oldText.isEmpty() || newText.isEmpty()) {
      if (binaryStyle == BinaryStyle.SUMMARY) {
        out.append("Binary files ")
            .append(oldName)
            .append(" and ")
            .append(newName)
            .append(" differ\n");
      } else {
        out.append("GIT binary patch\n")
            .append(GitBinary.literal(newContent))
            .append(GitBinary.literal(oldContent));
      }
      return new FilePatch(out.toString(), 0, 0, true);
    }
    if (oldContent.length == 0 && newContent.length == 0) {
      return new FilePatch(out.toString(), 0, 0, false);
    }
    LineDiff.Result hunks =
        LineDiff.diff(oldText.get().lines(), newText.get().lines(), DiffBudget.DEFAULT, options);
    if (hunks.hunks().isEmpty()) {
      // only whitespace changed, and whitespace is ignored: the entry's header alone, so that a
      // reader still sees that the file changed, and that no line did but in whitespace
      return new FilePatch(out.toString(), 0, 0, false);
    }
    out.append("--- ").append(oldName).append('\n');
    out.append("+++ ").append(newName).append('\n');
    out.append(hunks.hunks());
    return new FilePatch(out.toString(), hunks.added(), hunks.removed(), false);
  }

  private static FilePatch notCaptured(WorkspacePath path, PatchSide before, PatchSide after) {
    StringBuilder out = new StringBuilder();
    appendNotCaptured(out, path, "before", before);
    appendNotCaptured(out, path, "after", after);
    return new FilePatch(out.toString(), 0, 0, false);
  }

  private static void appendNotCaptured(
      StringBuilder out, WorkspacePath path, String side, PatchSide state) {
    if (state instanceof PatchSide.TooLargeToShow large) {
      out.append("# turndiff: ")
          .append(printable(path))
          .append(": ")
          .append(side)
          .append("-state stored (")
          .append(large.size())
          .append(" bytes, too large to show); no content is shown\n");
    }
    if (state instanceof PatchSide.NotCaptured notCaptured) {
      out.append("# turndiff: ")
          .append(printable(path))
          .append(": ")
          .append(side)
          .append("-state not captured (")
          .append(notCaptured.reason().code())
          .append(')');
      if (!notCaptured.detail().isEmpty()) {
        out.append(": ").append(oneLine(notCaptured.detail()));
      }
      out.append("; no content is shown\n");
    }
  }

  private static String printable(WorkspacePath path) {
    return oneLine(path.display());
  }

  private static String oneLine(String text) {
    return text.replace("\r", "\\r").replace("\n", "\\n");
  }
}
