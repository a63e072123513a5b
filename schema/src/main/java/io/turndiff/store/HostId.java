package io.turndiff.store;

import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The machine a service runs on, as the store records it beside each workspace: a workspace is
 * registered per host (host id + real root), so two machines whose workspaces have the same path
 * get two rows, and a service works (rewinds, tracks, snapshots) only in its own host's workspaces.
 *
 * <p>This machine's id ({@link #thisMachine}) is, first to last: the system property {@value
 * #PROPERTY}, the environment variable {@value #VARIABLE} (both for tests and for a machine whose
 * id the operator chooses), {@code /etc/machine-id} (systemd's stable per-installation id), else a
 * random id kept in {@code host-id} in the default data folder ({@code
 * $XDG_DATA_HOME/turndiff/host-id}, else {@code ~/.local/share/turndiff/host-id}), made on first
 * use.
 */
public record HostId(String value) {

  public static final String PROPERTY = "turndiff.host.id";
  public static final String VARIABLE = "TURNDIFF_HOST_ID";

  private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");
  private static final Path MACHINE_ID = Path.of("/etc/machine-id");

  /** More than any id file holds (an id is at most 128 characters). */
  private static final int BOUND = 4096;

  /**
   * @throws IllegalArgumentException unless {@code value} is 1 to 128 letters, digits, {@code .},
   *     {@code _}, {@code :} or {@code -}, beginning with a letter or digit
   */
  public HostId {
    if (value == null || !SHAPE.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "a host id is 1 to 128 letters, digits, '.', '_', ':' or '-' beginning with a letter or"
              + " digit, not '"
              + value
              + "'");
    }
  }

  /** This machine's id, from this process's properties and environment. */
  public static HostId thisMachine() {
    return thisMachine(
        Optional.ofNullable(System.getProperty(PROPERTY)),
        System.getenv(),
        MACHINE_ID,
        StoreLocation.home(System.getenv()));
  }

  static HostId thisMachine(
      Optional<String> property, Map<String, String> environment, Path machineId, Path home) {
    Optional<String> chosen =
        property
            .filter(given -> !given.isBlank())
            .or(
                () ->
                    Optional.ofNullable(environment.get(VARIABLE))
                        .filter(given -> !given.isBlank()));
    if (chosen.isPresent()) {
      return new HostId(chosen.get().strip());
    }
    return readId(machineId)
        .orElseGet(
            () -> kept(StoreLocation.defaultFile(environment, home).resolveSibling("host-id")));
  }

  private static Optional<HostId> readId(Path file) {
    try {
      return OwnFile.of(file)
          .readText(BOUND)
          .map(String::strip)
          .filter(text -> SHAPE.matcher(text).matches())
          .map(HostId::new);
    } catch (IOException | UncheckedIOException unreadable) {
      return Optional.empty();
    }
  }

  /** The id kept in {@code file}, made (random, written once, mode 0600) when there is none. */
  private static HostId kept(Path file) {
    Optional<HostId> existing = readId(file);
    if (existing.isPresent()) {
      return existing.get();
    }
    HostId made = new HostId(UUID.randomUUID().toString().replace("-", ""));
    try {
      OwnDirectory.of(file.getParent()).makePrivate();
      // another process may make one at the same moment: the first wins, both use it
      OwnFile.of(file)
          .createIfAbsent(
              (made.value() + "\n").getBytes(StandardCharsets.UTF_8), AtomicFile.OWNER_ONLY);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep this machine's host id in " + file, e);
    }
    return readId(file).orElseThrow(() -> new IllegalStateException(file + " holds no host id"));
  }

  @Override
  public String toString() {
    return value;
  }
}
