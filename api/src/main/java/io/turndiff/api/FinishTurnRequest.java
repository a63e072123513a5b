package io.turndiff.api;

/** {@code POST /v1/turns/{turn}/finish}: no fields (an empty body, or {@code {}}). */
public record FinishTurnRequest() {}
