package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.model.BoundaryKind;
import java.nio.file.Path;

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

  /**
   * The boundary of {@code root} with the mechanism of {@code kind} and the default options,
   * checked to be of that kind (the test skipped where this mode holds none).
   */
  static WorkspaceBoundary open(Path root, BoundaryKind kind) {
    WorkspaceBoundary boundary =
        WorkspaceBoundary.open(root, BoundaryOptions.builder().mechanism(mechanism(kind)).build());
    assertEquals(kind, boundary.kind());
    return boundary;
  }
}
