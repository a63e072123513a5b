package io.turndiff.api.wire;

/** A one-time login code and the URL that carries it: {@code POST /v1/login-codes}. */
public record WireLoginCode(String code, String url, String expiresAt) {}
