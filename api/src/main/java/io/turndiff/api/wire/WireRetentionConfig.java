package io.turndiff.api.wire;

import io.turndiff.store.RetentionPolicy;

/**
 * {@code turndiff config}: the retention policy kept with the store (null where a criterion is not
 * set); {@code older_than} in ISO-8601.
 */
public record WireRetentionConfig(String olderThan, Integer keepTurns, Long maxSize) {

  public static WireRetentionConfig of(RetentionPolicy policy) {
    return new WireRetentionConfig(
        policy.olderThan().map(Object::toString).orElse(null),
        policy.keepTurns().isPresent() ? policy.keepTurns().getAsInt() : null,
        policy.maxSize().isPresent() ? policy.maxSize().getAsLong() : null);
  }
}
