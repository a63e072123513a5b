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
import java.util.function.Consumer;
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

  /** A value that equals another of the same content: a byte array's wrapped. */
  private static Object comparable(Object value) {
    return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
  }
}
