package io.turndiff.mcp;

import io.turndiff.api.Turndiff;
import io.turndiff.model.TurnState;
import io.turndiff.review.ListedTurn;
import io.turndiff.review.SessionListing;
import io.turndiff.review.TurnPage;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.TurnListing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one session an MCP server serves, and the check that a turn is of it.
 *
 * <p>A runtime starts its MCP server without telling it the session (none of Claude Code, Codex or
 * Gemini CLI passes one in the server's environment), so the session is found the way the agent's
 * own hooks made it: the server is started in the workspace, and when the agent calls a tool its
 * turn is open there (its prompt's hook began it). The first call takes the one session of the
 * workspace with an open turn, and the server keeps it for its life: a session begun later in the
 * same workspace by another agent never becomes this server's. Two sessions with open turns at the
 * first call is a refusal naming both; {@code turndiff mcp --session ID} names the session instead.
 */
final class AgentSession {

  private final Optional<String> named;
  private final Path workspace;
  private String pinned;

  /** The session named {@code named}, or the one with an open turn in {@code workspace}. */
  AgentSession(Optional<String> named, Path workspace) {
    this.named = Objects.requireNonNull(named, "named");
    this.workspace = Objects.requireNonNull(workspace, "workspace");
  }

  /** The session this server serves, found on the first call and kept. */
  synchronized String id(Turndiff turndiff) {
    if (pinned == null) {
      pinned = named.isPresent() ? existing(turndiff, named.get()) : open(turndiff);
    }
    return pinned;
  }

  /** {@code turn} as stored, refused when it is not of this server's session. */
  StoredTurn require(Turndiff turndiff, String turn) {
    String session = id(turndiff);
    StoredTurn stored = turndiff.queries().records(turn).turn();
    if (!stored.sessionExternalId().equals(session)) {
      throw new ToolError(
          "turn '"
              + turn
              + "' is of session "
              + stored.sessionExternalId()
              + ", not of this agent's session "
              + session
              + ": turndiff mcp shows and rewinds only its own session's turns");
    }
    return stored;
  }

  private static String existing(Turndiff turndiff, String session) {
    // names an unknown session (a request error) before anything else is read
    turndiff.queries().turns(session, 0, 1);
    return session;
  }

  private String open(Turndiff turndiff) {
    List<String> open = new ArrayList<>();
    for (SessionListing listing : turndiff.queries().sessions(workspace)) {
      String session = listing.session().externalId();
      newest(turndiff, session)
          .filter(turn -> turn.state() == TurnState.OPEN)
          .ifPresent(turn -> open.add(session));
    }
    if (open.size() == 1) {
      return open.getFirst();
    }
    throw new ToolError(
        open.isEmpty()
            ? "no turn is open in "
                + workspace
                + ": turndiff mcp serves the session whose turn is open there (the runtime's"
                + " hooks begin it; run turndiff hooks install), or the one turndiff mcp"
                + " --session ID names"
            : "turns of "
                + open.size()
                + " sessions are open in "
                + workspace
                + " ("
                + String.join(", ", open)
                + "): start turndiff mcp with --session ID to say which is this agent's");
  }

  /** The newest turn of {@code session}: the open one, if any is (a session's turns follow). */
  private static Optional<StoredTurn> newest(Turndiff turndiff, String session) {
    long after = turndiff.queries().afterForNewest(session, 1);
    TurnPage page = turndiff.queries().turns(session, after, 1);
    return page.turns().stream().map(ListedTurn::listing).map(TurnListing::turn).findFirst();
  }
}
