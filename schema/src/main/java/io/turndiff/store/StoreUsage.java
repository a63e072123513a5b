package io.turndiff.store;

import java.util.List;
import java.util.Optional;

/**
 * The store's footprint: its file, its blobs, and per workspace and session what their records
 * hold.
 *
 * @param fileBytes the database file with its write-ahead log
 * @param freeBytes pages inside the file that hold nothing (given back by {@code gc})
 * @param blobBytes the stored (compressed) bytes of every blob
 * @param unreferencedBlobBytes stored bytes of the blobs no row refers to ({@code gc} removes them)
 * @param indexBlobBytes stored bytes of the blobs tracked workspaces' indexes refer to
 * @param dictionaryBytes the tracked workspaces' compression dictionaries ({@code
 *     content_dictionary}): kept for as long as the workspace, since its stored contents decode
 *     with it, and neither a blob nor freed by {@code gc}
 */
public record StoreUsage(
    long fileBytes,
    long freeBytes,
    long blobs,
    long blobBytes,
    long unreferencedBlobBytes,
    long indexBlobBytes,
    long dictionaryBytes,
    List<WorkspaceUsage> workspaces) {

  /**
   * Measures {@code store}: every workspace, or only the one whose root (as given, or its real
   * path) is {@code root}.
   */
  public static StoreUsage measure(Store store, Optional<String> root) {
    StoreUsage blobsAndSessions = store.read(tx -> tx.retention().usage(root));
    return new StoreUsage(
        store.fileBytes(),
        store.freePages() * store.pageSize(),
        blobsAndSessions.blobs,
        blobsAndSessions.blobBytes,
        blobsAndSessions.unreferencedBlobBytes,
        blobsAndSessions.indexBlobBytes,
        blobsAndSessions.dictionaryBytes,
        blobsAndSessions.workspaces);
  }

  /**
   * A workspace and its sessions.
   *
   * @param dictionaryBytes its compression dictionary, 0 when it has none
   */
  public record WorkspaceUsage(String root, long dictionaryBytes, List<SessionUsage> sessions) {}

  /**
   * One session's records.
   *
   * @param blobBytes stored bytes of the blobs its records refer to
   * @param sharedBlobBytes of those, the bytes of blobs something else refers to too (another
   *     session, an index, a merge): removing the whole session would free {@code blobBytes -
   *     sharedBlobBytes}
   */
  public record SessionUsage(
      String session,
      long turns,
      long openTurns,
      long records,
      long blobs,
      long blobBytes,
      long sharedBlobBytes) {}
}
