package io.turndiff.review;

import io.turndiff.store.StoredTurn;
import java.util.List;

/**
 * From the before-state of turn {@code from} to the after-state of turn {@code to}, per path, and
 * as a patch.
 */
public record RangeDiff(StoredTurn from, StoredTurn to, List<RangeChange> changes, String patch) {}
