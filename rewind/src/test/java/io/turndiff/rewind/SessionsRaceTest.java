package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many sessions in one tracked workspace, their shells writing at once (issue 27): every change
 * ends in exactly the turns that could have made it, each naming the others, and no rewind touches
 * another session's unshared change.
 *
 * <p>The test runs in rounds. In a round's writing phase every open session's shell ({@code sh})
 * writes a file of its own and appends to one file they all share, all at once, and its tool writes
 * a file it named in a snapshot call first. Then, all at once on threads of their own, some open
 * turns finish and some sessions begin their next turn (each begin and finish scans the workspace).
 * A file the shell changed in a round could have been changed by any turn open during that writing
 * phase, and by no other: the expected records follow from the rounds alone. Then every turn is
 * rewound in a random order, each checked against the tree just before it.
 */
class SessionsRaceTest {

  private static final int SESSIONS = 6;
  private static final int ROUNDS = 6;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private WorkspaceHandles handles;
  private CaptureService capture;
  private RewindService rewind;

  @AfterEach
  void canary() {
    if (capture == null) {
      return;
    }
    capture.close();
    handles.close();
    workspace.assertNothingLeakedThenClose(store);
  }

  /** What the rounds say each turn must record: path to the other turns that could have made it. */
  private final Map<String, Map<String, Set<String>>> expected = new TreeMap<>();

  /**
   * Each turn's phase of begin and of finish (the scan phase of round r is r; the first begins are
   * -1, the last finishes {@code ROUNDS}); a rewind turn finished after every other.
   */
  private final Map<String, int[]> phases = new HashMap<>();

