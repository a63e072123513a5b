package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import io.turndiff.model.TurnKind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged copies of a real store, made the ways files get damaged: emptied, cut short in the middle
 * of a page, header overwritten, a page of garbage, a torn WAL, a file that never was SQLite. None
 * is taken for a new store, none is written to, and every refusal names the file and what to do.
 */
class DamagedStoreTest {

  private static final int BLOBS = 120;

  @TempDir Path temp;

  private Path good;
  private final List<Sha256> blobs = new ArrayList<>();

  /**
   * A real store closed cleanly: a workspace, a session, a turn and blobs spread over many pages.
   */
  @BeforeEach
  void realStore() {
    good = temp.resolve("good/turndiff.db");
    try (Store store = Store.open(good)) {
      store.write(
          tx -> {
            StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
            tx.turns().begin("t1", tx.sessions().create("s1", workspace.id()), TurnKind.AGENT);
            return null;
          });
      for (int i = 0; i < BLOBS; i++) {
        byte[] content = new byte[3000];
        new Random(i).nextBytes(content);
        blobs.add(store.write(tx -> tx.blobs().put(content)));
      }
    }
  }

  private Path copy(String name) throws Exception {
    Path file = Files.createDirectories(temp.resolve(name)).resolve("turndiff.db");
    Files.copy(good, file);
    return file;
  }

  private static StoreException refusedToOpen(Path file) {
    StoreException refused = assertThrows(StoreException.class, () -> Store.open(file));
    assertEquals(StoreException.Problem.DAMAGED, refused.problem(), refused.getMessage());
    assertNamesTheFileAndWhatToDo(refused, file);
    return refused;
  }

  private static void assertNamesTheFileAndWhatToDo(StoreException refusal, Path file) {
    String message = refusal.getMessage();
    assertTrue(message.contains(file.toString()), message);
    assertTrue(
        message.contains("damaged") && message.contains("backup") && message.contains(".recover"),
        message);
  }

  private static void assertNoWalOrShm(Path file) {
    for (String suffix : new String[] {"-wal", "-shm"}) {
      assertFalse(
          Files.exists(file.resolveSibling(file.getFileName() + suffix)), suffix + " was created");
    }
  }

  @Test
  void anEmptyFileIsRefusedNotTakenForANewStore() throws Exception {
    Path file = Files.createDirectories(temp.resolve("empty")).resolve("turndiff.db");
    Files.createFile(file);
    StoreException refused = refusedToOpen(file);
    assertTrue(refused.getMessage().contains("empty (0 bytes)"), refused.getMessage());
    assertEquals(0, Files.size(file), "the empty file was initialised");
    assertNoWalOrShm(file);
  }

  @Test
  void aFileThatIsNotSqliteIsRefusedAndLeftAsItIs() throws Exception {
    Path file = Files.createDirectories(temp.resolve("text")).resolve("turndiff.db");
    Files.writeString(file, "this is not a database\n".repeat(2000));
    byte[] before = Files.readAllBytes(file);
    StoreException refused = refusedToOpen(file);
    assertTrue(refused.getMessage().contains("not an SQLite database"), refused.getMessage());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertNoWalOrShm(file);
  }

