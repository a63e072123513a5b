package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.List;

/** A turn with its file changes, as stored. */
public record TurnRecords(StoredTurn turn, String workspaceRoot, List<StoredFileChange> changes) {}
