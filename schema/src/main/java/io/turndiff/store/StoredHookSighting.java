package io.turndiff.store;

import io.turndiff.model.RuntimeProcess;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code hook_sighting} row (migration V26): what the hook calls of one runtime in one directory
 * showed, as the service last wrote it.
 *
 * @param runtime the runtime's name ({@code claude-code}, {@code codex}, …)
 * @param directory the directory its session's prompt began in
 * @param session the runtime's session id of the last call
 * @param lastAt when the last call came
 * @param lastEvent the runtime's name of the last call's event
 * @param runtimeVersion the runtime's version as its hook script reported it, when it did
 * @param process the runtime's process as its hook script named it, when it did
 * @param promptAt when the last prompt's first call came, when a prompt was seen
 * @param promptBegun whether the last prompt's begin arrived
 * @param promptToolCalls how many of its tool calls arrived
 * @param promptEnded whether its end arrived
 * @param promptRuntimeTurn the runtime's own id of that prompt, when it gives one
 * @param promptTurn the turndiff turn its calls reached, when one did
 * @param warnedSince when the standing warning was first seen, with {@code warning}
 * @param warning the standing warning, when hooks that should have come did not
 */
public record StoredHookSighting(
    String runtime,
    String directory,
    String session,
    Instant lastAt,
    String lastEvent,
    Optional<String> runtimeVersion,
    Optional<RuntimeProcess> process,
    Optional<Instant> promptAt,
    boolean promptBegun,
    long promptToolCalls,
    boolean promptEnded,
    Optional<String> promptRuntimeTurn,
    Optional<String> promptTurn,
    Optional<Instant> warnedSince,
    Optional<String> warning) {

  public StoredHookSighting {
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(lastAt, "lastAt");
    Objects.requireNonNull(lastEvent, "lastEvent");
    if (warnedSince.isPresent() != warning.isPresent()) {
      throw new IllegalArgumentException("a warning goes with the time it was first seen");
    }
    if (promptToolCalls < 0) {
      throw new IllegalArgumentException("a count is not negative, not " + promptToolCalls);
    }
  }
}
