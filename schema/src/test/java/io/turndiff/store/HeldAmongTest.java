package io.turndiff.store;

import static io.turndiff.store.DialectStores.fresh;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which of many contents the store holds ({@link Blobs#containedAmong}) is asked with {@code IN}
 * lists prepared once per length ({@link KeysFound#preparedIn}): each count's list is padded to a
 * power of two with its first value again. For every count around the lengths' bounds (1, 2, 3, a
 * power of two and one past it, a query's limit and one past it, two queries' worth), asked one
 * after another so that the prepared statements of earlier counts are run again with other values,
 * the answer is exactly the held contents among those asked: the padding finds no content the list
 * did not name, and a statement kept from an earlier call answers for the values bound now, not for
 * those it was first run with. Both dialects.
 */
class HeldAmongTest {

  @TempDir Path temp;

  private static Sha256 content(int i) {
    return Sha256.of(("content " + i).getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void everyCountFindsExactlyTheHeldContentsAmongThoseAsked(String dialect) {
    try (Store store = Store.open(fresh(dialect, temp))) {
      // the even contents are held, the odd ones are not
      store.write(
          tx -> {
            for (int i = 0; i < 2_200; i += 2) {
              tx.blobs().put(("content " + i).getBytes(StandardCharsets.UTF_8));
            }
            return null;
          });
      int offset = 0;
      int[] counts = {1, 2, 3, 8, 9, 17, 16, 12, 500, 501, 1_000, 300, 3, 1, 9};
      for (int call = 0; call < counts.length; call++) {
        int count = counts[call];
        int from = offset;
        // every third asked from an earlier call's values, the rest new: the same statements,
        // other values bound; every other call's list reversed, so that the value the padding
        // repeats is now held, now not, and a length is asked again with fewer values (16, 12)
        List<Integer> indices =
            new ArrayList<>(
                IntStream.range(0, count).map(i -> i % 3 == 0 ? i : from + i).boxed().toList());
        if (call % 2 == 1) {
          Collections.reverse(indices);
        }
        List<Sha256> asked = indices.stream().map(HeldAmongTest::content).toList();
        Set<Sha256> expected = new HashSet<>();
        indices.stream()
            .filter(i -> i % 2 == 0 && i < 2_200)
            .forEach(i -> expected.add(content(i)));
        Set<Sha256> found = store.read(tx -> tx.blobs().containedAmong(asked));
        assertEquals(expected, found, count + " asked from " + from);
        offset += count;
      }
    }
  }
}
