package io.turndiff.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

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
    for (int from = 0; from < values.size(); from += PER_QUERY) {
      for (V held : query.apply(values.subList(from, Math.min(values.size(), from + PER_QUERY)))) {
        found.add(byValue.get(comparable(held)));
      }
    }
    return found;
  }

  /** A value that equals another of the same content: a byte array's wrapped. */
  private static Object comparable(Object value) {
    return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
  }
}
