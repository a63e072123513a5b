package io.turndiff.hooks.install;

import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.api.wire.WireProcessEvidence;
import io.turndiff.hooks.install.RuntimeProcesses.Seen;
import io.turndiff.hooks.install.RuntimeSessionFiles.SessionFile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Evidence from outside the hooks that a runtime's hooks are not firing, from its process (issue
 * 21, item 0): a runtime process of the user's works in the workspace ({@link RuntimeProcesses})
 * and its session file grew ({@link RuntimeSessionFiles}) while no hook call of it from the
 * workspace arrived. Asked when {@code hooks status} or {@code doctor} runs, against the hook calls
 * the service (or, when it does not run, its store) kept; it clears itself when the process exits
 * or the next prompt's hooks arrive.
 *
 * <p>A process alone is no evidence: a runtime waiting for the user's next prompt sends no hook and
 * writes nothing, for as long as the user takes. What tells that it works is its session file: the
 * runtime writes each prompt, answer and tool call there as it goes. The rule is at {@link #look}'s
 * line that decides.
 */
public final class ProcessEvidence {

  private final RuntimeProcesses processes;
  private final RuntimeSessionFiles files;

  public ProcessEvidence(RuntimeProcesses processes, RuntimeSessionFiles files) {
    this.processes = processes;
    this.files = files;
  }

  /**
   * Each runtime process working in the workspace {@code status} is about, known by {@code names}
   * (as given, and its real path), whose hooks are not arriving, against {@code hooksSeen}, the
   * hook calls kept from the workspace (its directory or below), at {@code now}: one evidence per
   * runtime at most, the oldest process's.
   */
  public List<WireProcessEvidence> look(
      WireHooksStatus status,
      Collection<Path> names,
      List<WireHookSighting> hooksSeen,
      Instant now) {
    List<WireProcessEvidence> found = new ArrayList<>();
    Set<HookRuntime> reported = EnumSet.noneOf(HookRuntime.class);
    // One warning per runtime, from its oldest process: the native codex starts children of its own
    // executable that live as long as it does, in its directory, so one runtime at work is two of
    // its processes here; two sessions of one runtime in one workspace are one failure of its
    // hooks there. The oldest is the runtime that has worked longest, and its warning names the
    // earliest start.
    List<Seen> oldestFirst =
        processes.running().stream()
            .sorted(Comparator.comparing(Seen::startedAt).thenComparingLong(Seen::pid))
            .toList();
    for (Seen process : oldestFirst) {
      if (reported.contains(process.runtime())
          || names.stream().noneMatch(process.directory()::startsWith)) {
        continue; // already warned of, or at work elsewhere
      }
      List<WireHookSighting> seen =
          hooksSeen.stream().filter(s -> s.runtime().equals(process.runtime().id())).toList();
      Optional<Instant> lastHook =
          seen.stream().map(s -> Instant.parse(s.lastAt())).max(Instant::compareTo);
      // The rule. A process counts when (a) it has run for more than the grace: a prompt's first
      // hook may still be on its way (the hook waits for a service that is starting) while its
      // session file is already written; (b) its session file was written after it started and
      // more than the grace after the runtime's last hook call from here: the file is written a
      // moment after the hooks of its prompt (the Stop hook is called, then the file written), so
      // one written later is work no hook announced; (c) that session's prompt is not open: a
      // prompt whose begin came and whose end has not yet writes its file between tool calls, for
      // as long as a command or the model takes, with no hook (a command that runs for minutes).
      // An idle runtime writes nothing, so it is never flagged, however long it waits.
      long grace = SessionFileEvidence.GRACE_SECONDS;
      if (!now.isAfter(process.startedAt().plusSeconds(grace))) {
        continue;
      }
      Instant after = process.startedAt();
      if (lastHook.isPresent() && lastHook.get().plusSeconds(grace).isAfter(after)) {
        after = lastHook.get().plusSeconds(grace);
      }
      Set<String> open = SessionFileEvidence.openSessions(seen);
      List<SessionFile> written;
      try {
        written =
            files.written(process.runtime(), names, process.directory(), after).stream()
                .filter(file -> open.stream().noneMatch(file::isOf))
                .toList();
      } catch (IOException unreadable) {
        continue; // the runtime's folder could not be listed: no evidence either way
      }
      if (!written.isEmpty()) {
        reported.add(process.runtime());
        found.add(
            evidence(
                process,
                written.getFirst(),
                lastHook,
                SessionFileEvidence.installed(status, process.runtime())));
      }
    }
    return found;
  }

  private static WireProcessEvidence evidence(
      Seen process, SessionFile newest, Optional<Instant> lastHook, boolean installed) {
    String warning =
        "hooks may not be firing for "
            + process.runtime().id()
            + ": its process "
            + process.pid()
            + " has run in "
            + process.directory()
            + " since "
            + process.startedAt()
            + " and no hook arrived since"
            + lastHook.filter(at -> at.isAfter(process.startedAt())).map(at -> " " + at).orElse("")
            + ", while its session file "
            + newest.file()
            + " was written at "
            + newest.writtenAt()
            + lastHook
                .map(at -> " (the last hook from this workspace at " + at + ")")
                .orElse(" (none from this workspace was kept)");
    return new WireProcessEvidence(
        process.runtime().id(),
        process.pid(),
        process.directory().toString(),
        process.startedAt().toString(),
        lastHook.map(Instant::toString).orElse(null),
        newest.file().toString(),
        newest.writtenAt().toString(),
        installed,
        warning);
  }
}
