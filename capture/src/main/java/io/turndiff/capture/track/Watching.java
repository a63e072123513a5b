package io.turndiff.capture.track;

import io.turndiff.boundary.Portability;
import io.turndiff.boundary.TreeWatch;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * index that changed, a watcher that did not answer, a watcher that stopped (its reader failed; it
 * is not opened again, so every later scan of the workspace is whole), and the scan after a
 * disagreement. Every {@code verifyEvery}-th watched scan, and the first after {@code verifyAfter},
 * is checked: a watched scan and a whole one of the same tree against the same index, compared. A
 * name they differ on that no event after the check began explains (each name on its own) is
 * suspected: the next scan walks the whole tree, and the name still without an event at a sync
 * {@link #JUDGED_AFTER} later is a disagreement, logged and counted; until then it is counted as
 * awaiting its event.
 *
 * <p>A status's check is made in line, and its whole result used where the two differ: a status
 * writes no baseline that a later check could verify, and its answer is what the user reads. A scan
 * that writes the index (a hook's begin, a shell call's Pre and Post, a finish) is checked after it
 * instead, off the hook's path ({@link WatchChecks}): the check verifies the baseline that scan
 * wrote, as soon as its transaction has committed. In line, the whole walk made every 50th hook
 * wait for it, 0.2 s at 100,000 files and 0.8 to 1.4 s at 250,000 (docs/performance.md, "The
 * watch's check off the hooks' path"), against the 15 ms a watched hook takes. A miss the check
 * finds is then recorded by the next scan, which walks the whole tree, rather than by the checked
 * one: the same as a miss between two checks, whose change is recorded by whichever scan next looks
 * at its name or walks the whole tree.
 *
 * <p>A status writes no index, so it cannot make a baseline of that kind; it makes one of its own
 * (the <i>status baseline</i>, used by the next status only): the index's version, the walk's mark,
 * and the names the walk found different from the index (its changes and the ignored files it left
 * out for their size). Every other name had no event since the mark and was as the index holds it
 * when the walk looked, so the next status looks at the names with an event since the mark and at
 * those names again, and nothing else. Without it, a service whose workspace was last scanned by
 * another process ({@code turndiff track} in a JVM of its own) walked the whole tree at every
 * {@code status} until a turn finished in the service.
 */
final class Watching implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Watching.class.getName());
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(5);

  /** How long a check waits for the events of the changes it saw (see {@link #unexplained}). */
  private static final Duration SETTLE = Duration.ofMillis(100);

  private static final Duration SETTLE_STEP = Duration.ofMillis(2);

  /**
   * How long a name a check left unexplained waits for its event before it is a disagreement.
   *
   * <p>The kernel queues a write's event after the write is visible ({@code vfs_write} calls {@code
   * fsnotify_modify} once the file system's write has returned), so the gap is as long as the
   * writing thread is kept from running between the two: under a load of 20 to 30 on two cores,
   * longer than {@link #SETTLE} and than the moment to the next scan, which a turn's finish can
   * start right away. A write through a shared mapping shows no event until its descriptor is
   * closed ({@code IN_CLOSE_WRITE}), however long that is. A name explained by an event that comes
   * late was seen by the watch, and is not counted; one still without an event at an answered sync
   * that began this long after it was suspected (the watcher's own patience, {@link #SYNC_TIMEOUT})
   * is. The whole result was used for it at once either way: the wait only decides what is counted,
   * never what a scan finds.
   */
  static final Duration JUDGED_AFTER = SYNC_TIMEOUT;

  private static final Set<String> IGNORE_FILES = Set.copyOf(IgnoreRules.FILES);

  /** The index a watched scan may trust outside the names with an event after {@code mark}. */
  private record Baseline(long version, long indexedAtNanos, long mark) {
    boolean of(IndexCache.Index index) {
      return version == index.version() && indexedAtNanos == index.indexedAtNanos();
    }
  }

  /**
   * What a status's scan that began at {@code mark} found of the index {@code version}: the names
   * in {@code differing} differ from it, every other name without an event after {@code mark} is as
   * it holds it.
   */
  private record StatusBaseline(Baseline index, Set<WorkspacePath> differing) {}

  /** What a scan may do: the scan of a status, one whose result is written, or a track's. */
  enum Scope {
    /** Nothing is written: the status baseline may be used, and the scan may make one. */
    STATUS,
    /** The index is written after it (a turn's refresh or finish). */
    WRITE,
    /** A track: the whole tree, whatever the watch saw. */
    TRACK
  }

  /**
   * Names a check found different ({@code suspected}) with no event after {@code mark} yet, of
   * which {@code waiting} still have none: a disagreement unless an event for them is read by an
   * answered sync that began {@link #JUDGED_AFTER} after they were suspected (a change is visible
   * before the kernel queues its event: a truncation shows size 0 while the {@code IN_MODIFY} is
   * still to come).
   */
  private record Suspects(
      long mark,
      Set<WorkspacePath> suspected,
      Set<WorkspacePath> waiting,
      String root,
      String found,
      long suspectedAtNanos) {

    Suspects(long mark, Set<WorkspacePath> suspected, String root, String found) {
      this(mark, Set.copyOf(suspected), Set.copyOf(suspected), root, found, System.nanoTime());
    }

    /** Still waiting for the events of {@code unexplained} only. */
    Suspects waitingFor(Set<WorkspacePath> unexplained) {
      return new Suspects(mark, suspected, Set.copyOf(unexplained), root, found, suspectedAtNanos);
    }

    /**
     * Whether a sync that began at {@code answeredSyncFromNanos} and was answered read every event
     * these names could have had: one that began {@link #JUDGED_AFTER} after they were suspected.
     * Judged by the clock alone, names would be judged against events not read yet, when the reader
     * stalls.
     */
    boolean judgeable(long answeredSyncFromNanos) {
      return answeredSyncFromNanos - suspectedAtNanos >= JUDGED_AFTER.toNanos();
    }
  }

  private static final class State {
    private final Optional<TreeWatch> watch;
    private Baseline baseline;
    private StatusBaseline statusBaseline;
    private final List<Suspects> suspects = new ArrayList<>();
    private long watchedScans;
    private long lastCheckNanos = System.nanoTime();

    /** A scan that writes the index is due to be checked: the baseline it writes will be. */
    private boolean checkDue;

    /**
     * The watch's number when a check last suspected a name: a scan whose mark is no later began
     * before the suspicion and may have trusted the watch, so its baseline is not kept.
     */
    private long untrustedUpTo = -1;

    /**
     * When the latest sync the watch answered began ({@link #synced}): every event before that
     * moment has been read. At first the state's creation, before any suspicion.
     */
    private final AtomicLong answeredSyncFromNanos = new AtomicLong(System.nanoTime());

    /**
     * The marks of the checks running (each mark with how many run from it): a status's in line,
     * one off the hooks' path. The events after a check's mark explain what it finds, so a baseline
     * written meanwhile forgets none of them ({@link #written}).
     */
    private final TreeMap<Long, Integer> checkMarks = new TreeMap<>();

    long oldestCheck() {
      return checkMarks.isEmpty() ? Long.MAX_VALUE : checkMarks.firstKey();
    }

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
  private final AtomicLong failedChecks = new AtomicLong();
  private volatile Optional<String> lastFailedCheck = Optional.empty();
  private final Map<String, AtomicLong> fallbacks = new ConcurrentHashMap<>();
  private volatile Optional<String> lastDisagreement = Optional.empty();

  Watching(WatchOptions options) {
    this.options = options;
  }

  boolean enabled() {
    return options.enabled();
  }

  /** Counts a check whose watched scan is done and whose whole walk begins; tells the test hook. */
  void checkStarting() {
    checks.incrementAndGet();
    options.hook().reached(TestHook.Point.WATCH_CHECK_STARTING);
  }

  /**
   * How the next scan of {@code workspaceId} against {@code index} goes. A plan with {@code check}
   * (a status's, in line) holds its mark until the caller calls {@link #checkDone} with it.
   */
  Plan plan(long workspaceId, IndexCache.Index index, Scope scope) {
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
      return whole(
          Plan.UNWATCHED,
          Portability.current().watches()
              ? "inotify cannot be used"
              : "nothing is watched in the posix mode");
    }
    TreeWatch watch = state.watch.get();
    OptionalLong mark = synced(state);
    Plan whole = new Plan(state.watch, mark, Optional.empty(), false);
    if (mark.isEmpty()) {
      // A closed watch answers no sync, now or later: its reader failed or the service is ending.
      // Said apart from a reader that is only slow, since every later scan is whole for it: the
      // watch is not opened again, as the marks of the scans under way are in its numbering, which
      // a new one would start again from zero (docs/tracking.md).
      return whole(
          whole,
          watch.isClosed()
              ? "the watcher stopped"
                  + watch.stoppedBecause().map(why -> " (" + why + ")").orElse("")
              : "the watcher did not answer in time");
    }
    Baseline baseline;
    Set<WorkspacePath> carried = Set.of();
    Optional<TreeWatch.Dirty> changed = Optional.empty();
    boolean check;
    Optional<String> whyWhole;
    synchronized (state) {
      confirm(state);
      baseline = state.baseline;
      StatusBaseline statusBaseline = state.statusBaseline;
      // a status baseline of an index written since names the reason for a whole walk as well
      if (scope == Scope.STATUS
          && statusBaseline != null
          && (baseline == null || !baseline.of(index) && statusBaseline.index().of(index))) {
        baseline = statusBaseline.index();
        carried = statusBaseline.differing();
      }
      // under the lock that a new baseline is written under: the names after this baseline's
      // mark are not forgotten until they are read here
      if (baseline != null) {
        changed = Optional.of(since(watch, baseline));
      }
      check =
          ++state.watchedScans % options.verifyEvery() == 0
              || System.nanoTime() - state.lastCheckNanos > options.verifyAfter().toNanos();
      if (check) {
        state.lastCheckNanos = System.nanoTime();
      }
      whyWhole = wholeWalkReason(scope, baseline, index, changed);
      if (check && whyWhole.isEmpty()) {
        if (scope == Scope.WRITE) {
          // checked after the write instead, off this hook's path (see the class's comment)
          state.checkDue = true;
          check = false;
        } else {
          // a status's check in line holds its mark from here, under the lock a baseline is
          // written under: one written from now on forgets none of the events after it
          state.checkMarks.merge(mark.getAsLong(), 1, Integer::sum);
        }
      }
    }
    if (whyWhole.isPresent()) {
      return whole(whole, whyWhole.get());
    }
    watchedScans.incrementAndGet();
    TreeWatch.Dirty dirty = changed.orElseThrow();
    Set<WorkspacePath> paths = dirty.paths();
    if (!carried.isEmpty()) {
      paths = new HashSet<>(paths);
      paths.addAll(carried);
    }
    return new Plan(state.watch, mark, Optional.of(paths), check);
  }

  /**
   * The names with an event since {@code baseline}'s mark; everything when some of them were
   * forgotten already. A baseline written forgets the events up to its own mark (and the running
   * checks'), so a baseline with an older mark (a status baseline, used when the index held is
   * still its index after a hook's scan wrote another baseline that its transaction has not
   * committed yet, or never did) no longer has all of its names: trusted, the next status would
   * miss what changed between the two marks.
   */
  private static TreeWatch.Dirty since(TreeWatch watch, Baseline baseline) {
    if (!watch.remembersSince(baseline.mark())) {
      return new TreeWatch.Dirty(
          Set.of(), Optional.of("the events since the baseline were forgotten"));
    }
    return watch.dirtySince(baseline.mark());
  }

  /**
   * Why a scan from {@code baseline} must walk the whole tree, given the names with an event since
   * it ({@code changed}, read under the state's lock); empty when the watch can be trusted.
   */
  private static Optional<String> wholeWalkReason(
      Scope scope, Baseline baseline, IndexCache.Index index, Optional<TreeWatch.Dirty> changed) {
    if (scope == Scope.TRACK) {
      return Optional.of("a track walks the whole tree");
    }
    if (baseline == null) {
      return Optional.of("no watched scan of this workspace yet");
    }
    if (!baseline.of(index)) {
      return Optional.of("the index was written by another scan");
    }
    if (index.partial() || index.directories().isEmpty()) {
      return Optional.of("the index is partial");
    }
    TreeWatch.Dirty dirty = changed.orElseThrow();
    if (dirty.everything().isPresent()) {
      return dirty.everything();
    }
    if (anIgnoreFileAmong(dirty.paths())) {
      return Optional.of("an ignore file changed");
    }
    return Optional.empty();
  }

  private static boolean anIgnoreFileAmong(Set<WorkspacePath> paths) {
    for (WorkspacePath path : paths) {
      if (IGNORE_FILES.contains(new String(path.name(), StandardCharsets.UTF_8))) {
        return true;
      }
    }
    return false;
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
   * at {@code mark}: the new baseline, unless a check suspected a name since that scan began (it
   * may have trusted the watch about that name). Answers whether the baseline is due to be checked
   * ({@link #check}, once the write has committed).
   */
  boolean written(long workspaceId, long version, long indexedAtNanos, long mark) {
    State state = states.get(workspaceId);
    if (state == null || state.watch.isEmpty()) {
      return false;
    }
    synchronized (state) {
      confirm(state);
      if (mark <= state.untrustedUpTo) {
        return false;
      }
      state.baseline = new Baseline(version, indexedAtNanos, mark);
      state.watch.get().forgetUpTo(Math.min(mark, state.oldestCheck()));
      boolean due = state.checkDue;
      state.checkDue = false;
      return due;
    }
  }

  /**
   * The check of the baseline {@code index} is, when it is still the workspace's baseline and the
   * watch has nothing to say that makes the next scan walk the whole tree anyway; empty otherwise
   * (the next scan's own plan says why it walks whole). The names with an event since the baseline
   * are read under the lock a new baseline is written under, as {@link #plan} reads them; from now
   * until {@link #checkDone}, a baseline written keeps the events after the check's mark, which
   * explain what the check finds ({@link #unexplained}), as it does for a status's check.
   */
  Optional<Plan> check(long workspaceId, IndexCache.Index index) {
    State state = states.get(workspaceId);
    if (state == null || state.watch.isEmpty()) {
      return Optional.empty();
    }
    TreeWatch watch = state.watch.get();
    OptionalLong mark = synced(state);
    if (mark.isEmpty()) {
      return Optional.empty();
    }
    Optional<TreeWatch.Dirty> dirty;
    synchronized (state) {
      confirm(state);
      Baseline baseline = state.baseline;
      dirty = Optional.ofNullable(baseline).map(from -> since(watch, from));
      if (wholeWalkReason(Scope.WRITE, baseline, index, dirty).isPresent()) {
        return Optional.empty();
      }
      state.lastCheckNanos = System.nanoTime();
      state.checkMarks.merge(mark.getAsLong(), 1, Integer::sum);
    }
    return Optional.of(new Plan(state.watch, mark, Optional.of(dirty.orElseThrow().paths()), true));
  }

  /**
   * The check from {@code mark} is over, whether it compared its two scans or stopped short (more
   * changed names than the budget, a failure): a status's that {@link #plan} planned, or one {@link
   * #check} began.
   */
  void checkDone(long workspaceId, long mark) {
    State state = states.get(workspaceId);
    if (state == null) {
      return;
    }
    synchronized (state) {
      state.checkMarks.computeIfPresent(mark, (at, running) -> running == 1 ? null : running - 1);
    }
  }

  /**
   * A check off the hooks' path of the workspace whose real root is {@code root} failed before it
   * compared its two scans ({@code failure} says why): it found nothing, and suspects nothing.
   * Logged and counted, so {@code service status} shows a watch whose checks keep failing, which
   * would otherwise look like a watch whose checks keep agreeing.
   */
  void checkFailed(String root, RuntimeException failure) {
    String detail =
        root + ": " + Objects.requireNonNullElse(failure.getMessage(), failure.toString());
    // the reason first: a status that reads the count after it (status() does) has its reason
    lastFailedCheck = Optional.of(detail);
    failedChecks.incrementAndGet();
    LOG.log(
        System.Logger.Level.WARNING, "the watch's check could not be made of " + detail, failure);
  }

  /**
   * A check could not be made of the baseline just written (its write had not committed yet, or the
   * index held is another): the next baseline written is checked instead.
   */
  void checkLater(long workspaceId) {
    State state = states.get(workspaceId);
    if (state == null) {
      return;
    }
    synchronized (state) {
      state.checkDue = true;
    }
  }

  /**
   * A status's scan that began at {@code mark} compared the tree with {@code index} and found
   * {@code differing} different from it: the status baseline of the next status (see the class's
   * comment). A scan that began earlier than the baseline kept does not replace it.
   */
  void statusSeen(
      long workspaceId, IndexCache.Index index, long mark, Set<WorkspacePath> differing) {
    State state = states.get(workspaceId);
    if (state == null || state.watch.isEmpty()) {
      return;
    }
    synchronized (state) {
      confirm(state);
      if (mark <= state.untrustedUpTo) {
        return; // began before a check suspected a name, which it may have trusted the watch about
      }
      StatusBaseline kept = state.statusBaseline;
      if (kept != null && kept.index().of(index) && kept.index().mark() > mark) {
        return;
      }
      state.statusBaseline =
          new StatusBaseline(
              new Baseline(index.version(), index.indexedAtNanos(), mark), Set.copyOf(differing));
    }
  }

  /**
   * The watch's sync ({@link TreeWatch#sync}), its start remembered when it is answered: the moment
   * before which every event has been read, which decides when suspected names can be judged.
   */
  private static OptionalLong synced(State state) {
    long from = System.nanoTime();
    OptionalLong mark = state.watch.orElseThrow().sync(SYNC_TIMEOUT);
    if (mark.isPresent()) {
      state.answeredSyncFromNanos.accumulateAndGet(from, Math::max);
    }
    return mark;
  }

  /**
   * The names among {@code differing} (those a watched and a whole scan disagree on) that had no
   * event after {@code mark}, at or above them. A name that changed while the two scans ran is
   * explained by its own event; every name must be explained on its own (one explained name never
   * vouches for another). The kernel makes a change visible a moment before it queues the change's
   * event (a truncation shows size 0 before its {@code IN_MODIFY}), so the events are read again
   * for up to {@link #SETTLE} while some name is unexplained; what is left is only suspected, and
   * judged at a later sync ({@link #suspected}). Empty when everything changed since (an overflow:
   * the next scan walks the whole tree for it), and when the watch is closed or the check stopped.
   *
   * <p>A watch that does not answer a sync (its reader stalled past {@link #SYNC_TIMEOUT}) has not
   * explained what it has not read: the names the events read so far leave unexplained are
   * suspected like any others, and judged at a later sync that is answered, where their events, if
   * they come, explain them. Taken as explained, they would let the next scan trust the watch about
   * a name it may have missed.
   */
  Set<WorkspacePath> unexplained(long workspaceId, long mark, Set<WorkspacePath> differing) {
    State state = states.get(workspaceId);
    if (state == null || state.watch.isEmpty()) {
      return differing;
    }
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      if (synced(state).isEmpty()) {
        // Closed (the service is ending, or the reader failed) or interrupted (the checks are
        // stopped): nothing is judged, and every later scan walks the whole tree or never comes.
        // Otherwise what the events read so far leave unexplained is suspected.
        return state.watch.get().isClosed() || Thread.currentThread().isInterrupted()
            ? Set.of()
            : unexplained(state.watch.get(), mark, differing);
      }
      Set<WorkspacePath> unexplained = unexplained(state.watch.get(), mark, differing);
      if (unexplained.isEmpty() || System.nanoTime() > deadline) {
        return unexplained;
      }
      try {
        Thread.sleep(SETTLE_STEP);
      } catch (InterruptedException e) {
        // stopped, as an interrupted sync is: nothing is judged
        Thread.currentThread().interrupt();
        return Set.of();
      }
    }
  }

  /** The names without an event after {@code mark} at or above them, in what was read so far. */
  private static Set<WorkspacePath> unexplained(
      TreeWatch watch, long mark, Set<WorkspacePath> differing) {
    TreeWatch.Dirty dirty = watch.dirtySince(mark);
    if (dirty.everything().isPresent()) {
      return Set.of();
    }
    Set<WorkspacePath> unexplained = new HashSet<>();
    for (WorkspacePath path : differing) {
      if (!changedAtOrAbove(path, dirty.paths())) {
        unexplained.add(path);
      }
    }
    return unexplained;
  }

  private static boolean changedAtOrAbove(WorkspacePath path, Set<WorkspacePath> changed) {
    Optional<WorkspacePath> at = Optional.of(path);
    while (at.isPresent()) {
      if (changed.contains(at.get())) {
        return true;
      }
      at = at.get().parent();
    }
    return false;
  }

  /**
   * A watched scan and a whole scan of the same tree differ on names that no event explains yet:
   * the whole result is used, the next scan walks the whole tree, and at each later sync (the next
   * scans of the workspace) these names are judged ({@link #confirm}): each without an event after
   * {@code mark} at an answered sync that began {@link #JUDGED_AFTER} after the suspicion is a
   * disagreement, logged and counted.
   */
  void suspected(
      long workspaceId, long mark, Set<WorkspacePath> differing, String root, String found) {
    State state = states.get(workspaceId);
    if (state == null) {
      return;
    }
    synchronized (state) {
      confirm(state);
      state.baseline = null;
      state.statusBaseline = null;
      // a scan under way began before this moment and may have trusted the watch about these
      // names: its baseline is not kept (written, statusSeen); one that begins after it gets a
      // later number from its sync (the sync's own cookie is an event) and walks the whole tree
      state.watch.ifPresent(watch -> state.untrustedUpTo = watch.reached());
      state.suspects.add(new Suspects(mark, differing, root, found));
    }
  }

  /**
   * Judges the names checks left unexplained, once the watch has synced since (the caller holds the
   * state's lock): a name whose event has come since is dropped; one still without an event at an
   * answered sync that began {@link #JUDGED_AFTER} after the suspicion is a disagreement; the
   * others wait. The names explained are dropped here, before the caller can write a baseline: its
   * mark forgets the events up to it, all of which have been read by now, so every event that could
   * still explain a waiting name comes after it.
   */
  private void confirm(State state) {
    if (state.suspects.isEmpty() || state.watch.isEmpty()) {
      return;
    }
    long answeredSyncFrom = state.answeredSyncFromNanos.get();
    List<Suspects> stillWaiting = new ArrayList<>();
    for (Suspects suspects : state.suspects) {
      Set<WorkspacePath> unexplained =
          unexplained(state.watch.get(), suspects.mark(), suspects.waiting());
      if (unexplained.isEmpty()) {
        continue;
      }
      if (suspects.judgeable(answeredSyncFrom)) {
        disagreement(suspects, unexplained);
      } else {
        stillWaiting.add(suspects.waitingFor(unexplained));
      }
    }
    state.suspects.clear();
    state.suspects.addAll(stillWaiting);
  }

  private void disagreement(Suspects suspects, Set<WorkspacePath> unexplained) {
    disagreements.incrementAndGet();
    String detail =
        suspects.root()
            + ": the watched scan found "
            + suspects.found()
            + (unexplained.size() < suspects.suspected().size()
                ? " (unexplained: "
                    + unexplained.stream().map(WorkspacePath::display).sorted().toList()
                    + ")"
                : "");
    lastDisagreement = Optional.of(detail);
    LOG.log(System.Logger.Level.WARNING, "watch disagreement: " + detail);
  }

  WatchStatus status() {
    int directories = 0;
    long overflows = 0;
    int watched = 0;
    long awaitingEvents = 0;
    for (State state : states.values()) {
      if (state.watch.isPresent()) {
        watched++;
        directories += state.watch.get().watches();
        overflows += state.watch.get().overflows();
      }
      synchronized (state) {
        for (Suspects suspects : state.suspects) {
          awaitingEvents += suspects.waiting().size();
        }
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
        awaitingEvents,
        disagreements.get(),
        lastDisagreement,
        failedChecks.get(),
        lastFailedCheck);
  }

  @Override
  public void close() {
    for (State state : states.values()) {
      state.watch.ifPresent(TreeWatch::close);
    }
    states.clear();
  }
}
