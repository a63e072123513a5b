package io.turndiff.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jooq.DSLContext;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * Which of many keys (paths, content hashes) a table holds, asked with {@code IN} lists of up to
 * {@link #PER_QUERY} values a query: for a snapshot call naming many paths, a few queries instead
 * of one a path. A call of one path keeps its own prepared look-up, which is faster for one.
 */
final class KeysFound {

  /** Values in one {@code IN} list: far below SQLite's and PostgreSQL's parameter limits. */
  static final int PER_QUERY = 500;

  private KeysFound() {}

  /**
   * The keys among {@code keys} whose column value ({@code column}) {@code query} finds: it is
   * handed the values of up to {@link #PER_QUERY} keys at a time and returns those it holds.
   */
  static <K, V> Set<K> among(
      Collection<K> keys, Function<K, V> column, Function<List<V>, List<V>> query) {
    Map<Object, K> byValue = new HashMap<>();
    List<V> values = new ArrayList<>();
    for (K key : keys) {
      V value = column.apply(key);
      if (byValue.putIfAbsent(comparable(value), key) == null) {
        values.add(value);
      }
    }
    Set<K> found = new HashSet<>();
    inQueries(
        values,
        some -> {
          for (V held : query.apply(some)) {
            found.add(byValue.get(comparable(held)));
          }
        });
    return found;
  }

  /**
   * Hands {@code query} the distinct {@code keys}, up to {@link #PER_QUERY} at a time, in their
   * order: for the look-ups that read rows of many keys (their ids, their depths) rather than ask
   * which are held.
   */
  static <K> void inQueries(Collection<K> keys, Consumer<List<K>> query) {
    List<K> asked = List.copyOf(new LinkedHashSet<>(keys));
    for (int from = 0; from < asked.size(); from += PER_QUERY) {
      query.accept(asked.subList(from, Math.min(asked.size(), from + PER_QUERY)));
    }
  }

  /**
   * A query of an {@code IN} list of {@code values} ({@link #PER_QUERY} at most), prepared once per
   * connection for each length it is asked with and bound to {@code values}: {@code query} builds
   * it over the list's parameters. A query rendered afresh for every call (jOOQ's rendering, then
   * the driver's preparing) cost more than the look-up itself on a hook's path, in a CPU profile of
   * JMH WatchedPrompt; prepared, it is bound and run.
   *
   * <p>The list's length is {@code values}' count rounded up to a power of two, the rest of it
   * filled with the first value again (a value named twice in an {@code IN} list finds the same
   * rows once), so that ten statements a query serve every count up to {@link #PER_QUERY}.
   */
  static <V> PreparedQuery preparedIn(
      PreparedQueries prepared,
      String name,
      List<V> values,
      Class<V> type,
      BiFunction<DSLContext, List<Param<V>>, Query> query) {
    int length = listLength(values.size());
    PreparedQuery statement =
        prepared.get(
            name + ".in." + length,
            dsl -> {
              List<Param<V>> parameters = new ArrayList<>(length);
              for (int i = 0; i < length; i++) {
                parameters.add(DSL.param(IN_LIST[i], type));
              }
              return query.apply(dsl, parameters);
            });
    for (int i = 0; i < length; i++) {
      statement.bind(IN_LIST[i], values.get(i < values.size() ? i : 0));
    }
    return statement;
  }

  /** The names of an {@code IN} list's parameters, for every length {@link #preparedIn} uses. */
  private static final String[] IN_LIST =
      IntStream.range(0, listLength(PER_QUERY)).mapToObj(i -> "k" + i).toArray(String[]::new);

  /**
   * The length of the list that holds {@code count} values: the power of two at or above it. A
   * statement prepared for each exact count would be prepared again for nearly every new count;
   * with the rest of the list filled with a value already in it, seven lengths serve every count up
   * to 64 and ten up to {@link #PER_QUERY}.
   */
  static int listLength(int count) {
    return Integer.highestOneBit(Math.max(1, count * 2 - 1));
  }

  /** A value that equals another of the same content: a byte array's wrapped. */
  private static Object comparable(Object value) {
    return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
  }
}
