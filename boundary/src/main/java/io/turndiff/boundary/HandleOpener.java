package io.turndiff.boundary;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Opens the root handle a {@link BoundaryOptions.Mechanism} asks for; {@code AUTO} takes the
 * strongest that works, and in the {@link Portability#POSIX} mode it is openat per component, with
 * no other handle to fall back to (the mode exists to run what a POSIX port has).
 */
final class HandleOpener {

  private HandleOpener() {}

  /**
   * @throws BoundaryException when the root cannot be opened, or the mechanism asked for is not
   *     available here
   */
  static RootHandle open(Path real, BoundaryOptions options) {
    Portability mode = Portability.current();
    if (!mode.allows(options.mechanism())) {
      throw new BoundaryException(
          "the "
              + options.mechanism().option()
              + " boundary is not used in the posix mode ("
              + Portability.VARIABLE
              + "=posix): only openat");
    }
    if (mode == Portability.POSIX) {
      return required(() -> FdHandle.open(real, FdHandle.Resolution.OPENAT), "openat");
    }
    return switch (options.mechanism()) {
      case OPENAT2 -> required(() -> FdHandle.open(real, FdHandle.Resolution.OPENAT2), "openat2");
      case OPENAT -> required(() -> FdHandle.open(real, FdHandle.Resolution.OPENAT), "openat");
      case SECURE_DIRECTORY_STREAM -> stream(real, options);
      case AUTO -> {
        for (FdHandle.Resolution resolution : FdHandle.Resolution.values()) {
          try {
            yield FdHandle.open(real, resolution);
          } catch (UnsupportedOperationException | LinkageError unavailable) {
            // the next one down
          }
        }
        yield stream(real, options);
      }
    };
  }

  private static RootHandle required(Supplier<RootHandle> open, String what) {
    try {
      return open.get();
    } catch (UnsupportedOperationException | LinkageError unavailable) {
      throw new BoundaryException(
          "the " + what + " boundary is not available here: " + unavailable.getMessage());
    }
  }

  private static RootHandle stream(Path real, BoundaryOptions options) {
    try {
      return StreamHandle.open(real, options::nextTemporaryName);
    } catch (UnsupportedOperationException e) {
      throw new BoundaryException(
          "no safe way to open workspace " + real + " here: " + e.getMessage());
    }
  }
}
