package io.turndiff.boundary;

/**
 * A handle operation's result: done (with its value), or refused with the reason, nothing changed.
 */
sealed interface Attempt<T> {

  record Done<T>(T value) implements Attempt<T> {}

  record Refused<T>(HandleFailure why) implements Attempt<T> {}

  static <T> Attempt<T> done(T value) {
    return new Done<>(value);
  }

  static Attempt<Void> done() {
    return new Done<>(null);
  }

  static <T> Attempt<T> refused(HandleFailure why) {
    return new Refused<>(why);
  }

  static <T> Attempt<T> failed(String detail) {
    return new Refused<>(new HandleFailure.Failed(detail));
  }

  default boolean ok() {
    return this instanceof Done;
  }

  /** The same refusal as another result type. */
  @SuppressWarnings("unchecked")
  default <U> Attempt<U> asRefused() {
    if (this instanceof Refused<T> refused) {
      return (Attempt<U>) refused;
    }
    throw new IllegalStateException("not refused");
  }
}