  @Test
  void aStoreWhoseHeaderWasOverwrittenIsRefused() throws Exception {
    Path file = copy("magic");
    overwrite(file, 0, "Garbage format 9\0".getBytes(StandardCharsets.US_ASCII));
    byte[] before = Files.readAllBytes(file);
    refusedToOpen(file);
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void aStoreCutShortInTheMiddleOfAPageIsRefused() throws Exception {
    Path file = copy("truncated");
    long pageSize = pageSize(file);
    try (var channel = Files.newByteChannel(file, StandardOpenOption.WRITE)) {
      channel.truncate(Files.size(file) / 2 / pageSize * pageSize + pageSize / 2);
    }
    byte[] before = Files.readAllBytes(file);
    StoreException refused = refusedToOpen(file);
    assertTrue(refused.getMessage().contains("cut short"), refused.getMessage());
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void aStoreWithAPageOfGarbageIsFoundAtOpenAndNeverWritten() throws Exception {
    Path file = copy("garbage-page");
    garbageOver(file, rootPage(file, "turn"));
    byte[] before = Files.readAllBytes(file);
    try (Store store = Store.open(file)) {
      assertTrue(store.damage().isPresent(), "the integrity check at open found nothing");
      assertTrue(store.readOnly());
      StoreException refused =
          assertThrows(
              StoreException.class,
              () -> store.write(tx -> tx.workspaces().register("/x", "/x", 3, 4)));
      assertEquals(StoreException.Problem.DAMAGED, refused.problem());
      assertNamesTheFileAndWhatToDo(refused, file);
      // what the damage did not reach is still answered
      assertTrue(holds(store, blobs.getFirst()));
    }
    assertArrayEquals(before, Files.readAllBytes(file), "the damaged store was written to");
  }

  @Test
  void damageFirstMetByAStatementIsReportedClearlyAndStopsEveryWrite() throws Exception {
    Path file = copy("found-later");
    garbageOver(file, rootPage(file, "blob"));
    byte[] before = Files.readAllBytes(file);
    // no time for the check at open, as on a store too big to check whole
    try (Store store =
        Store.open(file, InstantSource.system(), Store.BUSY_TIMEOUT, Duration.ZERO)) {
      assertTrue(store.damage().isEmpty());
      StoreException read =
          assertThrows(
              StoreException.class, () -> store.read(tx -> tx.blobs().get(blobs.getFirst())));
      assertEquals(StoreException.Problem.DAMAGED, read.problem());
      assertNamesTheFileAndWhatToDo(read, file);
      assertTrue(store.damage().isPresent());
      // a write that would not touch the damaged page is refused all the same
      StoreException write =
          assertThrows(
              StoreException.class,
              () -> store.write(tx -> tx.workspaces().register("/x", "/x", 3, 4)));
      assertEquals(StoreException.Problem.DAMAGED, write.problem());
      assertNamesTheFileAndWhatToDo(write, file);
    }
    assertArrayEquals(before, Files.readAllBytes(file), "the damaged store was written to");
  }

  @Test
  void aWalOfGarbageIsDroppedAsSqliteDropsATornWal() throws Exception {
    Path file = copy("wal-garbage");
    byte[] garbage = new byte[100_000];
    new Random(7).nextBytes(garbage);
    Files.write(file.resolveSibling("turndiff.db-wal"), garbage);
    try (Store store = Store.open(file)) {
      assertTrue(store.damage().isEmpty(), store.damage().toString());
      for (Sha256 sha : blobs) {
        assertTrue(holds(store, sha));
      }
      Sha256 added =
          store.write(tx -> tx.blobs().put("after the torn WAL".getBytes(StandardCharsets.UTF_8)));
      assertTrue(holds(store, added));
    }
  }

  @Test
  void aStoreUnchangedSinceACleanCheckIsOpenedWithoutCheckingItAgain() throws Exception {
    Path file = copy("clean-check");
    settle(file);
    try (Store store = Store.open(file)) {
      assertFalse(store.uncheckedSinceCleanCheck(), "a store never checked was not checked");
      assertTrue(store.damage().isEmpty());
    }
    assertTrue(Files.exists(CleanCheck.recordOf(file)), "the clean check was not recorded");
    for (int open = 0; open < 2; open++) {
      try (Store store = Store.open(file)) {
        assertTrue(store.uncheckedSinceCleanCheck(), "open " + open + " checked the store again");
        assertTrue(holds(store, blobs.getFirst()));
      }
    }
  }

  @Test
  void aWriteAfterTheCleanCheckMakesTheNextOpenCheckAgain() throws Exception {
    Path file = copy("written-since");
    settle(file);
    Store.open(file).close();
    try (Store store = Store.open(file)) {
      assertTrue(store.uncheckedSinceCleanCheck());
      store.write(tx -> tx.blobs().put("a later write".getBytes(StandardCharsets.UTF_8)));
    }
    try (Store store = Store.open(file)) {
      assertFalse(store.uncheckedSinceCleanCheck(), "the written store was not checked again");
    }
  }

  @Test
  void damageDoneInPlaceAfterACleanCheckIsFoundAtTheNextOpen() throws Exception {
    Path file = copy("damaged-since");
    int page = rootPage(file, "turn");
    settle(file);
    Store.open(file).close();
    assertTrue(Files.exists(CleanCheck.recordOf(file)), "the clean check was not recorded");
    // the same file, same size, same inode: only its times tell, at once after the record
    garbageOver(file, page);
    byte[] before = Files.readAllBytes(file);
    try (Store store = Store.open(file)) {
      assertFalse(store.uncheckedSinceCleanCheck(), "the damaged store was taken as checked");
      assertTrue(store.damage().isPresent(), "the integrity check at open found nothing");
      assertThrows(
          StoreException.class,
          () -> store.write(tx -> tx.workspaces().register("/x", "/x", 3, 4)));
    }
    assertArrayEquals(before, Files.readAllBytes(file), "the damaged store was written to");
  }

  /**
   * {@code turndiff doctor}'s whole check reads every page, whatever the open's budget: damage the
   * open did not look for is found, a sound store is said finished and sound, and the clean check
   * is recorded so that the next open skips its own.
   */
  @Test
  void theWholeCheckFindsDamageTheOpenDidNotLookForAndASoundStoreIsSaidSound() throws Exception {
    Path damaged = copy("whole-damaged");
    garbageOver(damaged, rootPage(damaged, "blob"));
    byte[] before = Files.readAllBytes(damaged);
    try (Store store =
        Store.open(damaged, InstantSource.system(), Store.BUSY_TIMEOUT, Duration.ZERO)) {
      assertTrue(store.damage().isEmpty(), "the open checked nothing");
      StoreCheck checked = store.checkWhole(Duration.ofSeconds(30));
      assertTrue(checked.applies());
      assertTrue(checked.finished());
      assertTrue(checked.damage().isPresent(), checked.toString());
    }
    assertArrayEquals(before, Files.readAllBytes(damaged), "the damaged store was written to");

    try (Store store =
        Store.open(
            copy("whole-sound"), InstantSource.system(), Store.BUSY_TIMEOUT, Duration.ZERO)) {
      assertEquals(
          new StoreCheck(true, true, Optional.empty()), store.checkWhole(Duration.ofSeconds(30)));
    }
  }

  @Test
  void aCheckCutShortOrAStoreChangedJustNowRecordsNothing() throws Exception {
    Path file = copy("unfinished");
    settle(file);
    Store.open(file, InstantSource.system(), Store.BUSY_TIMEOUT, Duration.ZERO).close();
    assertFalse(Files.exists(CleanCheck.recordOf(file)), "a check that never ran was recorded");

    Path fresh = copy("fresh");
    CleanCheck.StoreState now = CleanCheck.StoreState.of(fresh);
    // as if taken within a millisecond of the file's last change
    CleanCheck.StoreState racy =
        new CleanCheck.StoreState(
            now.database(), now.wal(), now.database().ctimeNanos() + 1_000_000);
    CleanCheck.record(fresh, racy);
    assertFalse(Files.exists(CleanCheck.recordOf(fresh)), "a racy state was recorded");
  }

  /** Waits until the file's last change is older than the racy window, as a store at rest is. */
  private static void settle(Path file) throws Exception {
    while (!CleanCheck.StoreState.of(file).settled()) {
      Thread.sleep(20);
    }
  }

  @Test
  void aNewStoreOpenedByManyThreadsAtOnceIsCreatedOnceAndWhole() throws Exception {
    Path file = temp.resolve("race/turndiff.db");
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Sha256>> opened = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        byte[] content = ("thread " + i).getBytes(StandardCharsets.UTF_8);
        opened.add(
            pool.submit(
                () -> {
                  start.await();
                  try (Store store = Store.open(file)) {
                    return store.write(tx -> tx.blobs().put(content));
                  }
                }));
      }
      List<Sha256> stored = new ArrayList<>();
      for (Future<Sha256> each : opened) {
        stored.add(each.get(2, TimeUnit.MINUTES));
      }
      try (Store store = Store.open(file)) {
        for (Sha256 sha : stored) {
          assertTrue(holds(store, sha), "a thread's store was replaced");
        }
      }
    } finally {
      pool.shutdownNow();
    }
    try (Stream<Path> names = Files.list(file.getParent())) {
      // the migration lock stays, as a lock file does; no temporary file of a half-made store is
      // left (nor the record of a clean check, which a store that rested long enough before the
      // last open gets)
      assertEquals(
          List.of("turndiff.db", "turndiff.db.migrate-lock"),
          names
              .map(p -> p.getFileName().toString())
              .filter(name -> !name.equals("turndiff.db.checked"))
              .sorted()
              .toList(),
          "a temporary file was left behind");
    }
  }

