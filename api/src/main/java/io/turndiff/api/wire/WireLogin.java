package io.turndiff.api.wire;

/**
 * A login's answer, beside its session cookie: the anti-CSRF value and the header every later call
 * of the page carries it in ({@code POST /v1/login}).
 */
public record WireLogin(String csrf, String csrfHeader) {}