  /** The rewind turns the rewinds made, with the session of the turn each rewound. */
  private final Map<String, String> rewindTurns = new HashMap<>();

  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {false, true})
  void everyShellChangeEndsInExactlyTheTurnsThatCouldHaveMadeItAndNoRewindTouchesAnothers(
      boolean watched) throws Exception {
    if (watched) {
      assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    }
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    handles = new WorkspaceHandles(store, BoundaryOptions.defaults());
    capture =
        new CaptureService(
            store, handles, watched ? WatchOptions.SERVICE : WatchOptions.OFF, turnRow -> {});
    rewind = new RewindService(store, handles);
    workspace.file("shared.txt", "");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);

    Random random = new Random(27);
    Map<Integer, String> open = new TreeMap<>();
    int[] turnsOf = new int[SESSIONS];
    ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
    try {
      for (int session = 0; session < SESSIONS / 2; session++) {
        open.put(session, begin(session, ++turnsOf[session]));
        phases.put(open.get(session), new int[] {-1, Integer.MAX_VALUE});
      }
      for (int round = 0; round < ROUNDS; round++) {
        write(pool, round, open);
        List<Callable<Void>> steps = new ArrayList<>();
        Map<Integer, String> next = new TreeMap<>(open);
        for (int session = 0; session < SESSIONS; session++) {
          int s = session;
          if (open.containsKey(s) && random.nextInt(2) == 0) {
            String turn = next.remove(s);
            phases.get(turn)[1] = round;
            steps.add(() -> finish(turn));
          } else if (!open.containsKey(s) && random.nextInt(5) < 3) {
            String turn = turnId(s, ++turnsOf[s]);
            next.put(s, turn);
            phases.put(turn, new int[] {round, Integer.MAX_VALUE});
            expected.put(turn, new TreeMap<>());
            steps.add(
                () -> {
                  beginAs(s, turn);
                  return null;
                });
          }
        }
        all(pool, steps);
        open = next;
      }
      write(pool, ROUNDS, open);
      open.values().forEach(turn -> phases.get(turn)[1] = ROUNDS);
      all(pool, open.values().stream().map(turn -> (Callable<Void>) () -> finish(turn)).toList());
    } finally {
      pool.shutdownNow();
    }

    checkRecords();
    rewindEachTurn(random);
  }

  private static String turnId(int session, int seq) {
    return "s" + session + "-t" + seq;
  }

  private static String sessionId(int session) {
    return "s" + session;
  }

  private String begin(int session, int seq) {
    String turn = turnId(session, seq);
    expected.put(turn, new TreeMap<>());
    return beginAs(session, turn);
  }

  private String beginAs(int session, String turn) {
    capture.beginTurn(workspace.root(), Optional.of(sessionId(session)), Optional.of(turn));
    return turn;
  }

  private Void finish(String turn) {
    capture.finishTurn(turn);
    return null;
  }

  /**
   * One writing phase: each open session at once snapshots and writes its named file through its
   * "tool", and runs a shell that writes a file of its own and appends to the shared file.
   */
  private void write(ExecutorService pool, int round, Map<Integer, String> open) throws Exception {
    List<Callable<Void>> writers = new ArrayList<>();
    CyclicBarrier together = new CyclicBarrier(Math.max(1, open.size()));
    for (Map.Entry<Integer, String> entry : open.entrySet()) {
      int session = entry.getKey();
      String turn = entry.getValue();
      String own = "s" + session + "/r" + round + ".txt";
      String tool = "s" + session + "/tool-r" + round + ".txt";
      writers.add(
          () -> {
            together.await();
            capture.snapshot(turn, Optional.of("write-" + round), List.of(tool));
            Files.createDirectories(workspace.resolve(tool).getParent());
            Files.writeString(workspace.resolve(tool), "tool " + turn + "\n");
            sh(
                "mkdir -p s"
                    + session
                    + " && echo "
                    + turn
                    + " > "
                    + own
                    + " && echo "
                    + turn
                    + " >> shared.txt");
            return null;
          });
    }
    // every turn open during the phase could have made each shell change in it, and, its calls not
    // bracketed, each tool's file too (its shell could have written the path another's tool named)
    for (String turn : open.values()) {
      Set<String> others = new TreeSet<>(open.values());
      others.remove(turn);
      Map<String, Set<String>> records = expected.get(turn);
      for (int session : open.keySet()) {
        for (String path :
            List.of(
                "s" + session + "/r" + round + ".txt",
                "s" + session + "/tool-r" + round + ".txt",
                "shared.txt")) {
          records.computeIfAbsent(path, p -> new TreeSet<>()).addAll(others);
        }
      }
    }
    all(pool, writers);
  }

  private void sh(String script) throws Exception {
    Process process =
        new ProcessBuilder("sh", "-c", script)
            .directory(workspace.root().toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), script + ": " + output);
  }

  private static void all(ExecutorService pool, List<Callable<Void>> steps) throws Exception {
    List<Future<Void>> running = new ArrayList<>();
    for (Callable<Void> step : steps) {
      running.add(pool.submit(step));
    }
    for (Future<Void> step : running) {
      step.get();
    }
  }

  /**
   * Each turn recorded exactly the shell's and the tools' paths of the phases it was open in, each
   * naming exactly the other turns open then.
   */
  private void checkRecords() {
    for (String turn : expected.keySet()) {
      Map<String, Set<String>> want = new TreeMap<>();
      expected.get(turn).forEach((path, others) -> want.put(path, describe(others)));
      Map<String, Set<String>> got = new TreeMap<>();
      RecordedChanges.alsoPossible(store, turn)
          .forEach((path, others) -> got.put(path, new TreeSet<>(others)));
      // the directory s<n> appears as a directory record, not a file
      assertEquals(want, got, "what turn " + turn + " recorded, and with whom");
    }
  }

  private static Set<String> describe(Set<String> turns) {
    Set<String> described = new TreeSet<>();
    for (String turn : turns) {
      described.add("turn " + turn + " of session " + turn.substring(0, turn.indexOf('-')));
    }
    return described;
  }

  /**
   * Rewinds every turn in a random order: each rewind changes only paths its turn recorded as its
   * own (no other turn could have made them), and never a path another session's turn recorded
   * after it began; every shared path it met is a conflict naming the other turns.
   */
  private void rewindEachTurn(Random random) throws Exception {
    List<String> turns = new ArrayList<>(expected.keySet());
    Collections.shuffle(turns, random);
    for (String turn : turns) {
      Map<String, String> before = TreeContent.of(workspace.root());
      RewindReport report =
          rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
      report
          .rewindTurn()
          .ifPresent(
              rewindTurn -> {
                rewindTurns.put(rewindTurn, sessionOf(turn));
                phases.put(rewindTurn, new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE});
              });
      Map<String, String> after = TreeContent.of(workspace.root());
      Set<String> changed = new HashSet<>(before.keySet());
      changed.addAll(after.keySet());
      changed.removeIf(path -> Objects.equals(before.get(path), after.get(path)));
      // a directory the turn created and left empty goes with its files: the files are checked
      changed.removeIf(
          path ->
              String.valueOf(before.get(path)).startsWith("dir ")
                  || String.valueOf(after.get(path)).startsWith("dir "));
      Map<String, StoredFileChange> records = new LinkedHashMap<>();
      RecordedChanges.of(store, turn)
          .forEach(change -> records.put(change.path().display(), change));
      for (String path : changed) {
        StoredFileChange record = records.get(path);
        assertTrue(
            record != null && record.alsoPossible().isEmpty(),
            "rewinding " + turn + " changed " + path + ", which is not its own unshared change");
        assertTrue(
            touchedOnlyByTurnsOf(path, turn),
            "rewinding " + turn + " changed " + path + ", which another session changed");
      }
      for (RewindReport.Skipped skip : report.skipped()) {
        StoredFileChange record = records.get(skip.path().display());
        if (record != null && !record.alsoPossible().isEmpty()) {
          assertTrue(skip.detail().contains("also possible: turn "), skip.toString());
        }
      }
    }
  }

  private static String sessionOf(String turn) {
    return turn.substring(0, turn.indexOf('-'));
  }

  /**
   * Whether no turn of another session that finished in a phase after {@code turn} began (or is a
   * rewind turn made since) recorded {@code path}.
   */
  private boolean touchedOnlyByTurnsOf(String path, String turn) {
    String session = sessionOf(turn);
    int began = phases.get(turn)[0];
    List<String> others = new ArrayList<>(expected.keySet());
    others.addAll(rewindTurns.keySet());
    for (String other : others) {
      String otherSession = rewindTurns.getOrDefault(other, null);
      if ((otherSession == null ? sessionOf(other) : otherSession).equals(session)
          || phases.get(other)[1] <= began) {
        continue;
      }
      boolean recorded =
          RecordedChanges.of(store, other).stream()
              .anyMatch(change -> change.path().display().equals(path));
      if (recorded) {
        return false;
      }
    }
    return true;
  }
}
