package io.turndiff.store;

import java.util.List;
import java.util.function.Function;

/**
 * A way to run a transaction on a store, and its name for a failure's message: a test of prepared
 * statements runs each on the writer and on a read connection, since each connection keeps its own.
 */
record ConnectionUnderTest(String name, Function<Function<StoreTransaction, Object>, Object> run) {

  Object apply(Function<StoreTransaction, Object> work) {
    return run.apply(work);
  }

  /** The store's writer, then a read connection. */
  static List<ConnectionUnderTest> writerThenReader(Store store) {
    return List.of(
        new ConnectionUnderTest("writer", store::write),
        new ConnectionUnderTest("reader", store::read));
  }
}
