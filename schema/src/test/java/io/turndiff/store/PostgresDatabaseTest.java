package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a PostgreSQL store's credentials come from, and what is refused: a password on the command
 * line, a password file others can read, a URL that is not one.
 */
class PostgresDatabaseTest {

  @TempDir Path temp;

  private static final String URL = "jdbc:postgresql://db.example:6543/turndiff";

  @Test
  void aPasswordInAUrlOnTheCommandLineIsRefusedAndTheMessageDoesNotRepeatIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StoreLocation.address(
                    Optional.of(URL + "?user=u&password=hunter2"), Optional.empty(), Map.of()));
    assertTrue(e.getMessage().contains("ps"), e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
  }

  @Test
  void aPasswordInTheUrlOfTheEnvironmentIsUsedAndNeverShown() {
    StoreAddress address =
        StoreLocation.address(
            Optional.empty(),
            Optional.empty(),
            Map.of(StoreLocation.ENVIRONMENT_VARIABLE, URL + "?user=u&password=hunter2"));
    PostgresDatabase database = (PostgresDatabase) address;
    assertEquals(Optional.of("hunter2"), database.password());
    assertEquals(Optional.of("u"), database.user());
    assertEquals("jdbc:postgresql://db.example:6543/turndiff", database.display());
    assertFalse(database.toString().contains("hunter2"));
  }

  @Test
  void thePasswordFileComesFirstThenPgPasswordAndTheUserFromTheUrlElsePgUser() throws Exception {
    Path file = temp.resolve("password");
    Files.writeString(file, "from-file\nsecond line ignored\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> environment = Map.of("PGPASSWORD", "from-env", "PGUSER", "env-user");

    PostgresDatabase withFile =
        (PostgresDatabase) StoreLocation.address(Optional.of(URL), Optional.of(file), environment);
    assertEquals(Optional.of("from-file"), withFile.password());
    assertEquals(Optional.of("env-user"), withFile.user());

    PostgresDatabase fromEnvironment =
        (PostgresDatabase)
            StoreLocation.address(
                Optional.of(URL + "?user=url-user"), Optional.empty(), environment);
    assertEquals(Optional.of("from-env"), fromEnvironment.password());
    assertEquals(Optional.of("url-user"), fromEnvironment.user());

    PostgresDatabase named =
        (PostgresDatabase)
            StoreLocation.address(
                Optional.of(URL),
                Optional.empty(),
                Map.of(StoreLocation.PASSWORD_FILE_VARIABLE, file.toString()));
    assertEquals(Optional.of("from-file"), named.password());
  }

  @Test
  void aPasswordFileOthersCanReadIsRefusedNamingItsMode() throws Exception {
    Path file = temp.resolve("password");
    Files.writeString(file, "secret\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StoreLocation.address(Optional.of(URL), Optional.of(file), Map.of()));
    assertTrue(e.getMessage().contains("rw-r--r--") && e.getMessage().contains(file.toString()));
    assertFalse(e.getMessage().contains("secret"), e.getMessage());

    Path link = temp.resolve("link");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Files.createSymbolicLink(link, file);
    assertThrows(
        IllegalArgumentException.class,
        () -> StoreLocation.address(Optional.of(URL), Optional.of(link), Map.of()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            StoreLocation.address(
                Optional.of(URL), Optional.of(temp.resolve("missing")), Map.of()));
  }

  @Test
  void aFileStoreStaysAFileAndTakesNoPasswordFile() throws Exception {
    Path store = temp.resolve("turndiff.db");
    assertEquals(
        new StoreAddress.SqliteFile(store),
        StoreLocation.address(Optional.of(store.toString()), Optional.empty(), Map.of()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            StoreLocation.address(
                Optional.of(store.toString()), Optional.of(temp.resolve("p")), Map.of()));
    IllegalArgumentException notAUrl =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StoreLocation.address(
                    Optional.of("jdbc:postgresql://host:notaport/db"), Optional.empty(), Map.of()));
    assertTrue(notAUrl.getMessage().contains("not a PostgreSQL JDBC URL"), notAUrl.getMessage());
  }
}