  @Test
  void aStoreWhosePathHasUriCharactersIsThatOneFile() throws Exception {
    Path folder = temp.resolve("a b#c?d%20e");
    Path file = folder.resolve("turndiff.db");
    try (Store store = Store.open(file)) {
      store.write(tx -> tx.blobs().put("x".getBytes(StandardCharsets.UTF_8)));
    }
    try (Stream<Path> names = Files.list(folder)) {
      assertEquals(
          List.of("turndiff.db", "turndiff.db.migrate-lock"),
          names
              .map(p -> p.getFileName().toString())
              .filter(name -> !name.equals("turndiff.db.checked"))
              .sorted()
              .toList());
    }
    try (Stream<Path> names = Files.list(temp)) {
      assertEquals(
          List.of(folder.getFileName().toString(), "good"),
          names.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  private static int rootPage(Path file, String table) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        ResultSet row =
            connection
                .createStatement()
                .executeQuery("SELECT rootpage FROM sqlite_schema WHERE name = '" + table + "'")) {
      assertTrue(row.next());
      return row.getInt(1);
    }
  }

  private static long pageSize(Path file) throws Exception {
    byte[] header = Files.readAllBytes(file);
    int size = ((header[16] & 0xff) << 8) | (header[17] & 0xff);
    return size == 1 ? 65_536 : size;
  }

  private static void garbageOver(Path file, int page) throws Exception {
    byte[] garbage = new byte[Math.toIntExact(pageSize(file))];
    new Random(page).nextBytes(garbage);
    overwrite(file, (page - 1) * pageSize(file), garbage);
  }

  private static void overwrite(Path file, long offset, byte[] bytes) throws Exception {
    try (var channel = Files.newByteChannel(file, StandardOpenOption.WRITE)) {
      channel.position(offset);
      channel.write(ByteBuffer.wrap(bytes));
    }
  }

  private static boolean holds(Store store, Sha256 sha) {
    return store.read(tx -> tx.blobs().contains(sha));
  }
}
