package io.turndiff.store;

/**
 * A turn as a list of turns shows it: the turn, how many paths it recorded and how many of them
 * changed, the lines added and removed, and the counts a finished turn's summary gives.
 *
 * @param notRestorable the changed paths whose before-state a rewind cannot put back (not captured,
 *     or the change is {@code unknown}); a path changed from a directory to a directory is none.
 *     While the turn is open, a path with no change yet counts as changed
 * @param detectedByScan the paths the tracked workspace's finish scan found, that no snapshot call
 *     announced
 */
public record TurnListing(
    StoredTurn turn,
    int files,
    int changed,
    long linesAdded,
    long linesRemoved,
    int notRestorable,
    int detectedByScan) {}
