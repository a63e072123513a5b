package io.turndiff.store;

/**
 * A turn as a list of turns shows it: the turn, how many paths it recorded and how many of them
 * changed, and the lines added and removed.
 */
public record TurnListing(
    StoredTurn turn, int files, int changed, long linesAdded, long linesRemoved) {}
