package io.turndiff.store;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import java.util.function.Supplier;

/**
 * A workspace's zstd dictionary, as the store keeps it ({@code content_dictionary}): the bytes a
 * blob's frame was compressed with, under the id the blob names. A small file compressed on its own
 * starts from nothing; with a dictionary trained on the tree's own files ({@link
 * DictionaryTraining}) it starts from what such files share (a licence header, the imports, the
 * idioms). A frame decodes only with the dictionary it was made with: zstd writes the dictionary's
 * own id into each frame and refuses another.
 *
 * <p>Immutable once stored: a collection removes blobs, never a dictionary, so an id names the same
 * bytes for the store's life, and a store may keep the digested forms it made ({@link
 * ContentDictionaries}). Digesting (zstd's tables for one side) costs about as much as compressing
 * a few hundred small files, so each side is made once, when first needed.
 */
public final class ContentDictionary {

  /** The level a dictionary's frames are compressed at: the blob table's ({@link BlobCodec}). */
  static final int LEVEL = 3;

  private final long id;
  private final byte[] data;
  private ZstdDictCompress compression;
  private ZstdDictDecompress decompression;

  ContentDictionary(long id, byte[] data) {
    if (data.length == 0) {
      throw new IllegalArgumentException("content dictionary " + id + " is empty");
    }
    this.id = id;
    this.data = data.clone();
  }

  /** The row's id: what a blob compressed with it names. */
  public long id() {
    return id;
  }

  /** Its size in bytes. */
  public int size() {
    return data.length;
  }

  /**
   * @throws StoreException when zstd cannot load it (a row damaged since it was stored)
   */
  synchronized ZstdDictCompress forCompression() {
    if (compression == null) {
      compression = loaded(() -> new ZstdDictCompress(data, LEVEL));
    }
    return compression;
  }

  /**
   * @throws StoreException when zstd cannot load it (a row damaged since it was stored)
   */
  synchronized ZstdDictDecompress forDecompression() {
    if (decompression == null) {
      decompression = loaded(() -> new ZstdDictDecompress(data));
    }
    return decompression;
  }

  /** One side digested by zstd; its failure (zstd-jni throws unchecked) named as a store's. */
  private <T> T loaded(Supplier<T> digest) {
    try {
      return digest.get();
    } catch (RuntimeException e) {
      throw new StoreException(
          "content dictionary "
              + id
              + " does not load: "
              + e.getMessage()
              + ": the store is damaged",
          e);
    }
  }

  byte[] bytes() {
    return data.clone();
  }
}
