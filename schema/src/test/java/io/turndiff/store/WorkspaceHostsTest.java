package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** Workspaces registered per machine (host id + real root) over one store file. */
class WorkspaceHostsTest {

  @TempDir Path temp;

  /** The store at {@code file} as a service on {@code host} opens it. */
  static Store openAs(String host, Path file) {
    return openAs(new StoreAddress.SqliteFile(file.toAbsolutePath()), host);
  }

  /**
   * The store at {@code address} as a service on {@code host} opens it ({@link HostId#PROPERTY}).
   */
  static Store openAs(StoreAddress address, String host) {
    String before = System.getProperty(HostId.PROPERTY);
    System.setProperty(HostId.PROPERTY, host);
    try {
      return Store.open(address);
    } finally {
      if (before == null) {
        System.clearProperty(HostId.PROPERTY);
      } else {
        System.setProperty(HostId.PROPERTY, before);
      }
    }
  }

  @Test
  void theSameRootOnTwoHostsIsTwoWorkspacesEachFoundByItsOwnHost() {
    Path file = temp.resolve("turndiff.db");
    try (Store a = openAs("host-a", file);
        Store b = openAs("host-b", file)) {
      StoredWorkspace onA = a.write(tx -> tx.workspaces().register("/w", "/w", 1, 10));
      StoredWorkspace onB = b.write(tx -> tx.workspaces().register("/w", "/w", 2, 20));
      assertTrue(onA.id() != onB.id(), "two rows");
      assertEquals(Optional.of(new HostId("host-a")), onA.host());
      assertEquals(Optional.of(new HostId("host-b")), onB.host());
      assertEquals(
          onA.id(),
          a.write(tx -> tx.workspaces().register("/w", "/w", 1, 11)).id(),
          "registering again finds the host's own row");
      assertEquals(onB, b.read(tx -> tx.workspaces().byRealRoot("/w")).orElseThrow());
      assertEquals(11, a.read(tx -> tx.workspaces().byRealRoot("/w")).orElseThrow().rootInode());
      assertEquals(
          List.of(onA.id(), onB.id()),
          b.read(tx -> tx.workspaces().everyHostAtRealRoot("/w")).stream()
              .map(StoredWorkspace::id)
              .toList(),
          "a query reads every host's");
      assertTrue(onA.heldBy(new HostId("host-a")));
      assertFalse(onA.heldBy(new HostId("host-b")));
    }
    try (Store c = openAs("host-c", file)) {
      assertTrue(
          c.read(tx -> tx.workspaces().byRealRoot("/w")).isEmpty(), "no row of host-c's own");
    }
  }

  @Test
  void aVersion9StoreWithRowsMigratesItsWorkspacesUnclaimedAndTheFirstHostAdoptsThem()
      throws Exception {
    Path file = temp.resolve("v9").resolve("turndiff.db");
    Files.createDirectories(file.getParent());
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + file);
    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .target("9")
        .load()
        .migrate();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA foreign_keys = ON");
      statement.execute("INSERT INTO workspace VALUES (7, '/w', '/w', 1, 10, 0)");
      statement.execute("INSERT INTO session VALUES (3, 's', 7, 0)");
      statement.execute("INSERT INTO turn VALUES (5, 't', 3, 1, 'agent', 'finished', 0, 0)");
      statement.execute(
          "INSERT INTO tracked_workspace (workspace_id, indexed_at_ns, version, partial, "
              + "max_files, max_bytes) VALUES (7, 0, 1, 0, 100, 100)");
    }
    try (Store b = openAs("host-b", file)) {
      StoredWorkspace unclaimed = b.read(tx -> tx.workspaces().byId(7)).orElseThrow();
      assertEquals(Optional.empty(), unclaimed.host(), "registered before host ids");
      assertTrue(unclaimed.heldBy(new HostId("host-b")));
      assertEquals(7, b.read(tx -> tx.workspaces().byRealRoot("/w")).orElseThrow().id());
      assertEquals(7, b.read(tx -> tx.sessions().byExternalId("s")).orElseThrow().workspaceId());
      assertEquals(
          List.of(7L),
          b.read(tx -> tx.workspaces().tracked()).stream().map(StoredWorkspace::id).toList());
      StoredWorkspace adopted = b.write(tx -> tx.workspaces().register("/w", "/w", 1, 10));
      assertEquals(7, adopted.id(), "the first host to register the root adopts the row");
      assertEquals(Optional.of(new HostId("host-b")), adopted.host());
    }
    try (Store a = openAs("host-a", file)) {
      assertTrue(a.read(tx -> tx.workspaces().byRealRoot("/w")).isEmpty());
      assertTrue(a.read(tx -> tx.workspaces().tracked()).isEmpty(), "host-b's now");
      assertTrue(a.write(tx -> tx.workspaces().register("/w", "/w", 2, 20)).id() != 7);
    }
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement();
        ResultSet violations = statement.executeQuery("PRAGMA foreign_key_check")) {
      assertFalse(violations.next(), "every row still points at its workspace");
    }
  }

  @Test
  void aHostIdIsAShortNameAndAnythingElseIsRefusedNamingIt() {
    assertEquals("5f3c0a9e2b", new HostId("5f3c0a9e2b").value());
    assertEquals("ci-runner-7.example:2", new HostId("ci-runner-7.example:2").value());
    for (String bad : List.of("", " a", "-a", "a/b", "a b", "x".repeat(129), "é")) {
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> new HostId(bad), bad);
      assertTrue(refused.getMessage().contains("'" + bad + "'"), refused.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> new HostId(null));
  }

  @Test
  void thisMachineIsTheOverrideElseTheMachineIdElseARandomIdKeptInTheDataFolder() throws Exception {
    Path machineId = temp.resolve("machine-id");
    Files.writeString(machineId, "0123456789abcdef0123456789abcdef\n", StandardCharsets.UTF_8);
    Path home = temp.resolve("home");
    Map<String, String> environment = Map.of(HostId.VARIABLE, "from-env");
    assertEquals(
        new HostId("from-property"),
        HostId.thisMachine(Optional.of("from-property"), environment, machineId, home));
    assertEquals(
        new HostId("from-env"), HostId.thisMachine(Optional.empty(), environment, machineId, home));
    assertEquals(
        new HostId("0123456789abcdef0123456789abcdef"),
        HostId.thisMachine(Optional.empty(), Map.of(), machineId, home));
    Path missing = temp.resolve("no-machine-id");
    HostId made = HostId.thisMachine(Optional.empty(), Map.of(), missing, home);
    Path kept = home.resolve(".local/share/turndiff/host-id");
    assertEquals(made.value() + "\n", Files.readString(kept));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
    assertEquals(made, HostId.thisMachine(Optional.empty(), Map.of(), missing, home), "kept");
    assertEquals(
        List.of("host-id"),
        Files.list(kept.getParent()).map(p -> p.getFileName().toString()).toList(),
        "no temporary file left");
    IllegalArgumentException badOverride =
        assertThrows(
            IllegalArgumentException.class,
            () -> HostId.thisMachine(Optional.of("a/b"), Map.of(), missing, home));
    assertTrue(badOverride.getMessage().contains("'a/b'"));
  }
}
