package io.turndiff.store;

import java.util.Optional;

/**
 * A tool call as stored: what a user recognizes it by, and whether it is a shell call whose end is
 * awaited.
 *
 * @param id its row
 * @param turnId its turn's row
 * @param externalId the runtime's id of the call (or the one turndiff generated)
 * @param toolName the runtime's tool name ({@code Bash}, {@code run_shell_command}), when its hook
 *     gave it
 * @param command the first line of the call's command, at most {@link ToolCalls#COMMAND_CHARS}
 *     characters, when the payload carried one
 * @param shell a shell call bracketed by its Pre and Post hooks: it owns what the watcher saw
 *     change while it was in flight
 * @param ended whether its end came (its Post hook, or its turn's finish)
 */
public record StoredToolCall(
    long id,
    long turnId,
    String externalId,
    Optional<String> toolName,
    Optional<String> command,
    boolean shell,
    boolean ended) {}
