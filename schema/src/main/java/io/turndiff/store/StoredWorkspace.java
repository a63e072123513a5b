package io.turndiff.store;

import java.time.Instant;

/**
 * A workspace row: the root as the runtime gave it, its real path, and the identity (device, inode)
 * of the root directory when it was last opened.
 */
public record StoredWorkspace(
    long id,
    String rootGiven,
    String rootReal,
    long rootDevice,
    long rootInode,
    Instant createdAt) {}
