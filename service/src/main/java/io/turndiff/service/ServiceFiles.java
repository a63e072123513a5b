package io.turndiff.service;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
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
 * These are the service's own files, never a workspace's, so they go through {@code
 * io.turndiff.ownfiles}.
 */
public final class ServiceFiles {

  private static final Set<PosixFilePermission> PRIVATE_DIRECTORY = OwnDirectory.PRIVATE;
  private static final Set<PosixFilePermission> PRIVATE_FILE = AtomicFile.OWNER_ONLY;

  private final String store;
  private final Path runDirectory;
  private final String key;
  private final Path ownFolder;

  private ServiceFiles(String store, Path runDirectory, Path ownFolder) {
    this.store = store;
    this.runDirectory = runDirectory;
    this.key = key(store);
    this.ownFolder = ownFolder;
  }

  /**
   * The files of the store named by {@code --db} (made absolute against the working directory),
   * else by the environment as the hook clients name it: {@code $TURNDIFF_DB}, {@code
   * $XDG_DATA_HOME/turndiff/turndiff.db}, {@code $HOME/.local/share/turndiff/turndiff.db}.
   */
  public static ServiceFiles of(Path database, Map<String, String> environment) {
    String store = storeString(database, environment);
    String runtime = environment.get("XDG_RUNTIME_DIR");
    Path run =
        runtime != null && runtime.startsWith("/")
            ? Path.of(runtime, "turndiff")
            : Path.of(store).resolveSibling(".turndiff-run");
    Map<String, String> withoutNamedStore = new HashMap<>(environment);
    withoutNamedStore.remove("TURNDIFF_DB");
    return new ServiceFiles(store, run, Path.of(storeString(null, withoutNamedStore)).getParent());
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
  public static String key(String store) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(store.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  public String store() {
    return store;
  }

  public Path storePath() {
    return Path.of(store);
  }

  public String key() {
    return key;
  }

  public Path runDirectory() {
    return runDirectory;
  }

  public Path discovery() {
    return runDirectory.resolve(key + ".json");
  }

  public Path token() {
    return runDirectory.resolve(key + ".token");
  }

  public Path header() {
    return runDirectory.resolve(key + ".header");
  }

  public Path verified() {
    return runDirectory.resolve(key + ".verified");
  }

  /**
   * The service's Unix domain socket: named by the first 16 hex digits of the store's key, so that
   * its path stays within the 107 bytes a socket's name may hold.
   */
  public Path socket() {
    return runDirectory.resolve(key.substring(0, 16) + ".sock");
  }

  /**
   * The command line, from its command word on, that serves the store as the per-user service on
   * these files: {@code serve --daemon} on an ephemeral port, with its token, discovery file and
   * socket here. A detached start ({@code service start}) and the start-up cache's training run the
   * same service.
   */
  public List<String> serveArguments() {
    return List.of(
        "serve",
        "--db",
        store(),
        "--daemon",
        "--port",
        "0",
        "--token-file",
        token().toString(),
        "--discovery",
        discovery().toString(),
        "--socket",
        socket().toString());
  }

  public Path startLock() {
    return runDirectory.resolve(key + ".lock");
  }

  public Path hookLog() {
    return runDirectory.resolve(key + ".hook.log");
  }

  /** The daemon's log, beside the store: it outlives the run directory. */
  public Path log() {
    return Path.of(store + ".service.log");
  }

  /**
   * Held by the store's service for its whole life: one service per store, whatever its key and
   * however the store was named ({@link StoreService#lock()}).
   */
  public Path storeLock() throws IOException {
    return StoreService.of(storePath()).lock();
  }

  /** Makes the run directory (0700 from its creation) when it is missing, then checks it. */
  public void prepare() throws IOException {
    OwnDirectory.of(runDirectory.getParent()).make();
    // one there already is checked below, like one made by a hook client
    OwnDirectory.of(runDirectory).createPrivate();
    check();
  }

  /**
   * Refuses a run directory that is a link, not a directory, another user's, or open to group or
   * others: what is in it could have been planted (a discovery file naming another process, a token
   * of someone else's). A missing one is fine: it is made when a service starts.
   */
  public void check() throws IOException {
    Optional<String> refusal = refusal();
    if (refusal.isPresent()) {
      throw new CliException(ExitCode.ERROR, refusal.get());
    }
  }

  /** Why the run directory must not be used, and what to do; empty when it is fine or missing. */
  public Optional<String> refusal() throws IOException {
    Optional<PosixFileAttributes> found = OwnFile.of(runDirectory).attributes();
    if (found.isEmpty()) {
      return Optional.empty();
    }
    PosixFileAttributes attributes = found.get();
    String problem;
    String remedy;
    if (!attributes.isDirectory()) {
      problem = attributes.isSymbolicLink() ? "a symbolic link" : "not a directory";
      remedy = "remove it; turndiff makes the directory when the service starts";
    } else if (!ours(runDirectory)) {
      problem = "owned by " + attributes.owner().getName();
      remedy =
          "it is not yours: have its owner remove it, or set XDG_RUNTIME_DIR to a directory of"
              + " yours";
    } else if (!attributes.permissions().equals(PRIVATE_DIRECTORY)) {
      problem =
          "mode " + PosixFilePermissions.toString(attributes.permissions()) + ", not rwx------";
      remedy =
          "others may have put files in it; remove it (turndiff makes it again, 0700), or, if"
              + " everything in it is yours, chmod 700 it";
    } else {
      return Optional.empty();
    }
    return Optional.of(
        "the run directory " + runDirectory + " is " + problem + "; not using it: " + remedy);
  }

  /** Whether {@code path} itself (not followed) belongs to this process's user. */
  static boolean ours(Path path) throws IOException {
    return OwnFile.of(path).ownedByThisUser();
  }

  /**
   * Replaces {@code file} with {@code text}, owner-only (0600), the one way ({@link AtomicFile}).
   */
  static void writePrivately(Path file, String text) throws IOException {
    AtomicFile.replace(file, text.getBytes(StandardCharsets.UTF_8), AtomicFile.OWNER_ONLY);
  }

  public boolean hasDiscovery() {
    return OwnFile.of(discovery()).exists(LinkOption.NOFOLLOW_LINKS);
  }

  /** The daemon's token, when its file is there. */
  public Optional<String> readToken() throws IOException {
    return TokenFile.read(token());
  }

  /**
   * Makes the store's folder ready for the daemon's log and lock, as the README promises them: a
   * folder turndiff creates is 0700 (each level it makes), the log 0600. A folder that exists
   * already is the user's unless it is turndiff's own data folder ({@code $XDG_DATA_HOME/turndiff},
   * {@code ~/.local/share/turndiff}): turndiff's own, found open to group or others (as an earlier
   * {@code service start} made it), is closed to 0700; the user's is left as it is, with a warning
   * when group or others may list it, and refused when they may write in it without the sticky bit
   * (they could replace the log with a link and have the daemon append to any file of the user's).
   * The log is turndiff's by its name: made 0600, an existing one tightened to 0600, one that is a
   * link, not a regular file or another user's refused. Returns what it changed or warns of, for
   * stderr.
   */
  public List<String> prepareStoreFolder() throws IOException {
    List<String> notes = new ArrayList<>();
    Path folder = storePath().getParent();
    OwnFile folderName = OwnFile.of(folder);
    if (!folderName.isDirectory()) {
      OwnDirectory.of(folder).makePrivate();
    } else {
      int mode = folderName.mode();
      String shown = PosixFilePermissions.toString(folderName.permissions());
      if ((mode & 077) != 0 && folder.equals(ownFolder) && ours(folder)) {
        folderName.setPermissions(PRIVATE_DIRECTORY);
        notes.add(
            "closed turndiff's folder " + folder + " to others (was " + shown + ", now rwx------)");
      } else if ((mode & 022) != 0 && (mode & 01000) == 0) {
        throw new CliException(
            ExitCode.ERROR,
            "the store's folder "
                + folder
                + " is mode "
                + shown
                + ": others may write in it and replace the service's log with a link; not"
                + " starting the service there (chmod go-w it, or keep the store in a folder of"
                + " yours)");
      } else if ((mode & 077) != 0) {
        notes.add(
            "warning: the store's folder "
                + folder
                + " is mode "
                + shown
                + " (yours, so left as it is): others may list it; the store and the service's"
                + " files in it are 0600");
      }
    }
    prepareLog(notes);
    return notes;
  }

  /** Creates the service's log 0600, or checks and tightens the one there. */
  private void prepareLog(List<String> notes) throws IOException {
    Path log = log();
    OwnFile logFile = OwnFile.of(log);
    if (logFile.createEmpty(PRIVATE_FILE)) {
      return;
    }
    // one there already is checked
    PosixFileAttributes attributes =
        logFile.attributes().orElseThrow(() -> new NoSuchFileException(log.toString()));
    if (!attributes.isRegularFile() || !ours(log)) {
      throw new CliException(
          ExitCode.ERROR,
          "the service's log "
              + log
              + " is "
              + (attributes.isSymbolicLink()
                  ? "a symbolic link"
                  : attributes.isRegularFile()
                      ? "owned by " + attributes.owner().getName()
                      : "not a regular file")
              + "; not writing to it (remove it: turndiff makes a new one, 0600)");
    }
    if (!attributes.permissions().equals(PRIVATE_FILE)) {
      logFile.setPermissions(PRIVATE_FILE);
      notes.add(
          "the service's log "
              + log
              + " was "
              + PosixFilePermissions.toString(attributes.permissions())
              + ", now rw-------");
    }
  }

  /** Deletes each file that exists; one that cannot be deleted is left (and named on stderr). */
  static void deleteEach(Path... files) {
    for (Path file : files) {
      try {
        OwnFile.of(file).deleteIfExists();
      } catch (IOException e) {
        System.err.println("turndiff service: cannot remove " + file + ": " + e.getMessage());
      }
    }
  }

  /**
   * The last {@code count} lines of the hook clients' log in the run directory (failed deliveries),
   * oldest first; none when the run directory is refused (nothing in it is read then).
   */
  public List<String> hookFailures(int count) throws IOException {
    return refusal().isPresent() ? List.of() : lastLines(hookLog(), count);
  }

  /**
   * Where the hook script records the calls it did not deliver because the run directory was
   * refused: beside the store, like the service's log (a refused run directory is no place to
   * write).
   */
  public Path refusedRunLog() {
    return Path.of(store + ".hook.log");
  }

  /** The last {@code count} lines of {@link #refusedRunLog()}, oldest first. */
  public List<String> undeliveredForRunDirectory(int count) throws IOException {
    return lastLines(refusedRunLog(), count);
  }

  private static List<String> lastLines(Path file, int count) throws IOException {
    return OwnFile.of(file).lastLines(count);
  }

  /** Removes the discovery, token, header and marker files (each when present). */
  public void removeServiceFiles() throws IOException {
    for (Path file : List.of(discovery(), verified(), header(), token())) {
      OwnFile.of(file).deleteIfExists();
    }
  }
}
