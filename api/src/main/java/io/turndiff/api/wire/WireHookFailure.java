package io.turndiff.api.wire;

/**
 * A hook call whose work failed ({@code GET /v1/service/status}, {@code last_failures}): the
 * runtime was answered {@code 204} all the same.
 */
public record WireHookFailure(
    String at, String runtime, String event, String session, String error, String message) {}
