package io.turndiff.store;

import io.turndiff.model.Snapshot;
import java.util.Optional;

/**
 * One tool call of a file change, with the before-state it found (issue 24): the state the path was
 * in when that call began, which a rewind to before the call puts back.
 *
 * @param call the tool call
 * @param beforeRow the row of the before-state the call found, when it was kept: empty for the
 *     change's first call (whose before-state is the change's own), and for a later call linked
 *     before V19 (not known)
 * @param before that before-state
 */
public record StoredCallBefore(
    StoredToolCall call, Optional<Long> beforeRow, Optional<Snapshot> before) {}
