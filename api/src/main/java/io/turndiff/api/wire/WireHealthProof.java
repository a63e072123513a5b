package io.turndiff.api.wire;

/** {@code GET /v1/health?challenge=NONCE}: the instance and its proof (members in this order). */
public record WireHealthProof(boolean ok, String instance, long pid, String proof) {}
