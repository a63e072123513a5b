package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;

/** One turn that touched a path, with what it did to it and how the turn stands to rewinds. */
public record HistoryEntry(StoredTurn turn, StoredFileChange change, TurnRewinds rewinds) {}
