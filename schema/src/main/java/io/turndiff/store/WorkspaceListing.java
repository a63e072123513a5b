package io.turndiff.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A workspace with recorded turns, as the list of workspaces shows it.
 *
 * @param rootReal the root as the store keeps it (its real path when first opened): what a query
 *     names the workspace by
 * @param sessions how many sessions have a turn in it
 * @param turns how many turns it has, of every kind and state
 * @param lastTurnAt when its newest turn began
 * @param tracked whether it has an index ({@code turndiff track}): its finish scans find what shell
 *     commands changed
 */
public record WorkspaceListing(
    String rootReal, int sessions, int turns, Instant lastTurnAt, boolean tracked) {

  public WorkspaceListing {
    Objects.requireNonNull(rootReal, "rootReal");
    Objects.requireNonNull(lastTurnAt, "lastTurnAt");
    if (sessions < 1 || turns < sessions) {
      throw new IllegalArgumentException(
          "a listed workspace has a turn in each of its sessions: "
              + sessions
              + " sessions, "
              + turns
              + " turns");
    }
  }
}
