package io.turndiff.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ServiceHeap}: the heap options a service started by {@code java -jar} sets itself, checked
 * in a JVM of their own ({@link ServiceHeapProbe}); the peak of a large track given back there,
 * measured as the committed heap; and the give-back run by the service after a track through its
 * endpoint and after a hook's {@code track=auto}, seen as the collections this JVM reports with
 * their cause.
 */
class ServiceHeapTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(60);

  @TempDir Path temp;

  private final BlockingQueue<String> explicitCollections = new LinkedBlockingQueue<>();
  private final NotificationListener collections =
      (Notification notification, Object handback) -> {
        if (notification
            .getType()
            .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
          GarbageCollectionNotificationInfo info =
              GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
          if (info.getGcCause().equals("System.gc()")) {
            explicitCollections.add(info.getGcName());
          }
        }
      };

  private Turndiff turndiff;
  private HttpService service;

  @BeforeEach
  void listen() {
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) collector).addNotificationListener(collections, null, null);
    }
  }

  @AfterEach
  void stop() throws ListenerNotFoundException {
    if (service != null) {
      service.stop();
      turndiff.close();
    }
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) collector).removeNotificationListener(collections);
    }
  }

  @Test
  void theServiceSetsItsHeapOptionsAndKeepsOnesGivenOnItsCommandLine() throws Exception {
    assertEquals(
        List.of("MinHeapFreeRatio=10", "MaxHeapFreeRatio=30", "G1PeriodicGCInterval=15000"),
        probe(List.of(), "options"));
    assertEquals(
        List.of("MinHeapFreeRatio=10", "MaxHeapFreeRatio=50", "G1PeriodicGCInterval=15000"),
        probe(List.of("-XX:MaxHeapFreeRatio=50"), "options"));
  }

  /**
   * A release's runtime is linked without {@code jdk.management}, where the options are set (its
   * launcher gives them): the service starts there all the same, its heap left as given.
   */
  @Test
  void onARuntimeWithoutJdkManagementTheServiceStartsWithTheOptionsItWasGiven() throws Exception {
    assertEquals(
        List.of("diagnostics false"),
        probe(List.of("--limit-modules", JettyCacheLineTest.RELEASE_MODULES), "diagnostics"));
    assertEquals(List.of("diagnostics true"), probe(List.of(), "diagnostics"));
  }

  @Test
  void aTrackOfTenThousandFilesGivesItsPeakBackAndASmallerOneLeavesIt() throws Exception {
    long[] large = committed(probe(List.of("-Xmx512m", "-XX:+UseG1GC"), "track", "10000"));
    assertTrue(large[0] >= 250L << 20, "the transient grew the heap: " + large[0]);
    assertTrue(
        large[1] < large[0] / 2, "given back: " + (large[0] >> 20) + " -> " + (large[1] >> 20));
    long[] small = committed(probe(List.of("-Xmx512m", "-XX:+UseG1GC"), "track", "9999"));
    assertTrue(small[0] >= 250L << 20, "the transient grew the heap: " + small[0]);
    assertEquals(small[0], small[1], "left to the young collections");
  }

  @Test
  void theTrackEndpointGivesALargeTracksPeakBack() throws Exception {
    Path workspace = tree(ServiceHeap.GIVE_BACK_FROM_FILES);
    Path small = TestWorkspace.in(temp.resolve("small")).file("a.txt", "a\n").root();
    start();
    assertEquals(200, track(small).status());
    assertEquals(List.of(), explicitCollections(Duration.ofSeconds(1)), "a small track");
    RawHttp.Response tracked = track(workspace);
    assertEquals(200, tracked.status(), tracked.body());
    assertTrue(
        tracked.body().contains("\"files\":" + ServiceHeap.GIVE_BACK_FROM_FILES), tracked.body());
    assertEquals(1, explicitCollections(Duration.ofSeconds(10)).size(), "one full collection");
  }

  @Test
  void aHooksAutomaticTrackGivesItsPeakBackToo() throws Exception {
    Path workspace = tree(ServiceHeap.GIVE_BACK_FROM_FILES);
    start();
    byte[] prompt =
        ("{\"session_id\":\"s-heap\",\"turn_id\":\"t-heap\",\"cwd\":"
                + HookPosts.quoted(workspace.toString())
                + ",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"go\"}")
            .getBytes(UTF_8);
    RawHttp.Response begun =
        new HookPosts(service.port(), TOKEN, ANSWER_WITHIN).post("codex?track=auto", prompt);
    assertEquals("begun", HookPosts.header(begun, "Turndiff-Hook-Outcome"), begun.head());
    assertTrue(turndiff.isTracked(workspace));
    assertEquals(1, explicitCollections(Duration.ofSeconds(10)).size(), "one full collection");
  }

  private void start() throws IOException {
    turndiff =
        Turndiff.builder(TestStore.fileIn(temp)).policy(WorkspacePolicy.anyDirectory()).open();
    service =
        HttpService.start(
            turndiff,
            ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
  }

  private RawHttp.Response track(Path workspace) {
    String body = "{\"workspace\":" + HookPosts.quoted(workspace.toString()) + "}";
    return RawHttp.request(
        service.port(),
        "POST",
        "/v1/workspaces/track",
        body,
        ANSWER_WITHIN,
        "Authorization: Bearer " + TOKEN);
  }

  /** {@code files} small files, a hundred to a folder. */
  private Path tree(int files) throws IOException {
    Path root = Files.createDirectories(temp.resolve("large"));
    for (int i = 0; i < files; i++) {
      Path folder = Files.createDirectories(root.resolve("d" + i / 100));
      Files.writeString(folder.resolve("f" + i + ".txt"), "file " + i + "\n");
    }
    return root;
  }

  /** The explicit collections reported within {@code wait} of the first (or of now, if none). */
  private List<String> explicitCollections(Duration wait) throws InterruptedException {
    List<String> seen = new ArrayList<>();
    String first = explicitCollections.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    if (first != null) {
      seen.add(first);
      // a second one would come right after
      String next;
      while ((next = explicitCollections.poll(500, TimeUnit.MILLISECONDS)) != null) {
        seen.add(next);
      }
    }
    return seen;
  }

  /** The probe's output lines, run in a JVM of its own with {@code options}. */
  private static List<String> probe(List<String> options, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ServiceHeapProbe.class.getName());
    command.addAll(List.of(args));
    // its stderr apart: a JVM's own notes there (JAVA_TOOL_OPTIONS picked up) are not its output
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), out);
    assertEquals(0, process.exitValue(), out);
    return out.lines().filter(line -> !line.startsWith("held ")).toList();
  }

  /** The committed heap before and after the probe's track. */
  private static long[] committed(List<String> lines) {
    String[] words = lines.getLast().split(" ");
    assertEquals("committed", words[0], lines.toString());
    return new long[] {Long.parseLong(words[1]), Long.parseLong(words[2])};
  }
}
