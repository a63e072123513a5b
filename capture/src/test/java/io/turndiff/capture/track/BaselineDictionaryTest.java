package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.SmallSources;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.Sha256;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tracked workspace's zstd dictionary, over a real store and real files: a first track of many
 * small files trains one on a sample of them and stores the files with it, smaller than alone;
 * every content reads back exact from a store opened again; a later track's new contents use the
 * same dictionary; a workspace of few files gets none. The canary: a link and a hardlink to the
 * outside secret sit among the samples' candidates, and the secret's bytes are nowhere in the store
 * files, the dictionary among them.
 */
class BaselineDictionaryTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
    store.localFile().ifPresent(workspace.canary()::assertNotInStoreFiles);
  }

  @Test
  void aFirstTrackOfManySmallFilesStoresThemWithADictionaryTrainedOnThem() {
    Map<String, byte[]> files = sources(1_200, 0);
    workspace.symlink("src/secret-link", workspace.secret().toString());
    workspace.hardlink("src/secret-hardlink.txt", workspace.secret());
    workspace.refreshOutsidePicture();

    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);

    assertEquals("1", rows("SELECT count(*) FROM content_dictionary"));
    long withDictionary =
        Long.parseLong(rows("SELECT count(*) FROM blob WHERE dictionary_id IS NOT NULL"));
    assertTrue(withDictionary >= 1_150, withDictionary + " of 1,200 files with the dictionary");
    long stored = Long.parseLong(rows("SELECT sum(length(data)) FROM blob"));
    long alone = 0;
    for (byte[] content : files.values()) {
      alone += BlobEncoder.encode(Sha256.of(content), content).whole().orElseThrow().data().length;
    }
    assertTrue(
        stored * 10 < alone * 7,
        "stored with the dictionary " + stored + " bytes, compressed alone " + alone);

    reopen(); // a store that has read no dictionary yet
    assertEveryContentReadsBack(files);
  }

  @Test
  void aLaterTrackStoresNewContentsWithTheSameDictionary() {
    Map<String, byte[]> files = sources(1_200, 0);
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    String dictionary = rows("SELECT min(id) FROM content_dictionary");

    Map<String, byte[]> changed = sources(30, 1);
    files.putAll(changed);
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);

    assertEquals("1", rows("SELECT count(*) FROM content_dictionary"), "not trained again");
    for (byte[] content : changed.values()) {
      assertEquals(
          dictionary,
          rows("SELECT dictionary_id FROM blob WHERE sha256 = '" + Sha256.of(content).hex() + "'"),
          "a content the second track stored");
    }
    reopen();
    assertEveryContentReadsBack(files);
  }

  /**
   * Only a track trains one: a workspace tracked with few files that grew is not trained on in the
   * middle of a hook's scan (a refresh, as a turn's begin makes), and gets its dictionary from the
   * next track that reads many small files.
   */
  @Test
  void aScanOtherThanATrackTrainsNone() throws Exception {
    sources(200, 0);
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    sources(1_200, 1);
    String root = workspace.root().toRealPath().toString();
    long id = store.read(tx -> tx.workspaces().byRealRoot(root)).orElseThrow().id();

    capture.tracker().refresh(id);

    assertEquals("0", rows("SELECT count(*) FROM content_dictionary"), "a refresh trained one");
    sources(1_200, 2);
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    assertEquals("1", rows("SELECT count(*) FROM content_dictionary"), "the next track");
  }

  @Test
  void aWorkspaceOfFewFilesGetsNoDictionary() {
    Map<String, byte[]> files = sources(200, 0);
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);

    assertEquals("0", rows("SELECT count(*) FROM content_dictionary"));
    assertEquals("0", rows("SELECT count(*) FROM blob WHERE dictionary_id IS NOT NULL"));
    assertEveryContentReadsBack(files);
  }

  private void assertEveryContentReadsBack(Map<String, byte[]> files) {
    store.read(
        tx -> {
          files.forEach(
              (path, content) ->
                  assertArrayEquals(
                      content, tx.blobs().get(Sha256.of(content)).orElseThrow(), path));
          return null;
        });
  }

  /** The store closed and opened again, as another process would. */
  private void reopen() {
    capture.close();
    Store reopened = TestStore.reopen(store);
    store.close();
    store = reopened;
    capture = new CaptureService(store, BoundaryOptions.defaults());
  }

  private String rows(String sql) {
    return StoreRows.text(store, sql);
  }

  private Map<String, byte[]> sources(int count, int round) {
    return SmallSources.write(workspace, count, round);
  }
}
