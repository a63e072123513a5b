package io.turndiff.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where the per-user service of one store keeps its files (docs/runtime-hooks.md, "The run
 * directory"): the run directory ({@code $XDG_RUNTIME_DIR/turndiff/}, else {@code <store
 * dir>/.turndiff-run/}), made 0700 and refused unless it is a real directory of ours with no group
 * or other bits; in it, files named by the store's key (the SHA-256 of the store's path string).
 * These are the service's own files, never a workspace's, so they use the JDK's file API.
 */
final class ServiceFiles {

  private static final Set<PosixFilePermission> PRIVATE_DIRECTORY =
      PosixFilePermissions.fromString("rwx------");

  private final String store;
  private final Path runDirectory;
  private final String key;

  private ServiceFiles(String store, Path runDirectory) {
    this.store = store;
    this.runDirectory = runDirectory;
    this.key = key(store);
  }

  /**
   * The files of the store named by {@code --db} (made absolute against the working directory),
   * else by the environment as the hook clients name it: {@code $TURNDIFF_DB}, {@code
   * $XDG_DATA_HOME/turndiff/turndiff.db}, {@code $HOME/.local/share/turndiff/turndiff.db}.
   */
  static ServiceFiles of(Path database, Map<String, String> environment) {
    String store = storeString(database, environment);
    String runtime = environment.get("XDG_RUNTIME_DIR");
    Path run =
        runtime != null && runtime.startsWith("/")
            ? Path.of(runtime, "turndiff")
            : Path.of(store).resolveSibling(".turndiff-run");
    return new ServiceFiles(store, run);
  }

  private static String storeString(Path database, Map<String, String> environment) {
    if (database != null) {
      return database.toAbsolutePath().toString();
    }
    String named = environment.get("TURNDIFF_DB");
    if (named != null && !named.isEmpty()) {
      return named.startsWith("/") ? named : Path.of("").toAbsolutePath() + "/" + named;
    }
    String data = environment.get("XDG_DATA_HOME");
    if (data != null && data.startsWith("/")) {
      return data + "/turndiff/turndiff.db";
    }
    String home = environment.getOrDefault("HOME", System.getProperty("user.home"));
    return home.replaceAll("/+$", "") + "/.local/share/turndiff/turndiff.db";
  }

  /** The lowercase hex SHA-256 of the store string's UTF-8 bytes. */
  static String key(String store) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(store.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  String store() {
    return store;
  }

  Path storePath() {
    return Path.of(store);
  }

  String key() {
    return key;
  }

  Path runDirectory() {
    return runDirectory;
  }

  Path discovery() {
    return runDirectory.resolve(key + ".json");
  }

  Path token() {
    return runDirectory.resolve(key + ".token");
  }

  Path header() {
    return runDirectory.resolve(key + ".header");
  }

  Path verified() {
    return runDirectory.resolve(key + ".verified");
  }

  Path startLock() {
    return runDirectory.resolve(key + ".lock");
  }

  Path hookLog() {
    return runDirectory.resolve(key + ".hook.log");
  }

  /** The daemon's log, beside the store: it outlives the run directory. */
  Path log() {
    return Path.of(store + ".service.log");
  }

  /** Held by the daemon for its whole life: one daemon per store, whatever its key. */
  Path storeLock() {
    return Path.of(store + ".service.lock");
  }

  /** Makes the run directory (0700 from its creation) when it is missing, then checks it. */
  void prepare() throws IOException {
    Files.createDirectories(runDirectory.getParent());
    try {
      Files.createDirectory(runDirectory, PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
    } catch (FileAlreadyExistsException existing) {
      // checked below, like one made by a hook client
    }
    check();
  }

  /**
   * Refuses a run directory that is a link, not a directory, another user's, or open to group or
   * others: what is in it could have been planted.
   */
  void check() throws IOException {
    PosixFileAttributes attributes =
        Files.readAttributes(runDirectory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    String problem = null;
    if (!attributes.isDirectory()) {
      problem = attributes.isSymbolicLink() ? "a symbolic link" : "not a directory";
    } else if (!Files.getAttribute(runDirectory, "unix:uid", LinkOption.NOFOLLOW_LINKS)
        .equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
      // /proc/self (followed) is this process's directory, owned by its uid
      problem = "owned by " + attributes.owner().getName();
    } else if (!attributes.permissions().equals(PRIVATE_DIRECTORY)) {
      problem =
          "mode " + PosixFilePermissions.toString(attributes.permissions()) + ", not rwx------";
    }
    if (problem != null) {
      throw new CliException(
          ExitCode.ERROR,
          "the run directory " + runDirectory + " is " + problem + "; not using it");
    }
  }

  /** Writes {@code text} to a new 0600 file, synced, and renames it over {@code file}. */
  static void writePrivately(Path file, String text) throws IOException {
    Path temporary =
        Files.createTempFile(
            file.getParent(),
            ".turndiff-",
            ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
    }
    Files.move(
        temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  boolean hasDiscovery() {
    return Files.exists(discovery(), LinkOption.NOFOLLOW_LINKS);
  }

  /** The daemon's token, when its file is there. */
  Optional<String> readToken() throws IOException {
    try {
      return Optional.of(Files.readString(token(), StandardCharsets.UTF_8).strip());
    } catch (NoSuchFileException missing) {
      return Optional.empty();
    }
  }

  /** Creates the store's directory, so that the daemon's log and lock have a place. */
  void prepareStoreDirectory() throws IOException {
    Files.createDirectories(storePath().getParent());
  }

  /** Deletes each file that exists; one that cannot be deleted is left (and named on stderr). */
  static void deleteEach(Path... files) {
    for (Path file : files) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        System.err.println("turndiff service: cannot remove " + file + ": " + e.getMessage());
      }
    }
  }

  /** The last {@code count} lines of the hook clients' log (failed deliveries), oldest first. */
  List<String> hookFailures(int count) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(hookLog(), StandardCharsets.UTF_8);
    } catch (NoSuchFileException none) {
      return List.of();
    }
    return List.copyOf(lines.subList(Math.max(0, lines.size() - count), lines.size()));
  }

  /** Removes the discovery, token, header and marker files (each when present). */
  void removeServiceFiles() throws IOException {
    Files.deleteIfExists(discovery());
    Files.deleteIfExists(verified());
    Files.deleteIfExists(header());
    Files.deleteIfExists(token());
  }
}
