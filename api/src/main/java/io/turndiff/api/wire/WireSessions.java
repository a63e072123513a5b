package io.turndiff.api.wire;

import io.turndiff.review.SessionListing;
import java.nio.file.Path;
import java.util.List;

/** Every session of a workspace: {@code GET /v1/sessions}. */
public record WireSessions(String workspace, List<WireSession> sessions) {

  public static WireSessions of(Path workspace, List<SessionListing> sessions) {
    return new WireSessions(workspace.toString(), sessions.stream().map(WireSession::of).toList());
  }
}
