package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A workspace's zstd dictionary in the store (V31, docs/store-layout.md, "Content dictionaries"),
 * on both dialects: contents compressed with it are stored under its id, one at a time and many at
 * once, and read back exact by a store that has not read the dictionary yet, as is a delta whose
 * base is such a content; a frame refuses any other dictionary; too few samples train none.
 */
class ContentDictionaryTest {

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void contentsCompressedWithADictionaryReadBackFromAStoreOpenedAgain(String dialect)
      throws Exception {
    List<byte[]> sources = sources(1_500);
    byte[] trained = DictionaryTraining.train(sources).orElseThrow();
    StoreAddress address = DialectStores.fresh(dialect, temp);
    byte[] edited =
        (new String(sources.get(7), StandardCharsets.UTF_8) + "// one more line\n")
            .getBytes(StandardCharsets.UTF_8);
    long id;
    try (Store store = Store.open(address)) {
      long workspace = store.write(tx -> tx.workspaces().register("/w", "/w", 1, 2).id());
      ContentDictionary dictionary = store.write(tx -> tx.dictionaries().add(workspace, trained));
      id = dictionary.id();
      List<EncodedBlob> encoded = new ArrayList<>();
      for (byte[] source : sources) {
        encoded.add(BlobEncoder.encode(Sha256.of(source), source, dictionary));
      }
      store.write(
          tx -> {
            tx.blobs().put(encoded.getFirst()); // one: its own statement
            tx.blobs().putAll(encoded.subList(1, encoded.size())); // many: multi-row statements
            // an edit of a file, compressed as a finish does against its before-state
            tx.blobs()
                .put(
                    BlobEncoder.encode(
                        Sha256.of(edited),
                        edited,
                        Optional.of(
                            new DeltaBase(
                                Sha256.of(sources.get(7)), sources.get(7), OptionalLong.of(0)))));
            return null;
          });
      assertEquals(
          Optional.of(id),
          store.read(tx -> tx.dictionaries().ofWorkspace(workspace).map(ContentDictionary::id)));
    }
    try (Connection connection = DialectStores.connect(address);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT count(*), min(dictionary_id), max(dictionary_id) FROM blob"
                    + " WHERE dictionary_id IS NOT NULL")) {
      assertTrue(rows.next());
      assertEquals(sources.size(), rows.getLong(1), "every source with the dictionary");
      assertEquals(id, rows.getLong(2));
      assertEquals(id, rows.getLong(3));
    }
    Map<Sha256, byte[]> expected = new HashMap<>();
    sources.forEach(source -> expected.put(Sha256.of(source), source));
    expected.put(Sha256.of(edited), edited);
    try (Store reopened = Store.open(address)) {
      reopened.read(
          tx -> {
            // one at a time (a prepared look-up), in IN lists with the delta's chain (a rewind's
            // reads), and a pass over every blob
            for (byte[] source : sources) {
              assertArrayEquals(source, tx.blobs().get(Sha256.of(source)).orElseThrow());
            }
            assertArrayEquals(edited, tx.blobs().get(Sha256.of(edited)).orElseThrow(), "delta");
            Blobs.CheckedContents checked = tx.blobs().checkedContents(expected.keySet());
            assertEquals(Map.of(), checked.damaged());
            assertContents(expected, checked.sound());
            Map<Sha256, byte[]> every = new HashMap<>();
            tx.blobs().forEach(every::put);
            assertContents(expected, every);
            return null;
          });
    }
  }

  /**
   * The store's usage counts each workspace's dictionary, which is no blob: in all, and for its
   * workspace only; a workspace without one counts none.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void theStoresUsageCountsEachWorkspacesDictionary(String dialect) throws Exception {
    byte[] trained = DictionaryTraining.train(sources(1_500)).orElseThrow();
    try (Store store = Store.open(DialectStores.fresh(dialect, temp))) {
      store.write(
          tx -> {
            StoredWorkspace tracked = tx.workspaces().register("/w", "/w", 1, 2);
            tx.dictionaries().add(tracked.id(), trained);
            tx.sessions().create("s", tracked.id());
            tx.sessions().create("r", tx.workspaces().register("/v", "/v", 1, 3).id());
            return null;
          });

      StoreUsage usage = StoreUsage.measure(store, Optional.empty());

      assertEquals(trained.length, usage.dictionaryBytes());
      assertEquals(0, usage.blobBytes(), "a dictionary is no blob");
      Map<String, Long> byWorkspace = new HashMap<>();
      usage.workspaces().forEach(each -> byWorkspace.put(each.root(), each.dictionaryBytes()));
      assertEquals(Map.of("/w", (long) trained.length, "/v", 0L), byWorkspace);
      List<StoreUsage.WorkspaceUsage> one =
          StoreUsage.measure(store, Optional.of("/v")).workspaces();
      assertEquals(List.of("/v"), one.stream().map(StoreUsage.WorkspaceUsage::root).toList());
      assertEquals(0, one.getFirst().dictionaryBytes(), "another workspace's is not its own");
    }
  }

  /**
   * A frame whose row no longer names its dictionary does not decode: zstd refuses a frame that
   * names a dictionary it was not given, rather than giving other bytes.
   */
  @Test
  void aFrameWhoseRowLostItsDictionaryIsRefused() throws Exception {
    StoreAddress address = DialectStores.fresh("sqlite", temp);
    byte[] source = sources(1_500).get(5);
    storeWithADictionary(address, source);
    try (Connection connection = DialectStores.connect(address);
        Statement statement = connection.createStatement()) {
      statement.execute("UPDATE blob SET dictionary_id = NULL");
    }
    try (Store store = Store.open(address)) {
      StoreException refused =
          assertThrows(
              StoreException.class, () -> store.read(tx -> tx.blobs().get(Sha256.of(source))));
      assertTrue(refused.getMessage().contains("does not decode"), refused.getMessage());
    }
  }

  /**
   * A dictionary whose bytes changed since it was stored is named as damaged where a frame needs
   * it: every frame of a baseline decodes with it, and without the check each would decode to other
   * bytes (a frame has no checksum of its own).
   */
  @Test
  void aDamagedDictionaryIsNamedWhereAFrameNeedsIt() throws Exception {
    StoreAddress address = DialectStores.fresh("sqlite", temp);
    byte[] source = sources(1_500).get(9);
    long id = storeWithADictionary(address, source);
    try (Connection connection = DialectStores.connect(address);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT data FROM content_dictionary")) {
      assertTrue(rows.next());
      byte[] damaged = rows.getBytes(1);
      damaged[60_000] ^= 0x5a; // one byte of its content, far past its header
      try (PreparedStatement update =
          connection.prepareStatement("UPDATE content_dictionary SET data = ?")) {
        update.setBytes(1, damaged);
        update.execute();
      }
    }
    try (Store store = Store.open(address)) {
      StoreException refused =
          assertThrows(
              StoreException.class, () -> store.read(tx -> tx.blobs().get(Sha256.of(source))));
      assertTrue(
          refused.getMessage().contains("content dictionary " + id + " no longer hashes"),
          refused.getMessage());
    }
  }

  /**
   * A dictionary a write added and then rolled back is not remembered by the store: SQLite gives
   * its id to the next dictionary added, and the store reads that one's bytes under it.
   */
  @Test
  void aDictionaryOfARolledBackWriteIsNotRemembered() {
    byte[] first = DictionaryTraining.train(sources(1_500)).orElseThrow();
    byte[] second = DictionaryTraining.train(sources(1_200)).orElseThrow();
    try (Store store = Store.open(DialectStores.fresh("sqlite", temp))) {
      long workspace = store.write(tx -> tx.workspaces().register("/w", "/w", 1, 2).id());
      long[] rolledBack = new long[1];
      assertThrows(
          RuntimeException.class,
          () ->
              store.write(
                  tx -> {
                    rolledBack[0] = tx.dictionaries().add(workspace, first).id();
                    // read back inside the write, as a read joined to it would
                    tx.dictionaries().byId(rolledBack[0]);
                    throw new IllegalStateException("rolled back");
                  }));
      long added = store.write(tx -> tx.dictionaries().add(workspace, second).id());
      assertEquals(rolledBack[0], added, "SQLite gave the id again");
      assertArrayEquals(second, store.read(tx -> tx.dictionaries().byId(added)).bytes());
    }
  }

  /**
   * {@code source} stored at {@code address} compressed with a dictionary trained on {@link
   * #sources}; returns the dictionary's id.
   */
  private static long storeWithADictionary(StoreAddress address, byte[] source) {
    try (Store store = Store.open(address)) {
      long workspace = store.write(tx -> tx.workspaces().register("/w", "/w", 1, 2).id());
      byte[] trained = DictionaryTraining.train(sources(1_500)).orElseThrow();
      ContentDictionary dictionary = store.write(tx -> tx.dictionaries().add(workspace, trained));
      store.write(tx -> tx.blobs().put(BlobEncoder.encode(Sha256.of(source), source, dictionary)));
      return dictionary.id();
    }
  }

  private static void assertContents(Map<Sha256, byte[]> expected, Map<Sha256, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    expected.forEach((sha, content) -> assertArrayEquals(content, actual.get(sha), sha.hex()));
  }

  @Test
  void aFrameDecodesWithItsOwnDictionaryAloneAndNamesItWhenGivenAnother() {
    List<byte[]> sources = sources(1_500);
    ContentDictionary dictionary =
        new ContentDictionary(1, DictionaryTraining.train(sources).orElseThrow());
    ContentDictionary other =
        new ContentDictionary(2, DictionaryTraining.train(sources(1_200)).orElseThrow());
    byte[] source = sources.get(3);
    EncodedBlob.Whole whole =
        BlobEncoder.encode(Sha256.of(source), source, dictionary).whole().orElseThrow();
    assertEquals(BlobCodec.ZSTD, whole.encoding());
    assertEquals(OptionalLong.of(1), whole.dictionary());

    assertArrayEquals(source, BlobCodec.decode(whole.data(), source.length, dictionary));
    StoreException refused =
        assertThrows(
            StoreException.class, () -> BlobCodec.decode(whole.data(), source.length, other));
    assertTrue(refused.getMessage().contains("content dictionary 2"), refused.getMessage());
  }

  @Test
  void tooFewSamplesTrainNoDictionary() {
    assertEquals(
        Optional.empty(), DictionaryTraining.train(sources(DictionaryTraining.FEWEST_SAMPLES - 1)));
  }

  /** {@code count} small Java sources, alike as a tree's files are, each its own. */
  private static List<byte[]> sources(int count) {
    List<byte[]> sources = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sources.add(
"""
          /*
           * Copyright 2002-2026 the original author or authors.
           * Licensed under the Apache License, Version 2.0.
           */
          package org.example.p%d;

          import java.util.HashMap;
import java.util.List;
import java.util.Map;
          import java.util.Optional;

          public final class Type%d {
            public Optional<Integer> first(List<Integer> values) {
              return values.stream().findFirst().map(v -> v + %d);
            }
          }
          """
              .formatted(i % 10, i, count * 31 + i * 7)
              .getBytes(StandardCharsets.UTF_8));
    }
    return sources;
  }
}
