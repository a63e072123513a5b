package io.turndiff.store;

import io.turndiff.model.DirectoryState;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * A directory above paths a turn recorded: its state when the turn first recorded a path under it,
 * and when the turn finished ({@code after} is empty while the turn is open, or when it was then
 * neither a directory nor absent).
 */
public record StoredDirectoryChange(
    long turnId, WorkspacePath path, DirectoryState before, Optional<DirectoryState> after) {}
