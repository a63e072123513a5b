package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.model.TurnKind;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The turn lookups a hook call makes several times (a turn by its external id, a session's turns,
 * the open turns, the agent turn before the one a prompt began), each in a read transaction of its
 * own, over a store that kept {@link #turns} turns in {@value #SESSIONS} sessions, the last turn of
 * each still open: what the store answers a begin or a Stop with, measured apart from the rest of
 * the call, in a young store and in one ten times its age (docs/performance.md, "The turns' lookups
 * prepared, the open turns indexed", and for the previous agent turn "A hook's questions sized to
 * their answers").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TurnLookupBenchmark {

  static final int SESSIONS = 20;

  /** How many turns the store kept. */
  @Param({"2000", "20000"})
  public int turns;

  private Path base;
  private Turndiff turndiff;
  private String[] externalIds;
  private long[] sessions;
  private int next;

  /** The turns, written as rows in one transaction: the lookups read rows, not files. */
  @Setup(Level.Trial)
  public void createStore() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-turns");
    turndiff = Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
    externalIds = new String[turns];
    sessions = new long[SESSIONS];
    turndiff
        .store()
        .write(
            tx -> {
              StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
              StoredSession[] kept = new StoredSession[SESSIONS];
              for (int s = 0; s < SESSIONS; s++) {
                kept[s] = tx.sessions().create("session-" + s, workspace.id());
                sessions[s] = kept[s].id();
              }
              for (int i = 0; i < turns; i++) {
                externalIds[i] = "turn-" + i;
                long id = tx.turns().begin(externalIds[i], kept[i % SESSIONS], TurnKind.AGENT).id();
                if (i + SESSIONS < turns) {
                  tx.turns().markFinished(id);
                }
              }
              return null;
            });
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  @Benchmark
  public Optional<StoredTurn> turnByExternalId() {
    String turn = externalIds[next++ % turns];
    return turndiff.store().read(tx -> tx.turns().byExternalId(turn));
  }

  @Benchmark
  public List<StoredTurn> turnsOfSession() {
    long session = sessions[next++ % SESSIONS];
    return turndiff.store().read(tx -> tx.turns().ofSession(session));
  }

  /**
   * The last agent turn before a session's last (what a prompt's note tells about), as the store
   * answers it from the (session, number) index.
   */
  @Benchmark
  public Optional<StoredTurn> previousAgentTurn() {
    long session = sessions[next++ % SESSIONS];
    long last = turns / SESSIONS;
    return turndiff.store().read(tx -> tx.turns().lastOfKindBefore(session, last, TurnKind.AGENT));
  }

  /**
   * The same answer as the hooks found it before: every turn of the session read, the last agent
   * turn before the session's last kept (the anchor of {@link #previousAgentTurn}).
   */
  @Benchmark
  public Optional<StoredTurn> previousAgentTurnReadingTheSession() {
    long session = sessions[next++ % SESSIONS];
    long last = turns / SESSIONS;
    return turndiff
        .store()
        .read(
            tx ->
                tx.turns().ofSession(session).stream()
                    .filter(turn -> turn.kind() == TurnKind.AGENT && turn.seq() < last)
                    .reduce((older, newer) -> newer));
  }

  @Benchmark
  public List<StoredTurn> openTurns() {
    return turndiff.store().read(tx -> tx.turns().open());
  }
}
