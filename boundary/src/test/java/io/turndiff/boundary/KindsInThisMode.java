package io.turndiff.boundary;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.model.BoundaryKind;

/**
 * The mechanism a test parameterised by boundary kind asks for; the test is skipped where this
 * process's {@link Portability} mode holds no root of that kind (the posix mode: openat only).
 */
final class KindsInThisMode {

  private KindsInThisMode() {}

  static BoundaryOptions.Mechanism mechanism(BoundaryKind kind) {
    BoundaryOptions.Mechanism mechanism = BoundaryOptions.Mechanism.of(kind);
    assumeTrue(
        Portability.current().allows(mechanism),
        "the " + Portability.current().value() + " mode holds no root with " + mechanism.option());
    return mechanism;
  }
}
