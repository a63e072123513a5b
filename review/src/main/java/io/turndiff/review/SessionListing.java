package io.turndiff.review;

import io.turndiff.store.StoredSession;

/** A session of a workspace, with how many turns it has. */
public record SessionListing(StoredSession session, int turns) {}
