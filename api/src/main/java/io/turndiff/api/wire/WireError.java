package io.turndiff.api.wire;

/** An error: a code a client can switch on, and a message naming the input. */
public record WireError(String error, String message) {}
