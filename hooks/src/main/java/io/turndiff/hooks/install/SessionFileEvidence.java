package io.turndiff.hooks.install;

import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.api.wire.WireSessionFileEvidence;
import io.turndiff.hooks.install.RuntimeSessionFiles.SessionFile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Evidence from outside the hooks that a runtime's hooks are not firing (issue 21, item 0): the
 * runtime's own session files show it worked in the workspace ({@link RuntimeSessionFiles}) after
 * the last hook call of it from the workspace arrived, or with none ever kept. Asked when {@code
 * hooks status} or {@code doctor} runs, from the hook calls the service (or, when it does not run,
 * its store) kept, so it clears itself: the next prompt whose hooks arrive moves the last call past
 * the file's time.
 *
 * <p>A session file is written after the hook calls of its prompt too (the {@code Stop} hook is
 * called, then the transcript written; later on a loaded machine): a file counts only when written
 * more than {@value #GRACE_SECONDS} s after the last call. A prompt still open (its begin came, its
 * end not yet, and the service did not finish its turn) writes its session file with no hook
 * between its tool calls, for as long as a command or the model takes: that session's file is not
 * evidence while the prompt is open. Files older than {@value #LOOK_BACK_DAYS} days are not looked
 * at.
 */
public final class SessionFileEvidence {

  static final long GRACE_SECONDS = 30;
  static final long LOOK_BACK_DAYS = 7;

  private static final List<HookRuntime> WRITING_SESSION_FILES =
      List.of(HookRuntime.CLAUDE_CODE, HookRuntime.CODEX, HookRuntime.GEMINI);

  private final RuntimeSessionFiles files;

  public SessionFileEvidence(RuntimeSessionFiles files) {
    this.files = files;
  }

  /**
   * What each runtime's session files show of the workspace {@code status} is about, known by
   * {@code names} (as given, and its real path), looked at from {@code here}, against {@code
   * hooksSeen}, the hook calls kept from the workspace (its directory or below), at {@code now}.
   */
  public List<WireSessionFileEvidence> look(
      WireHooksStatus status,
      Collection<Path> names,
      Path here,
      List<WireHookSighting> hooksSeen,
      Instant now) {
    List<WireSessionFileEvidence> found = new ArrayList<>();
    for (HookRuntime runtime : WRITING_SESSION_FILES) {
      List<WireHookSighting> seen =
          hooksSeen.stream().filter(s -> s.runtime().equals(runtime.id())).toList();
      Optional<Instant> lastHook =
          seen.stream().map(s -> Instant.parse(s.lastAt())).max(Instant::compareTo);
      Instant after = now.minus(Duration.ofDays(LOOK_BACK_DAYS));
      if (lastHook.isPresent() && lastHook.get().plusSeconds(GRACE_SECONDS).isAfter(after)) {
        after = lastHook.get().plusSeconds(GRACE_SECONDS);
      }
      Set<String> open = openSessions(seen);
      List<SessionFile> written;
      try {
        written =
            files.written(runtime, names, here, after).stream()
                .filter(file -> open.stream().noneMatch(file::isOf))
                .toList();
      } catch (IOException unreadable) {
        continue; // the runtime's folder could not be listed: no evidence either way
      }
      if (!written.isEmpty()) {
        found.add(evidence(runtime, written, lastHook, installed(status, runtime)));
      }
    }
    return found;
  }

  /** The sessions whose last prompt is open: begun, not ended, its turn not finished for it. */
  static Set<String> openSessions(List<WireHookSighting> seen) {
    return seen.stream()
        .filter(s -> s.prompt() != null)
        .filter(s -> s.prompt().begin() && !s.prompt().end() && s.prompt().finishedBy() == null)
        .map(WireHookSighting::session)
        .collect(Collectors.toSet());
  }

  static boolean installed(WireHooksStatus status, HookRuntime runtime) {
    return status.installations().stream()
        .anyMatch(i -> i.runtime().equals(runtime.id()) && i.installed());
  }

  private static WireSessionFileEvidence evidence(
      HookRuntime runtime,
      List<SessionFile> written,
      Optional<Instant> lastHook,
      boolean installed) {
    SessionFile newest = written.getFirst();
    Instant since = written.getLast().writtenAt();
    String warning =
        "hooks may not be firing for "
            + runtime.id()
            + " since "
            + since
            + ": its session file "
            + newest.file()
            + " was written at "
            + newest.writtenAt()
            + " and no hook arrived"
            + lastHook
                .map(at -> " (the last from this workspace at " + at + ")")
                .orElse(" (none from this workspace was kept)");
    return new WireSessionFileEvidence(
        runtime.id(),
        newest.file().toString(),
        newest.writtenAt().toString(),
        since.toString(),
        lastHook.map(Instant::toString).orElse(null),
        installed,
        warning);
  }
}
