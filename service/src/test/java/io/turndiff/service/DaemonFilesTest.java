package io.turndiff.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A serve's files and the watch over its record, in a real folder with the real watch thread (its
 * period, 5 s, waited out where what is checked is that it did not act).
 */
class DaemonFilesTest {

  private static final Program PROGRAM = new Program("0.0-test", "/opt/turndiff/lib/turndiff.jar");

  @TempDir Path temp;

  /**
   * A serve stopping withdraws its record first, then closes its port and its store, then removes
   * its token: the watch, still running meanwhile, must not take the record its own instance
   * withdrew for a newer daemon's doing, or the token is left behind (seen in OneServicePerStoreIT:
   * "its token removed").
   */
  @Test
  void aRecordItsOwnInstanceWithdrewLeavesTheWatchAloneAndTheTokenIsRemoved() throws Exception {
    Path token = token("a.token");
    DaemonFiles files = new DaemonFiles(temp.resolve("a.json"), token, "instance-a");
    files.publish(
        "secret-secret-secret", 4242, temp.resolve("a.db"), temp.resolve("a.log"), PROGRAM);
    CountDownLatch stopped = new CountDownLatch(1);
    files.watch(stopped::countDown);

    files.withdraw();
    assertFalse(Files.exists(temp.resolve("a.json")), "the record withdrawn");
    // the port closing and the store closing take this long and more at load: a tick of the watch
    assertFalse(stopped.await(7, TimeUnit.SECONDS), "the watch did not act on its own withdrawal");
    files.removeToken();

    assertFalse(Files.exists(token), "its token removed");
    assertFalse(Files.exists(temp.resolve("a.header")), "its header removed");
  }

  /**
   * A record that a newer daemon replaced: the watch stops this one, and its stop leaves the newer
   * daemon's token and header alone.
   */
  @Test
  void aRecordANewerDaemonReplacedStopsThisOneAndItsFilesAreNotTouched() throws Exception {
    Path token = token("b.token");
    Path discovery = temp.resolve("b.json");
    DaemonFiles older = new DaemonFiles(discovery, token, "instance-old");
    older.publish("secret-secret-old", 4242, temp.resolve("b.db"), temp.resolve("b.log"), PROGRAM);
    CountDownLatch stopped = new CountDownLatch(1);
    older.watch(stopped::countDown);

    new DaemonFiles(discovery, token, "instance-new")
        .publish("secret-secret-new", 4343, temp.resolve("b.db"), temp.resolve("b.log"), PROGRAM);
    assertTrue(stopped.await(30, TimeUnit.SECONDS), "the watch stopped the older one");
    older.withdraw();
    older.removeToken();

    assertEquals("instance-new", Discovery.read(discovery).orElseThrow().instance());
    assertTrue(Files.exists(token), "the newer daemon's token kept");
    assertTrue(
        Files.readString(temp.resolve("b.header")).contains("secret-secret-new"),
        "the newer daemon's header kept");
  }

  private Path token(String name) throws Exception {
    Path token = temp.resolve(name);
    Files.writeString(token, "secret\n");
    return token;
  }
}
