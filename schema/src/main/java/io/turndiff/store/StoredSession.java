package io.turndiff.store;

import java.time.Instant;

public record StoredSession(long id, String externalId, long workspaceId, Instant createdAt) {}
