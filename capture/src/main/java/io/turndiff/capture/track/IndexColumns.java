package io.turndiff.capture.track;

import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entries of an index read or rebuilt whole, sorted by path and numbered in that order, held as
 * columns rather than as objects: the paths' bytes one after another in one array, each stat field
 * in an array of its own, the hashes as 32 bytes each in one array. An {@link IndexEntry} is built
 * when one is asked for.
 *
 * <p>A tracker holds the whole index of each workspace it watches, and at 250,000 files the objects
 * were what the service's live heap was made of: an entry, its path and the path's bytes, a stat
 * record, an optional and a hash record with its 64-character string, and the map's node and slot
 * record to find it, about 370 bytes an entry (docs/performance.md, "The index as columns", has the
 * class histogram). Here an entry costs its path's bytes and about 90 more: 4 for where its path
 * ends, 40 for the five stat fields held as longs, 4 for its type and mode, 32 for its hash, 2 for
 * its flags and reason, and 8 to 16 in the open-addressing table that finds a path's number.
 *
 * <p>An entry the columns cannot hold exactly is kept as it is, beside them: a symbolic link (its
 * target), or one whose stored content is not its hash. Those are few in any tree; everything else
 * an entry says (its hash, whether its content is stored, why only its metadata is) the columns
 * hold, and {@link #entry} gives back an entry equal to the one given.
 */
final class IndexColumns {

  /** The entry has a hash. */
  private static final byte HASHED = 1;

  /** Its content is stored, and is its hash (a stored file's always is). */
  private static final byte STORED = 2;

  private static final FileType[] TYPES = FileType.values();
  private static final Reason[] REASONS = Reason.values();
  private static final HexFormat HEX = HexFormat.of();

  /** No entries. */
  static final IndexColumns EMPTY = of(List.of());

  private final byte[] paths;
  private final int[] pathEnds;
  private final long[] sizes;
  private final long[] mtimes;
  private final long[] ctimes;
  private final long[] inodes;
  private final long[] nlinks;

  /** The type's ordinal above the permission bits (12 of them). */
  private final int[] typesAndModes;

  private final byte[] hashes;
  private final byte[] flags;

  /** The reason's ordinal plus one; 0 when the content is indexed. */
  private final byte[] reasons;

  /**
   * The entries the columns cannot hold, by number (their columns hold their stat all the same).
   */
  private final Map<Integer, IndexEntry> kept;

  /** Each path's number plus one at the slot its hash probes first or after (0: empty). */
  private final int[] table;

  private final int[] hardlinked;
  private final long regularBytes;

  private IndexColumns(IndexEntry[] sorted) {
    int count = sorted.length;
    byte[][] names = new byte[count][];
    int length = 0;
    for (int i = 0; i < count; i++) {
      names[i] = sorted[i].path().bytes();
      length += names[i].length;
    }
    paths = new byte[length];
    pathEnds = new int[count];
    sizes = new long[count];
    mtimes = new long[count];
    ctimes = new long[count];
    inodes = new long[count];
    nlinks = new long[count];
    typesAndModes = new int[count];
    hashes = new byte[count * 32];
    flags = new byte[count];
    reasons = new byte[count];
    kept = new HashMap<>();
    List<Integer> links = new ArrayList<>();
    long bytes = 0;
    int at = 0;
    for (int i = 0; i < count; i++) {
      System.arraycopy(names[i], 0, paths, at, names[i].length);
      at += names[i].length;
      pathEnds[i] = at;
      IndexEntry entry = sorted[i];
      StatProof stat = entry.stat();
      sizes[i] = stat.size();
      mtimes[i] = stat.mtimeNanos();
      ctimes[i] = stat.ctimeNanos();
      inodes[i] = stat.inode();
      nlinks[i] = stat.nlink();
      typesAndModes[i] = stat.type().ordinal() << 12 | stat.mode();
      if (entry.sha256().isPresent()) {
        flags[i] |= HASHED;
        System.arraycopy(HEX.parseHex(entry.sha256().get().hex()), 0, hashes, i * 32, 32);
      }
      if (entry.storedContent().isPresent()) {
        flags[i] |= STORED;
      }
      reasons[i] = (byte) (entry.reason().map(Reason::ordinal).orElse(-1) + 1);
      if (entry.linkTarget().isPresent()
          || (entry.storedContent().isPresent() && !entry.storedContent().equals(entry.sha256()))) {
        kept.put(i, entry);
      }
      if (stat.nlink() > 1) {
        links.add(i);
      }
      bytes += IndexCache.Index.regularBytes(entry);
    }
    hardlinked = links.stream().mapToInt(Integer::intValue).toArray();
    regularBytes = bytes;
    table = new int[Integer.highestOneBit(Math.max(count, 1) * 2 - 1) << 1];
    for (int i = 0; i < count; i++) {
      int slot = spread(hash(paths, start(i), pathEnds[i])) & (table.length - 1);
      while (table[slot] != 0) {
        slot = (slot + 1) & (table.length - 1);
      }
      table[slot] = i + 1;
    }
  }

  /** The columns of {@code entries}, sorted by path. */
  static IndexColumns of(Collection<IndexEntry> entries) {
    IndexEntry[] sorted = entries.toArray(IndexEntry[]::new);
    Arrays.sort(sorted, Comparator.comparing(IndexEntry::path));
    return new IndexColumns(sorted);
  }

  /** How many entries. */
  int size() {
    return pathEnds.length;
  }

  /** The bytes of the regular files' content, as the budget counts them. */
  long regularBytes() {
    return regularBytes;
  }

  /** The size of the entry numbered {@code number} as the budget counts it (0 if not regular). */
  long regularBytes(int number) {
    return TYPES[typesAndModes[number] >>> 12] == FileType.REGULAR ? sizes[number] : 0;
  }

  /** The numbers of the entries with more than one link. */
  int[] hardlinked() {
    return hardlinked;
  }

  /** The number of {@code path}, or -1 when it is not among the entries. */
  int numberOf(WorkspacePath path) {
    if (path.isOutside()) {
      return -1;
    }
    byte[] name = path.bytes();
    int slot = spread(path.hashCode()) & (table.length - 1);
    for (int number = table[slot] - 1; number >= 0; number = table[slot] - 1) {
      if (Arrays.equals(paths, start(number), pathEnds[number], name, 0, name.length)) {
        return number;
      }
      slot = (slot + 1) & (table.length - 1);
    }
    return -1;
  }

  /** The entry numbered {@code number}. */
  IndexEntry entry(int number) {
    return entry(number, WorkspacePath.ofRelativeBytes(pathBytes(number)));
  }

  /** The entry numbered {@code number}, whose path is {@code path} (equal to the one held). */
  IndexEntry entry(int number, WorkspacePath path) {
    IndexEntry whole = kept.get(number);
    if (whole != null) {
      return whole;
    }
    Optional<Sha256> sha256 =
        (flags[number] & HASHED) != 0
            ? Optional.of(new Sha256(HEX.formatHex(hashes, number * 32, number * 32 + 32)))
            : Optional.empty();
    Optional<Reason> reason =
        reasons[number] == 0 ? Optional.empty() : Optional.of(REASONS[reasons[number] - 1]);
    return new IndexEntry(
        path,
        stat(number),
        Optional.empty(),
        sha256,
        (flags[number] & STORED) != 0 ? sha256 : Optional.empty(),
        reason);
  }

  /** The stat of the entry numbered {@code number}. */
  StatProof stat(int number) {
    return new StatProof(
        TYPES[typesAndModes[number] >>> 12],
        sizes[number],
        mtimes[number],
        ctimes[number],
        inodes[number],
        typesAndModes[number] & 07777,
        nlinks[number]);
  }

  /** The path of the entry numbered {@code number}. */
  WorkspacePath path(int number) {
    return WorkspacePath.ofRelativeBytes(pathBytes(number));
  }

  /** The numbers {@code from} (inclusive) to {@code to} (exclusive). */
  record Run(int from, int to) {}

  /**
   * The numbers of the entries under {@code directory} (not itself). Every path starting with
   * {@code directory/} sorts after that prefix and before {@code directory0} ({@code 0} is the byte
   * after {@code /}), so two binary searches find the run.
   */
  Run under(WorkspacePath directory) {
    byte[] prefix = Arrays.copyOf(directory.bytes(), directory.length() + 1);
    prefix[prefix.length - 1] = '/';
    int from = firstAtOrAfter(prefix);
    prefix[prefix.length - 1] = '/' + 1;
    return new Run(from, firstAtOrAfter(prefix));
  }

  private int firstAtOrAfter(byte[] bound) {
    int low = 0;
    int high = size();
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (Arrays.compareUnsigned(paths, start(middle), pathEnds[middle], bound, 0, bound.length)
          < 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  private byte[] pathBytes(int number) {
    return Arrays.copyOfRange(paths, start(number), pathEnds[number]);
  }

  private int start(int number) {
    return number == 0 ? 0 : pathEnds[number - 1];
  }

  /** The high bits of a hash mixed into the low ones, which pick the table's slot. */
  private static int spread(int hash) {
    return hash ^ (hash >>> 16);
  }

  /** {@link Arrays#hashCode(byte[])} of a range: the hash {@link WorkspacePath} gives its bytes. */
  private static int hash(byte[] bytes, int from, int to) {
    int hash = 1;
    for (int i = from; i < to; i++) {
      hash = 31 * hash + bytes[i];
    }
    return hash;
  }
}
