package io.turndiff.review;

import io.turndiff.store.TurnListing;
import java.util.List;
import java.util.Optional;

/**
 * One page of a session's turns, oldest first.
 *
 * @param nextAfter the {@code after} to ask for the next page with, when there may be one
 */
public record TurnPage(String session, List<TurnListing> turns, Optional<Long> nextAfter) {}
