package io.turndiff.api.wire;

/**
 * A runtime's own session file for the workspace written while none of its hooks arrived from there
 * ({@code hooks status}, {@code session_files}; {@code doctor}): the runtime worked in the
 * workspace with its hooks not firing. {@code file} is the newest such file and {@code written_at}
 * its modification time; {@code since} the oldest such file's, the first sign; {@code last_hook_at}
 * the last hook call of the runtime from the workspace that the service received (null: none it or
 * its store kept); {@code installed} whether turndiff's hooks for the runtime are in a settings
 * file it reads here; {@code warning} the sentence shown ({@code hooks may not be firing for R
 * since T: its session file F was written at T and no hook arrived …}).
 */
public record WireSessionFileEvidence(
    String runtime,
    String file,
    String writtenAt,
    String since,
    String lastHookAt,
    boolean installed,
    String warning) {}
