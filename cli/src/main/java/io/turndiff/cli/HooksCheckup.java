package io.turndiff.cli;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.api.wire.WireProcessEvidence;
import io.turndiff.api.wire.WireSessionFileEvidence;
import io.turndiff.model.TurnEnding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code turndiff doctor}'s look at each runtime's hooks in the workspace: configured (in its
 * settings, current, their script executable, trusted by Codex, loaded where the runtime starts)
 * and then observed: what the service received from the runtime here. A runtime whose hooks are
 * installed but never called is the silent failure this check exists for; the service knows the
 * last calls the store kept, so with none the user is asked to run one prompt. A last prompt whose
 * turn the service had to finish (its runtime gone, or its session ended, before its Stop) is a
 * warning: its end hook never arrived. A runtime whose own session files show it worked here while
 * none of its hooks arrived ({@code SessionFileEvidence}), or whose process works here while its
 * session file grows with no hook ({@code ProcessEvidence}), is the same failure seen from outside.
 */
final class HooksCheckup {

  private HooksCheckup() {}

  static List<Check> of(WireHooksStatus status) {
    List<Check> checks = new ArrayList<>();
    Set<String> runtimes = new LinkedHashSet<>();
    for (WireHooksStatus.Installation installation : status.installations()) {
      if (installation.installed()) {
        runtimes.add(installation.runtime());
        configured(installation).ifPresent(checks::add);
      }
    }
    if (runtimes.isEmpty()) {
      checks.add(
          Check.warn(
              "hooks",
              "no runtime's hooks are installed, in this workspace or for the user: no turn is"
                  + " recorded on its own",
              "turndiff hooks install --runtime claude-code|gemini|codex|opencode"));
      checks.addAll(sessionFiles(status));
      checks.addAll(processes(status));
      return checks;
    }
    for (WireHooksStatus.Loading loading : status.here().loadings()) {
      if (runtimes.contains(loading.runtime()) && !loading.loads()) {
        checks.add(
            Check.warn(
                "hooks " + loading.runtime(),
                "started in "
                    + status.here().directory()
                    + ", it does not run the "
                    + loading.scope()
                    + " hooks ("
                    + loading.why()
                    + ")",
                loading.instead()));
      }
    }
    for (String runtime : runtimes) {
      checks.add(firing(runtime, status.service()));
    }
    checks.addAll(sessionFiles(status));
    checks.addAll(processes(status));
    return checks;
  }

  /**
   * Each runtime process at work here, its session file growing, while none of its hooks arrived
   * ({@code ProcessEvidence}): as for session files, a failure when its hooks are installed, else a
   * warning that they are not.
   */
  private static List<Check> processes(WireHooksStatus status) {
    List<Check> checks = new ArrayList<>();
    for (WireProcessEvidence seen : status.processes()) {
      String name = "hooks " + seen.runtime() + " process " + seen.pid();
      checks.add(
          seen.installed()
              ? Check.fail(
                  name,
                  seen.warning(),
                  "see `turndiff hooks status` (started here, trust), restart the runtime, run"
                      + " one prompt and `turndiff doctor` again")
              : Check.warn(
                  name,
                  seen.warning() + "; its hooks are not installed here or for the user",
                  "turndiff hooks install --runtime " + seen.runtime() + ", then restart it"));
    }
    return checks;
  }

  /**
   * Each runtime whose own session files show it worked here while none of its hooks arrived: a
   * failure when its hooks are installed (they should have fired), else a warning that they are not
   * (the user may not want them for that runtime).
   */
  private static List<Check> sessionFiles(WireHooksStatus status) {
    List<Check> checks = new ArrayList<>();
    for (WireSessionFileEvidence seen : status.sessionFiles()) {
      String name = "hooks " + seen.runtime() + " sessions";
      checks.add(
          seen.installed()
              ? Check.fail(
                  name,
                  seen.warning(),
                  "see `turndiff hooks status` (started here, trust), run one prompt and"
                      + " `turndiff doctor` again")
              : Check.warn(
                  name,
                  seen.warning() + "; its hooks are not installed here or for the user",
                  "turndiff hooks install --runtime " + seen.runtime()));
    }
    return checks;
  }

  /** What is wrong with an installation as configured, if anything. */
  private static Optional<Check> configured(WireHooksStatus.Installation installation) {
    String name = "hooks " + installation.runtime();
    String again =
        "turndiff hooks install --runtime "
            + installation.runtime()
            + ("user".equals(installation.scope()) ? " --user" : "");
    if (Boolean.FALSE.equals(installation.scriptExecutable())) {
      return Optional.of(
          Check.fail(
              name,
              "the hook script in "
                  + installation.file()
                  + " is not an executable file: no hook"
                  + " runs",
              again));
    }
    if (Boolean.FALSE.equals(installation.codexTrusted())) {
      return Optional.of(
          Check.fail(
              name,
              "Codex does not trust the hooks in "
                  + installation.file()
                  + ": it skips every one"
                  + " silently",
              again));
    }
    if (!installation.current()) {
      return Optional.of(
          Check.warn(name, "the hooks in " + installation.file() + " are outdated", again));
    }
    return Optional.empty();
  }

  /** Whether the runtime's hooks were seen firing here. */
  private static Check firing(String runtime, WireHooksStatus.Service service) {
    String name = "hooks " + runtime + " firing";
    if (!service.running()) {
      return Check.skip(
          name, "cannot tell: the service, which counts the hook calls, does not run");
    }
    List<WireHookSighting> seen =
        service.sightings().stream().filter(s -> s.runtime().equals(runtime)).toList();
    if (seen.isEmpty()) {
      return Check.warn(
          name,
          "no hook call from " + runtime + " received here (that the store kept)",
          "run one prompt in " + runtime + " in this workspace, then `turndiff doctor` again");
    }
    for (WireHookSighting sighting : seen) {
      if (sighting.warning() != null) {
        return Check.fail(
            name,
            sighting.warning(),
            "see `turndiff hooks status`; check the runtime's settings and trust, then run one"
                + " prompt and `turndiff doctor` again");
      }
    }
    WireHookSighting last =
        seen.stream().max(Comparator.comparing(WireHookSighting::lastAt)).orElseThrow();
    if (last.prompt() != null && last.prompt().reason() != null) {
      return Check.warn(
          name,
          "the last prompt in "
              + last.directory()
              + " (at "
              + last.prompt().at()
              + ") was "
              + TurnEnding.fromReason(last.prompt().reason()).seenFromTheHooks(),
          "unless "
              + runtime
              + " was killed or closed mid-turn, see `turndiff hooks status`; run one prompt to"
              + " its end and `turndiff doctor` again");
    }
    return Check.ok(
        name,
        (last.runtimeVersion() == null ? "" : runtime + " " + last.runtimeVersion() + ": ")
            + "last call "
            + last.lastEvent()
            + " at "
            + last.lastAt()
            + " in "
            + last.directory()
            + (last.prompt() != null && last.prompt().begin() && last.prompt().end()
                ? "; the last prompt's hooks all arrived"
                : ""));
  }
}
