package io.turndiff.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * A PostgreSQL database holding a store ({@code jdbc:postgresql://host[:port]/database}), with the
 * credentials to reach it.
 *
 * <p>Credentials never travel on a command line, where {@code ps} shows them to every user: a URL
 * given as {@code --db} that carries a password is refused. The password comes from, first to last:
 * a password file readable by its owner only (mode 0600 or 0400), the URL when it came from the
 * environment ({@code TURNDIFF_DB}), {@code PGPASSWORD}; else the driver looks in {@code ~/.pgpass}
 * ({@code PGPASSFILE}). The user comes from the URL, else {@code PGUSER}, else the driver's
 * default.
 */
public final class PostgresDatabase implements StoreAddress {

  public static final String URL_PREFIX = "jdbc:postgresql:";

  /**
   * The advisory lock every write transaction of a PostgreSQL store takes first ("turndiff" in
   * ASCII): writers on every machine take turns, as SQLite's do.
   */
  public static final long WRITE_LOCK = 0x7475726e64696666L;

  /** Where a URL was given: a command line is visible in {@code ps}, an environment is not. */
  public enum Source {
    COMMAND_LINE,
    ENVIRONMENT
  }

  private final String url;
  private final String display;
  private final Optional<String> user;
  private final Optional<String> password;

  private PostgresDatabase(
      String url, String display, Optional<String> user, Optional<String> password) {
    this.url = url;
    this.display = display;
    this.user = user;
    this.password = password;
  }

  /** Whether {@code location} names a PostgreSQL database rather than a file. */
  public static boolean isUrl(String location) {
    return location.startsWith(URL_PREFIX);
  }

  /**
   * The database {@code url} names, with its credentials.
   *
   * @param passwordFile a file holding the password (its first line), readable by its owner only
   * @param environment where {@code PGUSER} and {@code PGPASSWORD} are looked up
   * @throws IllegalArgumentException naming what is wrong: a URL that is not one, a password on the
   *     command line, a password file that others can read or that cannot be read
   */
  public static PostgresDatabase of(
      String url, Source source, Optional<Path> passwordFile, Map<String, String> environment) {
    Objects.requireNonNull(url, "url");
    Properties parsed = isUrl(url) ? Driver.parseURL(url, new Properties()) : null;
    if (parsed == null) {
      throw new IllegalArgumentException(
          "'"
              + redacted(url)
              + "' is not a PostgreSQL JDBC URL (jdbc:postgresql://host[:port]/database)");
    }
    Optional<String> inUrl = Optional.ofNullable(parsed.getProperty("password"));
    if (inUrl.isPresent() && source == Source.COMMAND_LINE) {
      throw new IllegalArgumentException(
          "--db must not carry a password: every user of this machine sees a command line (ps). "
              + "Put it in a file only you can read (--db-password-file, mode 0600), in PGPASSWORD, "
              + "or in ~/.pgpass");
    }
    Optional<String> password = passwordFile.map(PasswordFile::read).or(() -> inUrl);
    if (password.isEmpty()) {
      password = nonBlank(environment.get("PGPASSWORD"));
    }
    Optional<String> user =
        Optional.ofNullable(parsed.getProperty("user"))
            .or(() -> nonBlank(environment.get("PGUSER")));
    String display =
        URL_PREFIX
            + "//"
            + parsed.getProperty("PGHOST", "localhost")
            + ":"
            + parsed.getProperty("PGPORT", "5432")
            + "/"
            + parsed.getProperty("PGDBNAME", "");
    return new PostgresDatabase(url, display, user, password);
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  /** {@code url} with the value of any {@code password} parameter hidden, for messages. */
  static String redacted(String url) {
    return url.replaceAll("(?i)(password=)[^&]*", "$1***");
  }

  /**
   * A plain JDBC connection with these credentials, outside any store: for tools and tests that
   * look at the tables themselves.
   */
  public Connection connect() throws SQLException {
    Properties properties = new Properties();
    user.ifPresent(name -> properties.setProperty("user", name));
    password.ifPresent(secret -> properties.setProperty("password", secret));
    return DriverManager.getConnection(url, properties);
  }

  /** The JDBC URL as given (it may hold a password: never print it). */
  String url() {
    return url;
  }

  Optional<String> user() {
    return user;
  }

  Optional<String> password() {
    return password;
  }

  @Override
  public String display() {
    return display;
  }

  @Override
  public String toString() {
    return display;
  }
}
