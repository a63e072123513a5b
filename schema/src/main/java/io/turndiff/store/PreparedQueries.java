package io.turndiff.store;

import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.InsertResultStep;
import org.jooq.Query;

/**
 * The hot statements of one connection, each prepared on first use and kept until the store closes.
 */
final class PreparedQueries implements AutoCloseable {

  private final DSLContext dsl;
  private final Connection connection;
  private final Map<String, PreparedQuery> prepared = new HashMap<>();

  PreparedQueries(DSLContext dsl, Connection connection) {
    this.dsl = dsl;
    this.connection = connection;
  }

  /**
   * The statement named {@code key}, built by {@code query} the first time. One thread at a time
   * uses a connection and so its statements: the writer under the store's lock, a read connection
   * by the one thread that borrowed it ({@link ReadConnections}).
   */
  PreparedQuery get(String key, Function<DSLContext, Query> query) {
    return prepared.computeIfAbsent(
        key, name -> PreparedQuery.of(dsl, connection, query.apply(dsl), false));
  }

  /**
   * As {@link #get}, for an insert that returns the key of the row it inserts ({@code INSERT ..
   * RETURNING}), which {@link PreparedQuery#insert()} reads.
   */
  PreparedQuery insertReturningKey(String key, Function<DSLContext, InsertResultStep<?>> query) {
    return prepared.computeIfAbsent(
        key, name -> PreparedQuery.of(dsl, connection, query.apply(dsl), true));
  }

  @Override
  public void close() {
    prepared.values().forEach(PreparedQuery::close);
    prepared.clear();
  }
}
