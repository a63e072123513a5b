package io.turndiff.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.ownfiles.Proc;
import io.turndiff.service.ServiceFiles;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A per-user service started for a benchmark as a user starts one ({@code turndiff service start},
 * through {@code $TURNDIFF_HOME/turndiff} when set, else this jar), in an environment of its own
 * under the benchmark's folder (its home, runtime folder and store), and stopped on close. The
 * benchmark talks to it over loopback HTTP with its token, posts hooks over its Unix domain socket
 * as the hook client does, runs hook commands in its environment, and reads its process's memory
 * from {@code /proc}.
 */
final class ServiceProcess implements AutoCloseable {

  private final Map<String, String> environment;
  private final long pid;
  private final URI uri;
  private final String token;
  private final Path discovery;
  private final Path socket;

  /** Where {@link #hook} reads its answers: one buffer, so one caller at a time. */
  private final ByteBuffer answers = ByteBuffer.allocate(64 * 1024);

  /** The query naming the runtime's process, read once: {@link #runtimeProcess()}. */
  private final String runtimeQuery = runtimeProcess();

  private final HttpClient http = HttpClient.newHttpClient();

  private ServiceProcess(
      Map<String, String> environment,
      long pid,
      URI uri,
      String token,
      Path discovery,
      Path socket) {
    this.environment = environment;
    this.pid = pid;
    this.uri = uri;
    this.token = token;
    this.discovery = discovery;
    this.socket = socket;
  }

  /** Starts the service of the store {@code store}, with {@code base} as its home. */
  static ServiceProcess start(Path base, Path store) throws Exception {
    Path run = Files.createDirectories(base.resolve("run"));
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> environment = new TreeMap<>();
    environment.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    environment.put("HOME", base.toString());
    environment.put("XDG_RUNTIME_DIR", run.toString());
    environment.put("TURNDIFF_DB", store.toString());
    environment.put("TURNDIFF_HOOK_NO_START", "1");
    for (String inherited : List.of("TURNDIFF_HOME", "JAVA_HOME", "TURNDIFF_AOT_CACHE")) {
      if (System.getenv(inherited) != null) {
        environment.put(inherited, System.getenv(inherited));
      }
    }
    // a benchmark runs where the machine may be loaded: the service's start is given two minutes
    // rather than the command's default 30 s (it is not what is measured)
    JsonNode started =
        Json.mapper().readTree(turndiff(environment, "service", "start", "--wait", "120"));
    String discovery = started.get("discovery").asText();
    String token =
        Files.readString(
                Path.of(discovery.substring(0, discovery.length() - ".json".length()) + ".token"))
            .strip();
    return new ServiceProcess(
        environment,
        started.get("pid").asLong(),
        URI.create("http://127.0.0.1:" + started.get("port").asInt()),
        token,
        Path.of(discovery),
        ServiceFiles.of(store, environment).socket());
  }

  /** The environment the service runs in: hooks run in it find the service. */
  Map<String, String> environment() {
    return environment;
  }

  int port() {
    return uri.getPort();
  }

  /** A file of the service beside its discovery file, by its suffix ({@code .hook.log}). */
  Path beside(String suffix) {
    String name = discovery.toString();
    return Path.of(name.substring(0, name.length() - ".json".length()) + suffix);
  }

