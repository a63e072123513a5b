package io.turndiff.api.wire;

import io.turndiff.store.WorkspaceListing;
import java.util.List;

/**
 * Every workspace with recorded turns: {@code GET /v1/workspaces}. {@code workspace} is the root as
 * the store keeps it, which goes back as {@code ?workspace=}; {@code tracked}: it has an index, so
 * its finish scans find what shell commands changed.
 */
public record WireWorkspaces(List<Workspace> workspaces) {

  /** A workspace with its counts and when its newest turn began. */
  public record Workspace(
      String workspace, int sessions, int turns, String lastTurnAt, boolean tracked) {}

  public static WireWorkspaces of(List<WorkspaceListing> listings) {
    return new WireWorkspaces(
        listings.stream()
            .map(
                listing ->
                    new Workspace(
                        listing.rootReal(),
                        listing.sessions(),
                        listing.turns(),
                        listing.lastTurnAt().toString(),
                        listing.tracked()))
            .toList());
  }
}
