package io.turndiff.hooks.install;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The session files a runtime writes while it works in a directory, found where the runtime itself
 * keeps them in the user's home: evidence that it worked there, whatever its hooks did. Each layout
 * was read from the pinned runtime (and is checked by running it, {@code SessionFileEvidenceIT}):
 *
 * <ul>
 *   <li><b>Claude Code</b> 2.1.332: {@code $CLAUDE_CONFIG_DIR} (else {@code ~/.claude}) {@code
 *       /projects/<folder>/<session id>.jsonl}, the folder the directory it started in with every
 *       UTF-16 unit that is not an ASCII letter or digit turned into {@code -}; a name longer than
 *       200 is cut to 200 and given {@code -} and a hash of the path (matched here by its first
 *       200, the hash not recomputed). The folder names a directory only: a session started in a
 *       subdirectory is in that subdirectory's folder, looked for when status runs there.
 *   <li><b>Codex</b> 0.171.0: {@code $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session
 *       id>.jsonl}, by the local date it began; the directory is in its first record ({@code
 *       session_meta}'s {@code payload.cwd}), the only content read here: at most {@value
 *       #FIRST_LINE_BYTES} bytes of it, and only of files written in the time asked about.
 *   <li><b>Gemini CLI</b> 0.61.0: {@code $GEMINI_CLI_HOME} (else the home) {@code
 *       /.gemini/projects.json} maps each directory it started in to a short name, its sessions in
 *       {@code .gemini/tmp/<name>/chats/session-<time>-<first 8 of the session id>.jsonl}.
 * </ul>
 *
 * <p>What it reads is the least that answers: names, owners and modification times, Codex's first
 * line as above and Gemini's project registry (at most {@value #REGISTRY_BYTES} bytes). These are
 * the runtime's files, not a workspace's: no file of the workspace is opened. A link anywhere from
 * the runtime's folder down is not followed (a folder that is a link is not listed, a file that is
 * one is not read), and a folder or file that is not the user's own is passed over. What this does
 * not protect: the runtime's folder's own parents (the home) are resolved by the kernel, and a
 * folder is checked and then listed by name, so one swapped between the two by someone who can
 * write in the user's home could be listed (not read: every file is opened without following).
 */
public final class RuntimeSessionFiles {

  static final int FIRST_LINE_BYTES = 64 * 1024;
  static final int REGISTRY_BYTES = 1024 * 1024;

  /** The most of Codex's session files whose first line one look reads. */
  static final int CODEX_FIRST_LINES = 64;

  /** How many days of Codex's dated folders one look lists, the newest. */
  static final int CODEX_DAYS = 8;

  private static final int CLAUDE_FOLDER_LENGTH = 200;
  private static final Pattern GEMINI_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern CODEX_SESSION =
      Pattern.compile(
          "rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\.jsonl");
  private static final Pattern GEMINI_SESSION =
      Pattern.compile("session-.*-([A-Za-z0-9_-]{1,8})\\.jsonl?");

  /**
   * One session file: whose, where, when it was last written, and what of the runtime's session id
   * its name carries ({@code session}: all of it for Claude Code and Codex, its first 8 characters
   * for Gemini CLI; empty when the name does not say).
   */
  public record SessionFile(
      HookRuntime runtime, Path file, Instant writtenAt, Optional<String> session) {

    /** Whether this file is the session {@code id}'s, as far as its name tells. */
    public boolean isOf(String id) {
      return session
          .filter(s -> runtime == HookRuntime.GEMINI ? id.startsWith(s) : id.equals(s))
          .isPresent();
    }
  }

  private final UserDirectories user;
  private final ZoneId zone;

  public RuntimeSessionFiles(UserDirectories user, ZoneId zone) {
    this.user = user;
    this.zone = zone;
  }

  /**
   * The session files of {@code runtime} written after {@code after} by a session the runtime began
   * in a directory of {@code names} (every name the workspace is known by) or below one; Claude
   * Code's only in one of {@code names} itself or {@code here}, its folder names telling no more.
   * Newest first.
   */
  public List<SessionFile> written(
      HookRuntime runtime, Collection<Path> names, Path here, Instant after) throws IOException {
    List<SessionFile> found =
        switch (runtime) {
          case CLAUDE_CODE -> claudeCode(names, here, after);
          case CODEX -> codex(names, after);
          case GEMINI -> gemini(names, after);
          case OPENCODE -> List.of();
        };
    return found.stream().sorted(Comparator.comparing(SessionFile::writtenAt).reversed()).toList();
  }

  // ---- Claude Code

