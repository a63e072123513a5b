package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * {@code turndiff config}: the retention policy kept with the store, and {@code prompts}: whether
 * the store keeps the prompts that made turns ({@code keep} or {@code none}, as {@link
 * io.turndiff.store.Prompts#kept} decides, the setting or the store's default).
 */
public record WireConfig(@JsonUnwrapped WireRetentionConfig retention, String prompts) {}
