package io.turndiff.api.wire;

/**
 * A runtime's process at work in the workspace while none of its hooks arrived ({@code hooks
 * status}, {@code processes}; {@code doctor}): the process {@code pid}, started at {@code
 * started_at}, works in {@code directory} (the workspace or a directory below it), and its session
 * file {@code file} was written at {@code written_at}, after the process started and after the last
 * hook call of the runtime from the workspace that the service received ({@code last_hook_at},
 * null: none it or its store kept) and its grace. {@code installed}: turndiff's hooks for the
 * runtime are in a settings file it reads here; {@code warning} the sentence shown ({@code hooks
 * may not be firing for R: its process PID has run in W since T and no hook arrived since …}).
 */
public record WireProcessEvidence(
    String runtime,
    long pid,
    String directory,
    String startedAt,
    String lastHookAt,
    String file,
    String writtenAt,
    boolean installed,
    String warning) {}