  /** POSTs {@code body} (JSON) to {@code path}, expecting {@code expected}; the answer's body. */
  String post(String path, String body, int expected) throws Exception {
    HttpResponse<String> response = send(path, body);
    if (response.statusCode() != expected) {
      throw new IllegalStateException(
          path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /**
   * POSTs a hook's payload to {@code /v1/hooks/<runtime>} as the hook client does: over the
   * service's Unix domain socket, on a connection of its own closed after it, naming the runtime's
   * process ({@code pid}, {@code pid_start}); answered 204, or 200 with a note for the model (a
   * begin after changes no tool call hook announced says so). Not through the JDK's {@code
   * HttpClient} over loopback TCP, as this did until 2026-12-06: that client added about 3 ms to
   * every call measured (docs/performance.md), which no runtime's hook pays.
   */
  void hook(String runtime, String payload) throws Exception {
    int status;
    try {
      status =
          SocketHttpClient.sendOnce(
              socket, answers, "POST", "/v1/hooks/" + runtime + runtimeQuery, payload);
    } catch (IOException e) {
      // a service that could not bind its socket (a path over a socket name's 107 bytes) serves
      // on its port alone: the bench cannot post as the client does then
      throw new IOException("the " + runtime + " hook over " + socket + ": " + e.getMessage(), e);
    }
    if (status != 200 && status != 204) {
      throw new IllegalStateException(
          "the "
              + runtime
              + " hook answered "
              + new String(answers.array(), 0, answers.position(), StandardCharsets.UTF_8));
    }
  }

  /**
   * The query that names the runtime's process, as the hook client names its runtime with every
   * call: here the benchmark's own process stands for the runtime, alive as long as the turns (the
   * service keeps it with each turn it begins). Until 2026-12-07 night the benchmark named none,
   * and a prompt's begin measured here skipped the runtime's write that every real prompt made.
   */
  private static String runtimeProcess() {
    long self = ProcessHandle.current().pid();
    long ticks =
        Proc.startTicks(self)
            .orElseThrow(() -> new IllegalStateException("no start time of this process in /proc"));
    return "?pid=" + self + "&pid_start=" + ticks;
  }

  private HttpResponse<String> send(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri.resolve(path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** GETs {@code path} as JSON. */
  JsonNode get(String path) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri.resolve(path))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          path + " answered " + response.statusCode() + ": " + response.body());
    }
    return Json.mapper().readTree(response.body());
  }

  /**
   * The service process's memory as the kernel counts it: resident now ({@code VmRSS}) and at its
   * peak ({@code VmHWM}), in bytes.
   */
  Memory memory() throws IOException {
    long rss = -1;
    long peak = -1;
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = kilobytes(line) * 1024;
      } else if (line.startsWith("VmHWM:")) {
        peak = kilobytes(line) * 1024;
      }
    }
    return new Memory(rss, peak);
  }

  /** Resident bytes of a process, now and at its peak. */
  record Memory(long residentBytes, long peakBytes) {

    /**
     * The highest residence any of these readings saw: the largest of their peaks and of their
     * resident figures.
     *
     * <p>A later {@code VmHWM} alone is not that. The kernel counts a process's resident pages per
     * CPU and folds those counts into the process's total lazily (split RSS counting), and it
     * raises the high-water mark only when it folds them or the process unmaps memory; so a {@code
     * VmHWM} read after an earlier {@code VmRSS} can trail it, by 204,800 bytes in one CI run of
     * BenchJarIT (1,200 files). A peak reported below a resident figure the same run printed would
     * be a false line.
     */
    static long peakOver(Memory... readings) {
      long peak = -1;
      for (Memory reading : readings) {
        peak = Math.max(peak, Math.max(reading.peakBytes(), reading.residentBytes()));
      }
      return peak;
    }
  }

  private static long kilobytes(String statusLine) {
    return Long.parseLong(statusLine.replaceAll("[^0-9]", ""));
  }

  @Override
  public void close() throws Exception {
    turndiff(environment, "service", "stop");
  }

  /**
   * Runs this jar's {@code turndiff} (or {@code $TURNDIFF_HOME/turndiff}) with {@code args}; its
   * stdout.
   */
  private static String turndiff(Map<String, String> environment, String... args) throws Exception {
    List<String> command = new ArrayList<>(launcher());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("turndiff " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }

  private static List<String> launcher() throws URISyntaxException {
    String home = System.getenv("TURNDIFF_HOME");
    if (home != null && !home.isEmpty()) {
      return List.of(Path.of(home, "turndiff").toString());
    }
    File jar =
        new File(ServiceProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (!jar.isFile()) {
      throw new IllegalStateException(
          "a benchmark of the service runs from the bench jar (./turndiff bench ...) or with"
              + " TURNDIFF_HOME set");
    }
    return List.of(
        ProcessHandle.current().info().command().orElse("java"),
        "--enable-native-access=ALL-UNNAMED",
        "-jar",
        jar.toString());
  }

  /** The one-minute load average, to say how loaded the machine was. */
  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
