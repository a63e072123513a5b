package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestPostgres;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.PostgresDatabase;
import io.turndiff.store.Store;
import io.turndiff.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line on a PostgreSQL store ({@code --db jdbc:postgresql://...}, a real server the
 * test starts): a turn recorded, shown and rewound; and the credentials rules, each a usage error
 * (exit 2) that never repeats the password.
 */
class PostgresStoreCommandsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private String url;
  private final List<CommandRun> runs = new ArrayList<>();

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    url = TestPostgres.freshStoreUrl();
  }

  @AfterEach
  void canary() {
    workspace.assertOutsideUnchanged();
    for (CommandRun run : runs) {
      workspace.canary().assertNotIn("stdout", run.out());
      workspace.canary().assertNotIn("stderr", run.err());
    }
    PostgresDatabase database =
        (PostgresDatabase) StoreLocation.address(Optional.of(url), Optional.empty(), Map.of());
    try (Store store = Store.open(database)) {
      workspace.canary().assertNotInStore(store);
    }
  }

  private CommandRun turndiff(String... args) {
    List<String> withStore = new ArrayList<>(List.of("--db", url));
    withStore.addAll(List.of(args));
    CommandRun run = CliRun.inProcess(withStore.toArray(String[]::new));
    runs.add(run);
    return run;
  }

  @Test
  void aTurnIsRecordedShownAndRewoundInAPostgresStore() throws Exception {
    workspace.file("a.txt", "before\n");
    String turn =
        turndiff("turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1")
            .expect(0)
            .json()
            .get("turn")
            .asText();
    turndiff("snapshot", "--turn", turn, "a.txt").expect(0);
    turndiff("snapshot", "--turn", turn, "--tool-call", "w1", "--tool", "Write", "a.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "after\n");
    turndiff("turn", "finish", "--turn", turn).expect(0);

    // the call without a tool name is named by its generated id, the other by its tool's name
    JsonNode tools =
        turndiff("show", "--turn", turn, "--json").expect(0).json().get(0).get("tools");
    assertEquals(2, tools.size(), tools.toString());
    assertTrue(tools.get(0).asText().startsWith("call "), tools.toString());
    assertEquals("Write", tools.get(1).asText(), tools.toString());

    CommandRun diff = turndiff("diff", "--turn", turn).expect(0);
    assertTrue(diff.out().contains("-before") && diff.out().contains("+after"), diff.out());

    CommandRun rewind = turndiff("rewind", "--turn", turn).expect(0);
    assertEquals("[\"a.txt\"]", rewind.json().get("restored").toString(), rewind.out());
    assertEquals("before\n", workspace.readText("a.txt"));
  }

  @Test
  void aPasswordInTheUrlOnTheCommandLineIsRefusedWithoutRepeatingIt() {
    CommandRun refused = CliRun.inProcess("--db", url + "&password=hunter2", "du").expect(2);
    assertTrue(refused.err().contains("ps"), refused.err());
    assertFalse(refused.err().contains("hunter2"), refused.err());
    assertFalse(refused.err().contains("Exception"), refused.err());
  }

  @Test
  void aPasswordFileOthersCanReadIsAUsageError() throws Exception {
    Path file = temp.resolve("db-password");
    Files.writeString(file, "secret-password\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    CommandRun refused =
        CliRun.inProcess("--db", url, "--db-password-file", file.toString(), "du").expect(2);
    assertTrue(refused.err().contains("chmod 600"), refused.err());
    assertFalse(refused.err().contains("secret-password"), refused.err());

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    // the server trusts local connections: a password that is read and sent is simply accepted
    CliRun.inProcess("--db", url, "--db-password-file", file.toString(), "du").expect(0);
  }
}
