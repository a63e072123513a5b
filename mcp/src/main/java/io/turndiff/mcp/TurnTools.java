package io.turndiff.mcp;

import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireRewindReport;
import io.turndiff.api.wire.WireTurnPage;
import io.turndiff.api.wire.WireTurnRecords;
import io.turndiff.model.PathInput;
import io.turndiff.review.ReviewQueries;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each tool does, over one facade opened for the call: the answers are the JSON the CLI's
 * {@code --json} prints ({@code turns}, {@code show}, {@code rewind}) and the patch {@code diff}
 * prints, so an agent reads what a person's scripts read.
 */
final class TurnTools {

  static final String LIST_TURNS = "list_turns";
  static final String SHOW_TURN = "show_turn";
  static final String DIFF = "diff";
  static final String REWIND = "rewind";

  private final AgentSession session;

  TurnTools(AgentSession session) {
    this.session = session;
  }

  /** {@code list_turns {after?, limit?}}: this session's turns, oldest first, a page at a time. */
  String listTurns(Turndiff turndiff, Map<String, Object> given) {
    ToolArguments arguments = ToolArguments.of(LIST_TURNS, given, Set.of("after", "limit"));
    long after = arguments.number("after", 0, Long.MAX_VALUE, 0);
    int limit = (int) arguments.number("limit", 1, ReviewQueries.MAX_PAGE, 50);
    return Json.write(
        WireTurnPage.of(turndiff.queries().turns(session.id(turndiff), after, limit)), false);
  }

  /** {@code show_turn {turn}}: the turn and each file it changed, with the states' facts. */
  String showTurn(Turndiff turndiff, Map<String, Object> given) {
    ToolArguments arguments = ToolArguments.of(SHOW_TURN, given, Set.of("turn"));
    String turn = session.require(turndiff, arguments.requiredText("turn")).externalId();
    return Json.write(WireTurnRecords.read(turndiff.queries(), turn), false);
  }

  /** {@code diff {turn, paths?}}: the turn as a patch {@code git apply} takes. */
  String diff(Turndiff turndiff, Map<String, Object> given) {
    ToolArguments arguments = ToolArguments.of(DIFF, given, Set.of("turn", "paths"));
    String turn = session.require(turndiff, arguments.requiredText("turn")).externalId();
    String patch = turndiff.queries().patch(turn, arguments.paths("paths"));
    return patch.isEmpty() ? "(the turn changed no file's content)\n" : patch;
  }

  /**
   * {@code rewind {turn, to?, paths?, token?}}: without a token, the plan (a dry run) and the token
   * bound to it; with one, the plan is made again and applied only when its token is the same. It
   * is never forced: a file changed since the turn is left and reported, never overwritten.
   */
  String rewind(Turndiff turndiff, Map<String, Object> given) {
    ToolArguments arguments =
        ToolArguments.of(REWIND, given, Set.of("turn", "to", "paths", "token"));
    String turn = session.require(turndiff, arguments.requiredText("turn")).externalId();
    boolean to = arguments.flag("to");
    List<PathInput> paths = arguments.paths("paths");
    Optional<String> token = arguments.text("token");
    RewindReport plan =
        turndiff.rewind().rewind(new RewindRequest(turn, to, Optional.empty(), true, false, paths));
    String planned =
        PlanToken.of(turn, to, paths, plan, turndiff.statesNow(turn, PlanToken.pathsOf(plan)));
    if (token.isEmpty()) {
      return answer(
          plan,
          planned,
          "This is the plan; nothing was written. To apply it, call rewind again with the same"
              + " turn, to and paths and this token: it applies only while the files are as"
              + " planned.");
    }
    if (!token.get().equals(planned)) {
      throw new ToolError(
          "the files are no longer as planned (or the token is not this plan's): nothing was"
              + " written. The plan now, to review before applying it with its token "
              + planned
              + ": "
              + Json.write(WireRewindReport.of(plan), false));
    }
    RewindReport done =
        turndiff
            .rewind()
            .rewind(new RewindRequest(turn, to, Optional.empty(), false, false, paths));
    // answered without waiting for the disk; the sync follows on the rewind's own thread
    turndiff.rewind().makeDurableLater(done);
    return answer(
        done,
        null,
        done.rewindTurn()
            .map(
                rewindTurn ->
                    "Applied. To undo it, rewind turn "
                        + rewindTurn
                        + " (the rewind is a turn of this session).")
            .orElse("Applied; it put nothing back, so there is nothing to undo."));
  }

  private static String answer(RewindReport report, String token, String next) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("report", WireRewindReport.of(report));
    if (token != null) {
      answer.put("token", token);
    }
    answer.put("next", next);
    return Json.write(answer, false);
  }
}
