package io.turndiff.store;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the store lives: {@code --db FILE}, else {@code $TURNDIFF_DB}, else {@code
 * $XDG_DATA_HOME/turndiff/turndiff.db}, else {@code ~/.local/share/turndiff/turndiff.db}; {@code
 * --db} and {@code $TURNDIFF_DB} may also name a PostgreSQL database ({@link PostgresDatabase}).
 */
public final class StoreLocation {

  public static final String ENVIRONMENT_VARIABLE = "TURNDIFF_DB";

  /** Where a PostgreSQL store's password file is named when no option names it. */
  public static final String PASSWORD_FILE_VARIABLE = "TURNDIFF_DB_PASSWORD_FILE";

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

  /** The location for this process: its environment and its home. */
  public static Path resolve(Optional<Path> given) {
    return resolve(given, System.getenv(), home(System.getenv()));
  }

  /**
   * The user's home as every turndiff client names the default store from it, the hook script
   * included: {@code $HOME} when it is an absolute path, else the JVM's {@code user.home} (the
   * password database's, which the JVM takes whatever {@code $HOME} says: a command and the hooks
   * it installed would otherwise use two stores wherever the two differ).
   */
  public static Path home(Map<String, String> environment) {
    String home = environment.get("HOME");
    return Path.of(home != null && home.startsWith("/") ? home : System.getProperty("user.home"));
  }

  /**
   * The store {@code given} ({@code --db}) names, else {@code $TURNDIFF_DB}, else the default file.
   *
   * @param passwordFile {@code --db-password-file}; else {@code $TURNDIFF_DB_PASSWORD_FILE}
   * @throws IllegalArgumentException naming what is wrong with a PostgreSQL URL or its credentials,
   *     or a password file given for a SQLite store
   */
  public static StoreAddress address(
      Optional<String> given, Optional<Path> passwordFile, Map<String, String> environment) {
    Optional<Path> passwords =
        passwordFile.or(
            () ->
                Optional.ofNullable(environment.get(PASSWORD_FILE_VARIABLE))
                    .filter(name -> !name.isBlank())
                    .map(Path::of));
    String fromEnvironment = environment.get(ENVIRONMENT_VARIABLE);
    StoreAddress address;
    if (given.isPresent() && PostgresDatabase.isUrl(given.get())) {
      address =
          PostgresDatabase.of(
              given.get(), PostgresDatabase.Source.COMMAND_LINE, passwords, environment);
    } else if (given.isEmpty()
        && fromEnvironment != null
        && PostgresDatabase.isUrl(fromEnvironment.strip())) {
      address =
          PostgresDatabase.of(
              fromEnvironment.strip(), PostgresDatabase.Source.ENVIRONMENT, passwords, environment);
    } else {
      address =
          new StoreAddress.SqliteFile(resolve(given.map(Path::of), environment, home(environment)));
    }
    if (address instanceof StoreAddress.SqliteFile && passwordFile.isPresent()) {
      throw new IllegalArgumentException(
          "--db-password-file is for a PostgreSQL store (--db jdbc:postgresql://...); "
              + address.display()
              + " is a SQLite file");
    }
    return address;
  }

  /** The default store file, whatever {@code $TURNDIFF_DB} says. */
  public static Path defaultFile(Map<String, String> environment) {
    return defaultFile(environment, home(environment));
  }

  static Path defaultFile(Map<String, String> environment, Path home) {
    Map<String, String> withoutStore = new HashMap<>(environment);
    withoutStore.remove(ENVIRONMENT_VARIABLE);
    return resolve(Optional.empty(), withoutStore, home);
  }
}
