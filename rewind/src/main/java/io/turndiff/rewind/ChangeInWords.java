package io.turndiff.rewind;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Presence;
import io.turndiff.model.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What changed at a path between two of its states, in words a person reads in a rewind's plan
 * ("its content: 4,737 bytes now, 1,796 then; its mode: 0755 now, 0644 then"), where a conflict
 * used to name two fingerprints ({@code regular:4737:1796…:0755}). Pure: from the two snapshots
 * alone.
 */
final class ChangeInWords {

  private ChangeInWords() {}

  /**
   * How {@code now} differs from {@code then} (what the turns left); a state not captured is
   * described by what is known of it.
   */
  static String since(Optional<Snapshot> then, Snapshot now) {
    if (then.isEmpty()) {
      return "what the turns left is not known";
    }
    Snapshot left = then.get();
    if (now.presence() == Presence.ABSENT) {
      return "it was deleted";
    }
    if (left.presence() == Presence.ABSENT) {
      return "it was made again (" + kindOf(now) + ")";
    }
    if (!left.type().equals(now.type())) {
      return "it is " + kindOf(now) + " now, the turns left " + kindOf(left);
    }
    List<String> parts = new ArrayList<>();
    if (now.type().filter(type -> type == FileType.SYMLINK).isPresent()) {
      if (!now.linkTarget().equals(left.linkTarget())) {
        parts.add(
            "it points to "
                + now.linkTarget().map(LinkTarget::display).orElse("?")
                + " now, "
                + left.linkTarget().map(LinkTarget::display).orElse("?")
                + " then");
      }
    } else if (!sameContent(left, now)) {
      parts.add(
          "its content: " + size(now.metadata()) + " now, " + size(left.metadata()) + " then");
    }
    Optional<Integer> modeNow = now.metadata().map(FileMetadata::mode);
    Optional<Integer> modeThen = left.metadata().map(FileMetadata::mode);
    if (modeNow.isPresent() && modeThen.isPresent() && !modeNow.equals(modeThen)) {
      parts.add(
          "its mode: "
              + RewindDecision.octal(modeNow.get())
              + " now, "
              + RewindDecision.octal(modeThen.get())
              + " then");
    }
    return parts.isEmpty()
        ? "its state differs from what the turns left"
        : String.join("; ", parts);
  }

  private static boolean sameContent(Snapshot left, Snapshot now) {
    Optional<?> hashNow = now.sha256().or(now::sampledSha256);
    Optional<?> hashThen = left.sha256().or(left::sampledSha256);
    return hashNow.isPresent() && hashNow.equals(hashThen) && sizeOf(left) == sizeOf(now);
  }

  private static long sizeOf(Snapshot state) {
    return state.metadata().map(FileMetadata::size).orElse(-1L);
  }

  private static String size(Optional<FileMetadata> metadata) {
    return metadata
        .map(m -> String.format(Locale.ROOT, "%,d byte%s", m.size(), m.size() == 1 ? "" : "s"))
        .orElse("a size not known");
  }

  private static String kindOf(Snapshot state) {
    return switch (state.type().orElse(FileType.REGULAR)) {
      case REGULAR -> "a file";
      case SYMLINK -> "a symlink";
      case DIRECTORY -> "a directory";
      default -> "a special file";
    };
  }
}
