package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.model.RequestException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Whether Codex runs turndiff's hooks from one {@code hooks.json}, decided as Codex 0.171.0 decides
 * it for each handler: under the key Codex gives the handler ({@link CodexHookNames}: the file as
 * Codex names it, the event, the group's index now, the handler's), {@code config.toml} (read as
 * TOML, so an entry written by hand in any form counts) holds a {@code trusted_hash} equal to the
 * handler's hash now and no {@code enabled = false}, and {@code [features] hooks} is not false.
 * What install wrote is never what is checked: a key install spelled wrongly is missing here, as it
 * is for Codex, and a right one written by hand is present.
 */
final class CodexTrustCheck {

  private final Path config;
  private final String command;
  private final RuntimeSettings.Merged indexes;

  /** {@code indexes}: where turndiff's group is in each event's array of the hooks file now. */
  CodexTrustCheck(UserDirectories user, String command, RuntimeSettings.Merged indexes) {
    this.config = user.codexHome().resolve("config.toml");
    this.command = command;
    this.indexes = indexes;
  }

  /**
   * Whether Codex started in the workspace (or, for the user's file, any Codex) runs every one of
   * turndiff's hooks; each thing that stops it, and the other names' trust, go to {@code notes}.
   */
  boolean trusted(CodexHookNames names, HookScope scope, List<String> notes) {
    CodexConfig parsed;
    try {
      parsed =
          CodexConfig.parse(
              config,
              ConfigFiles.read(config)
                  .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                  .orElse(""));
    } catch (CliException | RequestException e) {
      notes.add(e.getMessage());
      return false;
    }
    if (parsed.hooksTurnedOff()) {
      notes.add(config + " has [features] hooks = false: Codex runs no hooks");
      return false;
    }
    Optional<String> problem = problem(parsed, names.started());
    problem.ifPresent(notes::add);
    for (Path other : names.names().subList(1, names.names().size())) {
      Path directory = CodexHookNames.project(other);
      notes.add(
          "codex -C "
              + directory
              + " names the hooks "
              + other
              + ": "
              + problem(parsed, other).orElse("trusted too"));
    }
    if (scope == HookScope.WORKSPACE) {
      Path project = CodexHookNames.project(names.started());
      if (!parsed.trustsProject(project)) {
        notes.add(
            "Codex runs a project's hooks only in a project it trusts; "
                + config
                + " has no [projects.\""
                + project
                + "\"] trust_level = \"trusted\" (Codex asks when you open the project)");
      }
    }
    return problem.isEmpty();
  }

  /** Why Codex does not run one of the hooks keyed by {@code name}; empty when it runs them all. */
  private Optional<String> problem(CodexConfig parsed, Path name) {
    for (HookRuntime.Event event : HookRuntime.CODEX.events()) {
      String key = CodexTrust.key(name, event, indexes.groupIndexes().get(event.name()));
      String hash = CodexTrust.trustedHash(event.snakeCase(), command, event.timeout());
      Optional<String> trusted = parsed.trustedHash(key);
      String why = null;
      if (trusted.isEmpty()) {
        why = config + " has no trusted_hash for " + key;
      } else if (!trusted.get().equals(hash)) {
        why = config + " trusts another hook under " + key + " (a hash from before it changed)";
      } else if (parsed.disabled(key)) {
        why = config + " has enabled = false for " + key;
      }
      if (why != null) {
        return Optional.of(
            "Codex skips the "
                + event.name()
                + " hook: "
                + why
                + " (turndiff hooks install"
                + " writes the entries)");
      }
    }
    return Optional.empty();
  }
}
