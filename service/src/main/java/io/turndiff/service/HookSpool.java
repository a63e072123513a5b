package io.turndiff.service;

import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hook calls {@code bin/turndiff-hook} could not deliver because no service ran within the
 * runtime's hook timeout, kept for the service to take in order when it is up
 * (docs/runtime-hooks.md, "When the service is not running"): the directory {@code <key>.spool}
 * beside the discovery file in the 0700 run directory, one file per call, the runtime's payload
 * unchanged, named {@code <nanoseconds since the epoch>-<pid>.<runtime>.<options>.hook} so that the
 * names sort in the order the calls were made ({@code <options>}: {@code g} for {@code --git-root},
 * {@code a} for {@code --auto-track}, {@code -} for none). The script writes a call under a name
 * starting with a dot and renames it into place, so a name that ends in {@code .hook} is a whole
 * call.
 *
 * <p>Only what the user's own hook script can have written is taken: a regular file (not a link),
 * owned by this user, not writable by others, no bigger than the hook endpoint takes. Anything else
 * in the directory is left alone and reported ({@link #ignored}). A call is removed once it was
 * handed over, whatever its outcome: the outcome is the service's to record.
 */
public final class HookSpool {

  private static final Pattern NAME =
      Pattern.compile("([0-9]{1,20})-([0-9]{1,10})\\.([a-z][a-z-]{0,30})\\.([ga]{1,2}|-)\\.hook");

  /** One kept call: when the script kept it, for which runtime, with which options, its body. */
  public record Call(
      Instant spooledAt, String runtime, boolean gitRoot, boolean autoTrack, byte[] body) {}

  /** What takes each call, in order. */
  @FunctionalInterface
  public interface Taker {
    void take(Call call);
  }

  private final Path directory;
  private final long maxBodyBytes;
  private final List<String> ignored = new ArrayList<>();

  private HookSpool(Path directory, long maxBodyBytes) {
    this.directory = directory;
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * The spool of the service whose discovery file is {@code discovery} ({@code <key>.json}: its
   * spool is {@code <key>.spool}), taking bodies up to {@code maxBodyBytes}.
   */
  public static HookSpool besideDiscovery(Path discovery, long maxBodyBytes) {
    String base = discovery.getFileName().toString().replaceFirst("\\.json$", "");
    return new HookSpool(discovery.resolveSibling(base + ".spool"), maxBodyBytes);
  }

  public Path directory() {
    return directory;
  }

  /** How many whole calls wait in the spool now. */
  public int waiting() throws IOException {
    return names().size();
  }

  /**
   * Hands every whole call in the spool to {@code taker}, oldest first, removing each after it was
   * handed; returns how many were taken. A spool that is missing, a link or not this user's is not
   * read at all.
   */
  public synchronized int drain(Taker taker) throws IOException {
    int taken = 0;
    for (String name : names()) {
      Path file = directory.resolve(name);
      Optional<Call> call = read(file, name);
      if (call.isPresent()) {
        try {
          taker.take(call.get());
        } finally {
          OwnFile.of(file).deleteIfExists();
        }
        taken++;
      }
    }
    return taken;
  }

  /** What was found in the spool and left alone, with why (for the service's log). */
  public synchronized List<String> ignored() {
    List<String> found = List.copyOf(ignored);
    ignored.clear();
    return found;
  }

  /** The names of whole calls, sorted: the order they were made in. */
  private List<String> names() throws IOException {
    if (!ours(directory, true)) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (Path entry : OwnDirectory.of(directory).list("*")) {
      String name = entry.getFileName().toString();
      if (NAME.matcher(name).matches()) {
        names.add(name);
      }
    }
    // the stamps have one width until 2286; a shorter one (a date without %N) sorts by its value
    names.sort(
        (a, b) -> {
          int byLength = Integer.compare(a.indexOf('-'), b.indexOf('-'));
          return byLength != 0 ? byLength : a.compareTo(b);
        });
    return names;
  }

  private Optional<Call> read(Path file, String name) throws IOException {
    if (!ours(file, false)) {
      ignored.add(file + ": not a regular file of this user's closed to others; left alone");
      return Optional.empty();
    }
    Matcher parts = NAME.matcher(name);
    if (!parts.matches()) {
      return Optional.empty();
    }
    OwnFile kept = OwnFile.of(file);
    Optional<PosixFileAttributes> attributes = kept.attributes();
    if (attributes.isEmpty()) {
      return Optional.empty();
    }
    if (attributes.get().size() > maxBodyBytes) {
      ignored.add(
          file + ": over " + maxBodyBytes + " bytes, as the hook endpoint refuses; removed");
      kept.deleteIfExists();
      return Optional.empty();
    }
    Optional<byte[]> read = kept.readItself((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes));
    if (read.isEmpty()) {
      return Optional.empty();
    }
    byte[] body = read.get();
    String options = parts.group(4);
    long nanos = Long.parseLong(parts.group(1));
    Instant at = Instant.ofEpochSecond(nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    return Optional.of(
        new Call(at, parts.group(3), options.contains("g"), options.contains("a"), body));
  }

  /** A directory (or a regular file) of this user's, not a link, that others cannot write. */
  private static boolean ours(Path path, boolean directory) throws IOException {
    Optional<PosixFileAttributes> found = OwnFile.of(path).attributes();
    if (found.isEmpty()) {
      return false;
    }
    PosixFileAttributes attributes = found.get();
    boolean kind = directory ? attributes.isDirectory() : attributes.isRegularFile();
    return kind
        && ServiceFiles.ours(path)
        && !attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
        && !attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE);
  }
}
