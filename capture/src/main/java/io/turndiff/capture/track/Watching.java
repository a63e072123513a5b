package io.turndiff.capture.track;

import io.turndiff.boundary.TreeWatch;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The policy of watching tracked workspaces ({@link TreeWatch} does the watching): when a scan may
 * look only at the names that changed, and when it must walk the whole tree.
 *
 * <p>A scan may look at the changed names alone when the index it compares against is one this
 * process wrote after a scan that began with every directory watched (the <i>baseline</i>: its
 * version, its start, and the watch's number at that moment): every path with no event since then
 * is as the index holds it. Otherwise the whole tree is walked, and the walk becomes the next
 * baseline: the first scan after the service started, an index another process wrote, an index that
 * is partial, a queue that overflowed, a watch that could not be added, an ignore file or a git
 * index that changed, a watcher that did not answer, and the scan after a disagreement. Every
 * {@code verifyEvery}-th watched scan, and the first after {@code verifyAfter}, is also done whole
 * and the two compared; a disagreement the events after the scan began do not explain is logged and
 * counted, and the whole result is used.
 */
final class Watching implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Watching.class.getName());
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(5);
  private static final Set<String> IGNORE_FILES = Set.copyOf(IgnoreRules.FILES);

  /** The index a watched scan may trust outside the names with an event after {@code mark}. */
  private record Baseline(long version, long indexedAtNanos, long mark) {}

  private static final class State {
    private final Optional<TreeWatch> watch;
    private Baseline baseline;
    private long watchedScans;
    private long lastCheckNanos = System.nanoTime();

    State(Optional<TreeWatch> watch) {
      this.watch = watch;
    }
  }

  /**
   * How one scan goes: with the watch (to add each directory it lists), from the number {@code
   * mark} (empty: no baseline can come of it), looking at {@code dirty} only when present, and
   * checked against a whole scan when {@code check}.
   */
  record Plan(
      Optional<TreeWatch> watch,
      OptionalLong mark,
      Optional<Set<WorkspacePath>> dirty,
      boolean check) {
    static final Plan UNWATCHED =
        new Plan(Optional.empty(), OptionalLong.empty(), Optional.empty(), false);
  }

  private final WatchOptions options;
  private final Map<Long, State> states = new ConcurrentHashMap<>();
  private final AtomicLong watchedScans = new AtomicLong();
  private final AtomicLong fullScans = new AtomicLong();
  private final AtomicLong checks = new AtomicLong();
  private final AtomicLong disagreements = new AtomicLong();
  private final Map<String, AtomicLong> fallbacks = new ConcurrentHashMap<>();
  private volatile Optional<String> lastDisagreement = Optional.empty();

  Watching(WatchOptions options) {
    this.options = options;
  }

  boolean enabled() {
    return options.enabled();
  }

  /** How the next scan of {@code workspaceId} against {@code index} goes. */
  Plan plan(long workspaceId, IndexCache.Index index, boolean mayLookAtChangesOnly) {
    if (!options.enabled()) {
      return Plan.UNWATCHED;
    }
    State state =
        states.computeIfAbsent(
            workspaceId,
            id ->
                new State(
                    TreeWatch.open(new TreeWatch.Settings(options.maxWatches(), options.hook()))));
    if (state.watch.isEmpty()) {
      return whole(Plan.UNWATCHED, "inotify cannot be used");
    }
    TreeWatch watch = state.watch.get();
    OptionalLong mark = watch.sync(SYNC_TIMEOUT);
    Plan whole = new Plan(state.watch, mark, Optional.empty(), false);
    if (mark.isEmpty()) {
      return whole(whole, "the watcher did not answer in time");
    }
    Baseline baseline;
    boolean check;
    synchronized (state) {
      baseline = state.baseline;
      check =
          ++state.watchedScans % options.verifyEvery() == 0
              || System.nanoTime() - state.lastCheckNanos > options.verifyAfter().toNanos();
      if (check) {
        state.lastCheckNanos = System.nanoTime();
      }
    }
    if (!mayLookAtChangesOnly) {
      return whole(whole, "a track walks the whole tree");
    }
    if (baseline == null) {
      return whole(whole, "no watched scan of this workspace yet");
    }
    if (baseline.version() != index.version()
        || baseline.indexedAtNanos() != index.indexedAtNanos()) {
      return whole(whole, "the index was written by another scan");
    }
    if (index.partial() || index.directories().isEmpty()) {
      return whole(whole, "the index is partial");
    }
    TreeWatch.Dirty dirty = watch.dirtySince(baseline.mark());
    if (dirty.everything().isPresent()) {
      return whole(whole, dirty.everything().get());
    }
    for (WorkspacePath path : dirty.paths()) {
      if (IGNORE_FILES.contains(new String(path.name(), StandardCharsets.UTF_8))) {
        return whole(whole, "an ignore file changed");
      }
    }
    watchedScans.incrementAndGet();
    if (check) {
      checks.incrementAndGet();
    }
    return new Plan(state.watch, mark, Optional.of(dirty.paths()), check);
  }

  private Plan whole(Plan plan, String why) {
    fullScans.incrementAndGet();
    fallbacks.computeIfAbsent(why, reason -> new AtomicLong()).incrementAndGet();
    return plan;
  }

  /** A watched scan looked at more than the budget allows: it is done whole instead. */
  void overBudget() {
    watchedScans.decrementAndGet();
    whole(Plan.UNWATCHED, "the budget decides what is left out");
  }

  /**
   * The index of {@code workspaceId} was written as version {@code version} from a scan that began
   * at {@code mark}: the new baseline.
   */
  void written(long workspaceId, long version, long indexedAtNanos, long mark) {
    State state = states.get(workspaceId);
    if (state == null || state.watch.isEmpty()) {
      return;
    }
    synchronized (state) {
      state.baseline = new Baseline(version, indexedAtNanos, mark);
    }
    state.watch.get().forgetUpTo(mark);
  }

  /**
   * Whether a name that differs between a watched and a whole scan had an event after {@code mark}
   * (it changed while the two ran: no disagreement).
   */
  boolean changedSince(long workspaceId, long mark, Set<WorkspacePath> differing) {
    State state = states.get(workspaceId);
    if (state == null || state.watch.isEmpty()) {
      return false;
    }
    OptionalLong now = state.watch.get().sync(SYNC_TIMEOUT);
    if (now.isEmpty()) {
      return true;
    }
    TreeWatch.Dirty dirty = state.watch.get().dirtySince(mark);
    if (dirty.everything().isPresent()) {
      return true;
    }
    for (WorkspacePath path : differing) {
      for (WorkspacePath changed : dirty.paths()) {
        if (path.isWithin(changed)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A watched scan and a whole scan of the same tree disagreed: logged, counted, and the next scan
   * walks the whole tree.
   */
  void disagreed(long workspaceId, String root, Set<WorkspacePath> differing, String found) {
    disagreements.incrementAndGet();
    String detail = root + ": the watched scan found " + found;
    lastDisagreement = Optional.of(detail);
    LOG.log(System.Logger.Level.WARNING, "watch disagreement: " + detail);
    State state = states.get(workspaceId);
    if (state != null) {
      synchronized (state) {
        state.baseline = null;
      }
    }
  }

  WatchStatus status() {
    int directories = 0;
    long overflows = 0;
    int watched = 0;
    for (State state : states.values()) {
      if (state.watch.isPresent()) {
        watched++;
        directories += state.watch.get().watches();
        overflows += state.watch.get().overflows();
      }
    }
    Map<String, Long> reasons = new TreeMap<>();
    fallbacks.forEach((why, count) -> reasons.put(why, count.get()));
    return new WatchStatus(
        options.enabled(),
        watched,
        directories,
        watchedScans.get(),
        fullScans.get(),
        reasons,
        overflows,
        checks.get(),
        disagreements.get(),
        lastDisagreement);
  }

  @Override
  public void close() {
    for (State state : states.values()) {
      state.watch.ifPresent(TreeWatch::close);
    }
    states.clear();
  }
}
