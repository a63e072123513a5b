package io.turndiff.store;

import java.time.InstantSource;
import java.util.Map;
import org.jooq.DSLContext;

/** The store's tables within one transaction, each behind its own small API. */
public final class StoreTransaction {

  private final Workspaces workspaces;
  private final Sessions sessions;
  private final Turns turns;
  private final ToolCalls toolCalls;
  private final Blobs blobs;
  private final ContentDictionaries dictionaries;
  private final Snapshots snapshots;
  private final FileChanges fileChanges;
  private final SharedChanges sharedChanges;
  private final RewindOperations rewinds;
  private final WorkspaceIndexes indexes;
  private final DirectoryChanges directoryChanges;
  private final RewindDirectories rewindDirectories;
  private final IndexDirectories indexDirectories;
  private final Retention retention;
  private final StoreSettings settings;
  private final Prompts prompts;
  private final HookSightingRows hookSightings;
  private final BeforeLog beforeLog;

  StoreTransaction(
      DSLContext dsl,
      InstantSource clock,
      HostId host,
      PreparedQueries prepared,
      BlobCodec codec,
      Map<Long, ContentDictionary> knownDictionaries,
      boolean committedOnly) {
    this.workspaces = new Workspaces(dsl, clock, host, prepared);
    this.sessions = new Sessions(dsl, clock, prepared);
    this.turns = new Turns(dsl, clock, prepared);
    this.toolCalls = new ToolCalls(dsl, clock, prepared);
    this.dictionaries =
        new ContentDictionaries(dsl, clock, prepared, knownDictionaries, committedOnly);
    this.blobs = new Blobs(dsl, clock, prepared, codec, dictionaries);
    this.snapshots = new Snapshots(dsl, prepared);
    this.sharedChanges = new SharedChanges(prepared);
    this.fileChanges = new FileChanges(dsl, prepared, sharedChanges);
    this.rewinds = new RewindOperations(dsl, clock, prepared);
    this.indexes = new WorkspaceIndexes(dsl, prepared);
    this.directoryChanges = new DirectoryChanges(dsl, prepared);
    this.rewindDirectories = new RewindDirectories(dsl, prepared);
    this.indexDirectories = new IndexDirectories(dsl, prepared);
    this.retention = new Retention(dsl);
    this.settings = new StoreSettings(dsl, prepared);
    this.prompts = new Prompts(dsl, prepared, settings);
    this.hookSightings = new HookSightingRows(dsl);
    this.beforeLog = new BeforeLog(dsl, prepared);
  }

  /** The before-states snapshot calls appended, which the next other transaction folds. */
  public BeforeLog beforeLog() {
    return beforeLog;
  }

  public StoreSettings settings() {
    return settings;
  }

  /** The prompts that made turns, and whether this store keeps them. */
  public Prompts prompts() {
    return prompts;
  }

  /** What the hook calls showed of each runtime per directory, kept across restarts. */
  public HookSightingRows hookSightings() {
    return hookSightings;
  }

  public Retention retention() {
    return retention;
  }

  public Workspaces workspaces() {
    return workspaces;
  }

  public Sessions sessions() {
    return sessions;
  }

  public Turns turns() {
    return turns;
  }

  public ToolCalls toolCalls() {
    return toolCalls;
  }

  /** The workspaces' zstd dictionaries, which the blobs of their baselines are compressed with. */
  public ContentDictionaries dictionaries() {
    return dictionaries;
  }

  public Blobs blobs() {
    return blobs;
  }

  public Snapshots snapshots() {
    return snapshots;
  }

  public FileChanges fileChanges() {
    return fileChanges;
  }

  /** The other turns that could also have made a change several open turns could have made. */
  public SharedChanges sharedChanges() {
    return sharedChanges;
  }

  public RewindOperations rewinds() {
    return rewinds;
  }

  public WorkspaceIndexes indexes() {
    return indexes;
  }

  public DirectoryChanges directoryChanges() {
    return directoryChanges;
  }

  public RewindDirectories rewindDirectories() {
    return rewindDirectories;
  }

  public IndexDirectories indexDirectories() {
    return indexDirectories;
  }
}
