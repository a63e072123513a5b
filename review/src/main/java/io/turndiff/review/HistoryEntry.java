package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;

/** One turn that touched a path, with what it did to it. */
public record HistoryEntry(StoredTurn turn, StoredFileChange change) {}
