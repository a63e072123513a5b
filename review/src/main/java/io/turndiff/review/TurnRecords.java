package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.List;

/** A turn with its file changes, as stored, and how it stands to rewinds. */
public record TurnRecords(
    StoredTurn turn, String workspaceRoot, List<StoredFileChange> changes, TurnRewinds rewinds) {}
