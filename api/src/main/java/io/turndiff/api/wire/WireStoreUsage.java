package io.turndiff.api.wire;

import io.turndiff.store.RetentionPolicy;
import io.turndiff.store.StoreUsage;
import java.util.List;

/**
 * {@code turndiff du --json}: the store's footprint, per workspace and session, and the retention
 * policy kept with the store ({@code turndiff config}).
 */
public record WireStoreUsage(
    String store,
    long fileBytes,
    long freeBytes,
    long blobs,
    long blobBytes,
    long unreferencedBlobBytes,
    long indexBlobBytes,
    long dictionaryBytes,
    WireRetentionConfig retention,
    List<Workspace> workspaces) {

  /** A workspace, the bytes of its compression dictionary (0 when none), and its sessions. */
  public record Workspace(String workspace, long dictionaryBytes, List<Session> sessions) {}

  /**
   * A session's records and the stored bytes of the blobs they refer to; {@code shared_blob_bytes}
   * of them something else refers to too.
   */
  public record Session(
      String session,
      long turns,
      long openTurns,
      long records,
      long blobs,
      long blobBytes,
      long sharedBlobBytes) {

    static Session of(StoreUsage.SessionUsage usage) {
      return new Session(
          usage.session(),
          usage.turns(),
          usage.openTurns(),
          usage.records(),
          usage.blobs(),
          usage.blobBytes(),
          usage.sharedBlobBytes());
    }
  }

  public static WireStoreUsage of(String store, StoreUsage usage, RetentionPolicy retention) {
    return new WireStoreUsage(
        store,
        usage.fileBytes(),
        usage.freeBytes(),
        usage.blobs(),
        usage.blobBytes(),
        usage.unreferencedBlobBytes(),
        usage.indexBlobBytes(),
        usage.dictionaryBytes(),
        WireRetentionConfig.of(retention),
        usage.workspaces().stream()
            .map(
                workspace ->
                    new Workspace(
                        workspace.root(),
                        workspace.dictionaryBytes(),
                        workspace.sessions().stream().map(Session::of).toList()))
            .toList());
  }
}
