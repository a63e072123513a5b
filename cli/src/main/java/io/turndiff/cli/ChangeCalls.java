package io.turndiff.cli;

import io.turndiff.model.MadeDuring;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredToolCall;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The lines of {@code show} that say which tool calls a turn's changes were made during (issue 27):
 * one per change a scan found during shell calls or outside any call, e.g. {@code a.txt: during
 * Bash call toolu_1 (sed -i s/a/b/ a.txt)}. Changes a tool call named, and those whose calls are
 * not known (without the watcher), have none: the file list says enough.
 */
final class ChangeCalls {

  private ChangeCalls() {}

  static String of(List<StoredFileChange> changes) {
    String lines =
        changes.stream()
            .filter(
                change ->
                    change.madeDuring() == MadeDuring.CALLS
                        || change.madeDuring() == MadeDuring.OUTSIDE)
            .map(change -> " " + Terminal.printable(change.path().display()) + ": " + of(change))
            .collect(Collectors.joining("\n"));
    return lines.isEmpty() ? "" : "\n" + lines + "\n";
  }

  private static String of(StoredFileChange change) {
    if (change.madeDuring() == MadeDuring.OUTSIDE) {
      return "outside any tool call (a rewind of the turn leaves it unless forced)";
    }
    return "during "
        + change.calls().stream().map(ChangeCalls::call).collect(Collectors.joining(" and "));
  }

  private static String call(StoredToolCall call) {
    return call.toolName().orElse("tool")
        + " call "
        + Terminal.printable(call.externalId())
        + call.command().map(command -> " (" + Terminal.printable(command) + ")").orElse("");
  }
}