  private List<SessionFile> claudeCode(Collection<Path> names, Path here, Instant after)
      throws IOException {
    Path projects = user.claudeConfig().resolve("projects");
    if (!usableFolder(projects)) {
      return List.of();
    }
    List<Path> directories = new ArrayList<>(names);
    if (names.stream().anyMatch(here::startsWith)) {
      directories.add(here);
    }
    List<SessionFile> found = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (Path directory : directories) {
      for (Path folder : claudeFolders(projects, directory)) {
        if (!seen.contains(folder.toString())) {
          seen.add(folder.toString());
          found.addAll(files(HookRuntime.CLAUDE_CODE, folder, "*.jsonl", after));
        }
      }
    }
    return found;
  }

  /**
   * Claude Code's project folder for {@code directory}: its name as Claude makes it; when that is
   * longer than 200, each folder whose name begins with its first 200 and a {@code -}.
   */
  private static List<Path> claudeFolders(Path projects, Path directory) throws IOException {
    String name = claudeFolderName(directory.toString());
    if (name.length() <= CLAUDE_FOLDER_LENGTH) {
      return List.of(projects.resolve(name));
    }
    return OwnDirectory.of(projects).list(name.substring(0, CLAUDE_FOLDER_LENGTH) + "-*");
  }

  /**
   * What Claude Code 2.1.332 names a directory's folder: {@code path.replace(/[^a-zA-Z0-9]/g, "-")}
   * in JavaScript, which works on UTF-16 units, so a character outside the BMP becomes two.
   */
  public static String claudeFolderName(String path) {
    StringBuilder name = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      boolean kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      name.append(kept ? c : '-');
    }
    return name.toString();
  }

  // ---- Codex

  private List<SessionFile> codex(Collection<Path> names, Instant after) throws IOException {
    Path sessions = user.codexHome().resolve("sessions");
    List<SessionFile> candidates = new ArrayList<>();
    for (Path day : codexDays(sessions, after)) {
      candidates.addAll(files(HookRuntime.CODEX, day, "rollout-*.jsonl", after));
    }
    candidates.sort(Comparator.comparing(SessionFile::writtenAt).reversed());
    List<SessionFile> found = new ArrayList<>();
    for (SessionFile candidate :
        candidates.subList(0, Math.min(CODEX_FIRST_LINES, candidates.size()))) {
      Optional<Path> cwd = codexDirectory(candidate.file());
      if (cwd.isPresent() && names.stream().anyMatch(cwd.get()::startsWith)) {
        found.add(candidate);
      }
    }
    return found;
  }

  /**
   * The dated folders ({@code YYYY/MM/DD}) that may hold a session written after {@code after}: a
   * session stays in the folder of the local day it began, so the day before {@code after}'s too,
   * the newest {@value #CODEX_DAYS} at most.
   */
  private List<Path> codexDays(Path sessions, Instant after) throws IOException {
    if (!usableFolder(sessions)) {
      return List.of();
    }
    String first =
        LocalDate.ofInstant(after, zone).minusDays(1).format(DateTimeFormatter.BASIC_ISO_DATE);
    List<Path> days = new ArrayList<>();
    for (Path year : numbered(sessions, 4)) {
      for (Path month : numbered(year, 2)) {
        for (Path day : numbered(month, 2)) {
          String date = year.getFileName() + "" + month.getFileName() + day.getFileName();
          if (date.compareTo(first) >= 0) {
            days.add(day);
          }
        }
      }
    }
    days.sort(Comparator.comparing(Path::toString).reversed());
    return days.subList(0, Math.min(CODEX_DAYS, days.size()));
  }

  /** The usable folders in {@code folder} whose names are {@code digits} digits. */
  private static List<Path> numbered(Path folder, int digits) throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path entry : OwnDirectory.of(folder).list("[0-9]".repeat(digits))) {
      if (usableFolder(entry)) {
        found.add(entry);
      }
    }
    return found;
  }

  /**
   * The directory a Codex session began in: {@code payload.cwd} of its first record, read as a
   * stream from at most {@value #FIRST_LINE_BYTES} bytes (the record also holds the model's
   * instructions, which may be longer; the directory comes before them). Empty when those bytes do
   * not say.
   */
  static Optional<Path> codexDirectory(Path file) throws IOException {
    Optional<byte[]> head = OwnFile.of(file).firstItself(FIRST_LINE_BYTES);
    if (head.isEmpty()) {
      return Optional.empty();
    }
    try (JsonParser parser = Json.mapper().getFactory().createParser(head.get())) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return Optional.empty();
      }
      int depth = 1;
      boolean inPayload = false;
      while (depth > 0) {
        JsonToken token = parser.nextToken();
        if (token == null) {
          return Optional.empty();
        }
        switch (token) {
          case START_OBJECT, START_ARRAY -> depth++;
          case END_OBJECT, END_ARRAY -> {
            depth--;
            if (depth == 1) {
              inPayload = false;
            }
          }
          case FIELD_NAME -> {
            String field = parser.currentName();
            if (depth == 1 && field.equals("payload")) {
              inPayload = parser.nextToken() == JsonToken.START_OBJECT;
              depth += inPayload ? 1 : 0;
              if (!inPayload) {
                parser.skipChildren();
              }
            } else if (depth == 2 && inPayload && field.equals("cwd")) {
              return parser.nextToken() == JsonToken.VALUE_STRING
                      && parser.getText().startsWith("/")
                  ? Optional.of(Path.of(parser.getText()).normalize())
                  : Optional.empty();
            }
          }
          default -> {}
        }
      }
    } catch (IOException cutOrNotJson) {
      return Optional.empty(); // the bound cut the record before its directory, or it is no JSON
    }
    return Optional.empty();
  }

  // ---- Gemini CLI

  private List<SessionFile> gemini(Collection<Path> names, Instant after) throws IOException {
    Path gemini = user.geminiHome();
    if (!usableFolder(gemini)) {
      return List.of();
    }
    List<SessionFile> found = new ArrayList<>();
    for (String project : geminiProjects(gemini.resolve("projects.json"), names)) {
      Path chats = gemini.resolve("tmp").resolve(project).resolve("chats");
      if (usableFolder(gemini.resolve("tmp")) && usableFolder(chats.getParent())) {
        found.addAll(files(HookRuntime.GEMINI, chats, "session-*.{jsonl,json}", after));
      }
    }
    return found;
  }

  /**
   * The short names Gemini's registry ({@code projects.json}: {@code {"projects": {directory:
   * name}}}) gives the directories of {@code names} and those below them; a name that could lead
   * out of {@code tmp} is passed over.
   */
  private static List<String> geminiProjects(Path registry, Collection<Path> names)
      throws IOException {
    OwnFile file = OwnFile.of(registry);
    Optional<PosixFileAttributes> attributes = file.attributes();
    if (attributes.isEmpty() || !attributes.get().isRegularFile() || !file.ownedByThisUser()) {
      return List.of();
    }
    JsonNode projects;
    try {
      projects =
          Json.mapper().readTree(file.readItself(REGISTRY_BYTES).orElseThrow()).path("projects");
    } catch (IOException unreadable) {
      return List.of();
    }
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, JsonNode> project : projects.properties()) {
      String name = project.getValue().asText("");
      if (project.getKey().startsWith("/")
          && GEMINI_NAME.matcher(name).matches()
          && !name.equals("..")
          && names.stream().anyMatch(Path.of(project.getKey()).normalize()::startsWith)) {
        found.add(name);
      }
    }
    return found;
  }

  // ---- common

  /**
   * The user's regular files in {@code folder} matching {@code glob} written after {@code after}.
   */
  private static List<SessionFile> files(
      HookRuntime runtime, Path folder, String glob, Instant after) throws IOException {
    if (!usableFolder(folder)) {
      return List.of();
    }
    List<SessionFile> found = new ArrayList<>();
    for (Path entry : OwnDirectory.of(folder).list(glob)) {
      OwnFile file = OwnFile.of(entry);
      Optional<PosixFileAttributes> attributes = file.attributes();
      if (attributes.isEmpty() || !attributes.get().isRegularFile() || !file.ownedByThisUser()) {
        continue; // a link, a folder, another user's file
      }
      Instant written = attributes.get().lastModifiedTime().toInstant();
      if (written.isAfter(after)) {
        found.add(new SessionFile(runtime, entry, written, sessionOf(runtime, entry)));
      }
    }
    return found;
  }

  private static Optional<String> sessionOf(HookRuntime runtime, Path file) {
    String name = file.getFileName().toString();
    return switch (runtime) {
      case CLAUDE_CODE -> Optional.of(name.substring(0, name.length() - ".jsonl".length()));
      case CODEX -> group(CODEX_SESSION.matcher(name));
      case GEMINI -> group(GEMINI_SESSION.matcher(name));
      case OPENCODE -> Optional.empty();
    };
  }

  private static Optional<String> group(Matcher matcher) {
    return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  /** Whether {@code folder} is a folder of the user's own, itself and not a link. */
  private static boolean usableFolder(Path folder) throws IOException {
    OwnFile name = OwnFile.of(folder);
    Optional<PosixFileAttributes> attributes = name.attributes();
    return attributes.isPresent() && attributes.get().isDirectory() && name.ownedByThisUser();
  }
}
