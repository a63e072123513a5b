package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.server.HttpService;
import io.turndiff.server.ServiceOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every JSON shape turndiff prints or serves, byte for byte, against {@code wire-golden.txt}: one
 * scenario through the command line, then one through the HTTP service, on one store, covering each
 * response (verdicts of every kind, a name that is not UTF-8, a path reached through a link,
 * summaries, records, workspaces, listings, pages, ranges and a range's file, history with the
 * rewinds that rewound each turn, rewind plans and reports, tracking, status, errors). What varies
 * from run to run (the temp directory, timestamps, mtimes, generated ids, elapsed times) is
 * replaced by a marker first. The shapes are the wire contract: a change here is a change for every
 * client, so the golden text changes only on purpose. To write it anew after such a change, run
 * with {@code -Dwire.golden.update=true} and review the diff.
 */
class WireGoldenTest {

  private static final String GOLDEN = "wire-golden.txt";
  private static final String TOKEN = "golden-token-0123456789abcdef";

  @TempDir Path temp;

  private final StringBuilder transcript = new StringBuilder();
  private Path database;

  @Test
  void everyShapeIsWhatItWas() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("base"));
    database = TestStore.fileIn(temp);
    String root = workspace.root().toString();
    workspace
        .file("src/app.py", "print('a')\n")
        .file("old.txt", "old\n")
        .file("real.txt", "one\n")
        .symlink("alias.txt", "real.txt")
        .symlink("leak.txt", "../outside/secret.txt");
    for (String file : List.of("src/app.py", "old.txt", "real.txt")) {
      workspace.mode(file, "rw-r--r--");
    }
    String notUtf8 =
        Base64.getEncoder().encodeToString(new byte[] {'n', (byte) 0xFF, '.', 't', 'x', 't'});

    cli("turn begin", "turn", "begin", "--workspace", root, "--session", "s1", "--turn", "t1");
    cli(
        "snapshot",
        "snapshot",
        "--turn",
        "t1",
        "--tool-call",
        "c1",
        "src/app.py",
        "old.txt",
        "new.txt",
        "leak.txt",
        "alias.txt",
        "--path-base64",
        notUtf8);
    cli("snapshot again", "snapshot", "--turn", "t1", "--tool-call", "c2", "src/app.py");
    Files.writeString(workspace.resolve("src/app.py"), "print('b')\n");
    Files.delete(workspace.resolve("old.txt"));
    workspace.file("new.txt", "new\n").mode("new.txt", "rw-r--r--");
    Files.writeString(workspace.resolve("real.txt"), "two\n");
    cli("turn finish", "turn", "finish", "--turn", "t1");
    cli("show", "show", "--turn", "t1");
    cli("show --pretty", "show", "--turn", "t1", "--pretty");
    cli("track", "track", "--workspace", root);
    workspace.file("shell.txt", "by the shell\n");
    cli("status --json", "status", "--workspace", root, "--json");
    cli(
        "turn begin (second)",
        "turn",
        "begin",
        "--workspace",
        root,
        "--session",
        "s1",
        "--turn",
        "t2");
    cli("snapshot (second)", "snapshot", "--turn", "t2", "--tool-call", "c3", "src/app.py");
    Files.writeString(workspace.resolve("src/app.py"), "print('c')\n");
    cli("turn finish (second)", "turn", "finish", "--turn", "t2");
    cli("turns --workspace", "turns", "--workspace", root);
    cli("turns --session", "turns", "--session", "s1", "--limit", "1");
    cli("log", "log", "--workspace", root, "src/app.py");
    cli("rewind --dry-run", "rewind", "--turn", "t2", "--dry-run");
    cli("rewind", "rewind", "--turn", "t2", "--operation", "op-cli");

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults());
        HttpService service =
            HttpService.start(
                turndiff,
                ServiceOptions.builder(TOKEN)
                    .port(0)
                    .shutdownGrace(Duration.ofSeconds(1))
                    .build())) {
      String where = URLEncoder.encode(root, StandardCharsets.UTF_8);
      http(service, "GET", "/v1/health", null);
      http(
          service,
          "POST",
          "/v1/turns",
          "{\"workspace\":\"" + root + "\",\"session\":\"s2\",\"turn\":\"h1\"}");
      http(
          service,
          "POST",
          "/v1/turns/h1/snapshots",
          "{\"tool_call\":\"hc1\",\"paths\":[\"src/app.py\","
              + "\"alias.txt\",\"leak.txt\",\"gone.txt\"],\"paths_base64\":[\""
              + notUtf8
              + "\"]}");
      http(
          service,
          "POST",
          "/v1/turns/h1/snapshots",
          "{\"tool_call\":\"hc2\",\"paths\":[\"src/app.py\"]}");
      Files.writeString(workspace.resolve("src/app.py"), "print('d')\n");
      http(service, "POST", "/v1/turns/h1/finish", null);
      http(service, "GET", "/v1/turns/h1", null);
      http(service, "GET", "/v1/turns/h1/file?path=src/app.py", null);
      http(service, "GET", "/v1/workspaces", null);
      http(service, "GET", "/v1/sessions?workspace=" + where, null);
      http(service, "GET", "/v1/sessions/s1/turns?limit=1", null);
      http(service, "GET", "/v1/sessions/s2/turns", null);
      http(service, "GET", "/v1/range?from=t1&to=t2", null);
      http(service, "GET", "/v1/range/file?from=t1&to=t2&path=src/app.py", null);
      http(service, "GET", "/v1/history?workspace=" + where + "&path=src/app.py", null);
      http(service, "POST", "/v1/rewind", "{\"turn\":\"h1\",\"dry_run\":true}");
      http(service, "POST", "/v1/rewind", "{\"turn\":\"h1\",\"operation\":\"op-http\"}");
      http(service, "GET", "/v1/sessions/s2/turns", null);
      http(service, "POST", "/v1/workspaces/track", "{\"workspace\":\"" + root + "\"}");
      workspace.file("shell2.txt", "by the shell again\n");
      http(service, "GET", "/v1/workspaces/status?workspace=" + where, null);
      http(service, "GET", "/v1/turns/nope", null);
      http(service, "POST", "/v1/rewind", "{\"turn\":\"h1\",\"dryrun\":true}");
    }

    // two sessions in one tracked workspace (issue 27): shared records, overlapping turns, the
    // open turns of a pending change, a rewind's conflict naming the other session
    cli("turn begin (ga)", "turn", "begin", "--workspace", root, "--session", "ga", "--turn", "g1");
    cli("turn begin (gb)", "turn", "begin", "--workspace", root, "--session", "gb", "--turn", "g2");
    Files.writeString(workspace.resolve("shell.txt"), "by one of the two sessions\n");
    cli("status --json (two open)", "status", "--workspace", root, "--json");
    cli("turn finish (ga)", "turn", "finish", "--turn", "g1");
    cli("turn finish (gb)", "turn", "finish", "--turn", "g2");
    cli("show (shared)", "show", "--turn", "g1");
    cli("turns --session (overlapping)", "turns", "--session", "ga");
    cli("rewind --dry-run (shared)", "rewind", "--turn", "g1", "--dry-run");

    // a file to merge (the turn changed its line 2, the user its line 11 since): the plan's
    // merge_previews (issue 22 item 3)
    String twelve = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    workspace.file("merge.txt", twelve);
    cli(
        "turn begin (merge)",
        "turn",
        "begin",
        "--workspace",
        root,
        "--session",
        "m",
        "--turn",
        "m1");
    cli("snapshot (merge)", "snapshot", "--turn", "m1", "merge.txt");
    Files.writeString(workspace.resolve("merge.txt"), twelve.replace("\n2\n", "\ntwo\n"));
    cli("turn finish (merge)", "turn", "finish", "--turn", "m1");
    Files.writeString(
        workspace.resolve("merge.txt"),
        twelve.replace("\n2\n", "\ntwo\n").replace("\n11\n", "\neleven\n"));
    cli("rewind --dry-run (merge)", "rewind", "--turn", "m1", "--dry-run");

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults());
        HttpService service =
            HttpService.start(
                turndiff,
                ServiceOptions.builder(TOKEN)
                    .port(0)
                    .shutdownGrace(Duration.ofSeconds(1))
                    .build())) {
      // a session that ends while its turn is open (issue 21 item 0): the service finishes the
      // turn, marked (a runtime killed mid-turn gets the same mark, reason "runtime gone")
      String claude = "{\"session_id\":\"cs\",\"cwd\":\"" + root + "\",\"hook_event_name\":";
      http(
          service,
          "POST",
          "/v1/hooks/claude-code",
          claude + "\"UserPromptSubmit\",\"prompt_id\":\"p1\",\"prompt\":\"go\"}");
      http(
          service,
          "POST",
          "/v1/hooks/claude-code",
          claude + "\"SessionEnd\",\"reason\":\"other\"}");
      http(service, "GET", "/v1/turns/claude-code:p1", null);
      http(service, "GET", "/v1/sessions/claude-code:cs/turns", null);
    }
    cli("turns --session (finished by the service)", "turns", "--session", "claude-code:cs");

    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotIn("the outputs", transcript.toString());
    String actual = normalised(transcript.toString());
    if (Boolean.getBoolean("wire.golden.update")) {
      Path source = Path.of("src/test/resources/io/turndiff/cli", GOLDEN);
      Files.createDirectories(source.getParent());
      Files.writeString(source, actual);
    }
    assertEquals(golden(), actual, "the wire shapes changed; see the class comment");
  }

  private void cli(String title, String... args) {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    CommandRun run = CliRun.inProcess(withStore.toArray(String[]::new));
    transcript
        .append("### cli ")
        .append(title)
        .append(" -> exit ")
        .append(run.exitCode())
        .append('\n')
        .append(run.out());
  }

  private void http(HttpService service, String method, String target, String body) {
    String head =
        method
            + " "
            + target
            + " HTTP/1.1\r\nHost: 127.0.0.1:"
            + service.port()
            + "\r\n"
            + "Authorization: Bearer "
            + TOKEN
            + "\r\n";
    RawHttp.Response response = RawHttp.send(service.port(), head, body, Duration.ofSeconds(30));
    transcript
        .append("### http ")
        .append(method)
        .append(' ')
        .append(target)
        .append(" -> ")
        .append(response.status())
        .append('\n')
        .append(response.body())
        .append('\n');
  }

  private String normalised(String text) {
    return text.replace(temp.toString(), "<tmp>")
        .replace(URLEncoder.encode(temp.toString(), StandardCharsets.UTF_8), "<tmp>")
        .replaceAll(
            "\"(began_at|finished_at|created_at|last_turn_at)\" ?: ?\"[^\"]*\"",
            "\"$1\":\"<time>\"")
        .replaceAll("\"mtime_ns\" ?: ?[0-9]+", "\"mtime_ns\":<mtime>")
        .replaceAll("\"elapsed_ms\" ?: ?[0-9.E-]+", "\"elapsed_ms\":<elapsed>")
        // how many files a scan reads depends on the racy-timestamp rule, that is on timing
        .replaceAll("\"content_read\" ?: ?[0-9]+", "\"content_read\":<read>")
        .replaceAll(
            "\"fingerprint\" ?: ?\"([a-z_]+):([0-9]+):[0-9]+:", "\"fingerprint\":\"$1:$2:<mtime>:")
        .replaceAll("\\b([a-z]+)-[0-9a-f]{16}\\b", "$1-<id>");
  }

  private static String golden() throws IOException {
    try (InputStream in = WireGoldenTest.class.getResourceAsStream(GOLDEN)) {
      return in == null
          ? "(no " + GOLDEN + " yet)"
          : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
