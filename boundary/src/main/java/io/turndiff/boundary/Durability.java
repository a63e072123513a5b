package io.turndiff.boundary;

/**
 * When a staged file's content reaches the disk. A caller that stages one file (a hook's settings)
 * has it synced before it can be renamed over anything. A caller that writes a batch and keeps its
 * own durable record of what each file must hold (a rewind: its journal, committed before the first
 * write, names every intended state by hash and the store holds it) syncs the whole batch once at
 * its end ({@link WorkspaceBoundary#syncFileSystem}) and redoes from that record whatever a power
 * loss took back: one {@code syncfs} instead of an {@code fsync} per file and per directory.
 */
public enum Durability {
  /** The file is synced ({@code fsync}) as it is staged, before anything is renamed over a name. */
  SYNCED_EACH,
  /** Not synced here: the caller syncs the file system once after the batch. */
  SYNCED_AT_THE_END
}
