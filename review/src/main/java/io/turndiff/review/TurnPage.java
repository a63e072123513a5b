package io.turndiff.review;

import java.util.List;
import java.util.Optional;

/**
 * One page of a session's turns, oldest first.
 *
 * @param workspace the root of the session's workspace, as the store keeps it (what the workspace
 *     is named by in the other queries)
 * @param nextAfter the {@code after} to ask for the next page with, when there may be one
 */
public record TurnPage(
    String session, String workspace, List<ListedTurn> turns, Optional<Long> nextAfter) {}
