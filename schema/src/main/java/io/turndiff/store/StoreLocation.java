package io.turndiff.store;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the store lives: {@code --db FILE}, else {@code $TURNDIFF_DB}, else {@code
 * $XDG_DATA_HOME/turndiff/turndiff.db}, else {@code ~/.local/share/turndiff/turndiff.db}.
 */
public final class StoreLocation {

  public static final String ENVIRONMENT_VARIABLE = "TURNDIFF_DB";

  private StoreLocation() {}

  public static Path resolve(Optional<Path> given, Map<String, String> environment, Path home) {
    if (given.isPresent()) {
      return given.get().toAbsolutePath();
    }
    String fromEnvironment = environment.get(ENVIRONMENT_VARIABLE);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return Path.of(fromEnvironment).toAbsolutePath();
    }
    String dataHome = environment.get("XDG_DATA_HOME");
    Path base =
        dataHome != null && !dataHome.isBlank() && Path.of(dataHome).isAbsolute()
            ? Path.of(dataHome)
            : home.resolve(".local").resolve("share");
    return base.resolve("turndiff").resolve("turndiff.db");
  }

  /** The location for this process: its environment and {@code user.home}. */
  public static Path resolve(Optional<Path> given) {
    return resolve(given, System.getenv(), Path.of(System.getProperty("user.home")));
  }
}
