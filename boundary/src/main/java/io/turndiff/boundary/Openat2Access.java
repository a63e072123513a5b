package io.turndiff.boundary;

import static io.turndiff.boundary.LinuxAbi.AT_FDCWD;
import static io.turndiff.boundary.LinuxAbi.AT_REMOVEDIR;
import static io.turndiff.boundary.LinuxAbi.EACCES;
import static io.turndiff.boundary.LinuxAbi.EAGAIN;
import static io.turndiff.boundary.LinuxAbi.EEXIST;
import static io.turndiff.boundary.LinuxAbi.EINTR;
import static io.turndiff.boundary.LinuxAbi.ELOOP;
import static io.turndiff.boundary.LinuxAbi.ENOENT;
import static io.turndiff.boundary.LinuxAbi.ENOSYS;
import static io.turndiff.boundary.LinuxAbi.ENOTDIR;
import static io.turndiff.boundary.LinuxAbi.ENOTEMPTY;
import static io.turndiff.boundary.LinuxAbi.ENXIO;
import static io.turndiff.boundary.LinuxAbi.EPERM;
import static io.turndiff.boundary.LinuxAbi.EXDEV;
import static io.turndiff.boundary.LinuxAbi.O_CLOEXEC;
import static io.turndiff.boundary.LinuxAbi.O_CREAT;
import static io.turndiff.boundary.LinuxAbi.O_EXCL;
import static io.turndiff.boundary.LinuxAbi.O_NOCTTY;
import static io.turndiff.boundary.LinuxAbi.O_NONBLOCK;
import static io.turndiff.boundary.LinuxAbi.O_PATH;
import static io.turndiff.boundary.LinuxAbi.O_RDONLY;
import static io.turndiff.boundary.LinuxAbi.O_WRONLY;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_BENEATH;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_NO_MAGICLINKS;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_NO_SYMLINKS;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_NO_XDEV;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileType;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The kernel-enforced boundary: every name is resolved by {@code openat2} relative to the held root fd with
 * {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV}, so no symlink,
 * {@code ..}, magic link or mount can lead out of the workspace, whatever is swapped in while it runs. The
 * opened fd is checked by {@code fstat} before a byte is read; writes go to a fresh {@code O_EXCL} name in
 * a parent held open from the root, and are renamed over the target.
 */
final class Openat2Access implements FileAccess {

  private static final long BENEATH_NOTHING_FOLLOWED =
      RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  private static final int TRANSIENT_RETRIES = 16;
  private static final int CHUNK = 64 * 1024;
  private static final int TEMPORARY_NAME_ATTEMPTS = 16;

  private final Libc libc;
  private final int rootFd;
  private final StatInfo rootStat;
  private final BoundaryOptions options;
  private final int directoryFlags;
  private final RootInUse rootInUse = new RootInUse();

  private Openat2Access(Libc libc, int rootFd, StatInfo rootStat, BoundaryOptions options) {
    this.libc = libc;
    this.rootFd = rootFd;
    this.rootStat = rootStat;
    this.options = options;
    this.directoryFlags = O_RDONLY | libc.abi().oDirectory() | O_CLOEXEC;
  }

  /**
   * Opens the root directory (its real path, with {@code O_NOFOLLOW}: a swap between {@code realpath} and
   * the open is refused) and proves that {@code openat2} works here.
   *
   * @throws UnsupportedOperationException when there is no usable {@code openat2}; the caller falls back
   */
  static Openat2Access open(byte[] rootReal, BoundaryOptions options) throws BoundaryException {
    Libc libc = Libc.load();
    try (NativeCall call = libc.call()) {
      int fd = libc.openat(call, AT_FDCWD, rootReal,
          O_RDONLY | libc.abi().oDirectory() | libc.abi().oNoFollow() | O_CLOEXEC, 0);
      if (fd < 0) {
        throw new BoundaryException("cannot open the workspace root " + new String(rootReal, StandardCharsets.UTF_8)
            + ": " + libc.describe(-fd));
      }
      int probe = libc.openat2(call, fd, ".".getBytes(StandardCharsets.US_ASCII), O_PATH | O_CLOEXEC, 0,
          BENEATH_NOTHING_FOLLOWED);
      if (probe < 0) {
        libc.close(call, fd);
        if (-probe == ENOSYS || -probe == EPERM) {
          throw new UnsupportedOperationException("openat2 is not available: " + libc.describe(-probe));
        }
        throw new BoundaryException("cannot probe the workspace root: " + libc.describe(-probe));
      }
      libc.close(call, probe);
      StatResult stat = libc.fstat(call, fd);
      if (!stat.ok()) {
        libc.close(call, fd);
        throw new BoundaryException("cannot stat the workspace root: " + libc.describe(stat.errno()));
      }
      return new Openat2Access(libc, fd, stat.stat(), options);
    }
  }

  @Override
  public BoundaryKind kind() {
    return BoundaryKind.OPENAT2;
  }

  @Override
  public StatInfo rootStat() {
    return rootStat;
  }

  /** {@code openat2} relative to {@code dirfd}, retrying the transient {@code EAGAIN} and {@code EINTR}. */
  private int openBeneath(NativeCall call, int dirfd, byte[] path, int flags, long mode) {
    int fd = -EAGAIN;
    for (int attempt = 0; attempt < TRANSIENT_RETRIES; attempt++) {
      fd = libc.openat2(call, dirfd, path, flags, mode, BENEATH_NOTHING_FOLLOWED);
      if (fd != -EAGAIN && fd != -EINTR) {
        return fd;
      }
    }
    return fd;
  }

  private static byte[] parentBytes(WorkspacePath path) {
    List<byte[]> parent = path.parentComponents();
    return parent.isEmpty() ? ".".getBytes(StandardCharsets.US_ASCII)
        : WorkspacePath.ofComponents(parent).bytes();
  }

  /** An fd (O_PATH) for the parent of {@code path}, or a negative errno. */
  private int openParentPath(NativeCall call, WorkspacePath path) {
    return openBeneath(call, rootFd, parentBytes(path), O_PATH | libc.abi().oDirectory() | O_CLOEXEC, 0);
  }

  @Override
  public Lookup lstat(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int parent = openParentPath(call, path);
      if (parent < 0) {
        return lookupFailure(-parent);
      }
      try {
        StatResult result = libc.lstatAt(call, parent, path.name());
        if (!result.ok()) {
          return lookupFailure(result.errno());
        }
        if (result.stat().device() != rootStat.device()) {
          return new Lookup.OtherMount();
        }
        return new Lookup.Found(result.stat());
      } finally {
        libc.close(call, parent);
      }
    }
  }

  private Lookup lookupFailure(int errno) {
    return switch (errno) {
      case ENOENT, ENOTDIR -> new Lookup.Missing();
      case ELOOP -> new Lookup.LinkInPath();
      case EXDEV -> new Lookup.OtherMount();
      default -> new Lookup.Failed(libc.describe(errno));
    };
  }

  @Override
  public byte[] readLink(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int parent = openParentPath(call, path);
      if (parent < 0) {
        return null;
      }
      try {
        Libc.LinkText text = libc.readlinkat(call, parent, path.name());
        return text.ok() && text.bytes().length > 0 ? text.bytes() : null;
      } finally {
        libc.close(call, parent);
      }
    }
  }

  @Override
  public boolean leadsToDirectory(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int parent = openParentPath(call, path);
      if (parent < 0) {
        return false;
      }
      try {
        StatResult reached = libc.statFollowingAt(call, parent, path.name());
        return reached.ok() && reached.stat().type() == FileType.DIRECTORY;
      } finally {
        libc.close(call, parent);
      }
    }
  }

  @Override
  public ReadOutcome read(WorkspacePath path, long sizeLimit, int retries, OverLimit overLimit) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      Optional<StatInfo> lastSeen = Optional.empty();
      for (int attempt = 0; attempt <= retries; attempt++) {
        int fd = openBeneath(call, rootFd, path.bytes(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
        if (fd < 0) {
          return openFailure(path, -fd);
        }
        try {
          StatResult opened = libc.fstat(call, fd);
          if (!opened.ok()) {
            return new ReadOutcome.Failed("fstat: " + libc.describe(opened.errno()));
          }
          StatInfo stat = opened.stat();
          Optional<ReadOutcome> refusal = OpenedInode.refusal(stat, rootStat);
          if (refusal.isPresent()) {
            return refusal.get();
          }
          lastSeen = Optional.of(stat);
          ReadOutcome outcome = stat.size() <= sizeLimit ? readWhole(call, fd, stat) : switch (overLimit) {
            case OverLimit.Sample sample -> sample(call, fd, stat);
            case OverLimit.Hash hash -> hashStreaming(call, fd, stat, Optional.empty());
            case OverLimit.Capture capture -> capture(call, fd, stat, capture.sink());
          };
          if (outcome != null) {
            return outcome;
          }
        } finally {
          libc.close(call, fd);
        }
      }
      return new ReadOutcome.MetadataOnly(lastSeen, Reason.CHANGED_DURING_READ,
          "size or modification time moved while reading, " + (retries + 1) + " times");
    }
  }

  private ReadOutcome openFailure(WorkspacePath path, int errno) {
    return switch (errno) {
      case ENOENT, ENOTDIR -> new ReadOutcome.Missing();
      case ELOOP -> new ReadOutcome.LinkInPath();
      case EXDEV -> new ReadOutcome.MetadataOnly(Optional.empty(), Reason.ESCAPES_WORKSPACE,
          "the path crosses a mount point");
      case ENXIO -> {
        // a socket, or a device without a driver: opening it failed, lstat says what it is
        Lookup lookup = lstat(path);
        yield lookup instanceof Lookup.Found found
            ? new ReadOutcome.MetadataOnly(Optional.of(found.stat()), Reason.SPECIAL_FILE,
                OpenedInode.describe(found.stat().type()) + " is never read")
            : new ReadOutcome.Failed(libc.describe(errno));
      }
      default -> new ReadOutcome.Failed(libc.describe(errno));
    };
  }

  /** Reads a file of {@code stat.size()} bytes; null when it moved meanwhile (the caller retries). */
  private ReadOutcome readWhole(NativeCall call, int fd, StatInfo stat) {
    long capacity = stat.size() + 1;
    MemorySegment buffer = call.allocate(capacity);
    long total = 0;
    while (total < capacity) {
      long n = libc.read(call, fd, buffer.asSlice(total), Math.min(capacity - total, Integer.MAX_VALUE));
      if (n == -EINTR || n == -EAGAIN) {
        continue;
      }
      if (n < 0) {
        return new ReadOutcome.Failed("read: " + libc.describe((int) -n));
      }
      if (n == 0) {
        break;
      }
      total += n;
    }
    StatResult after = libc.fstat(call, fd);
    if (!after.ok() || total != stat.size() || !after.stat().unchangedSince(stat)) {
      return null;
    }
    byte[] bytes = buffer.asSlice(0, total).toArray(ValueLayout.JAVA_BYTE);
    return new ReadOutcome.Content(stat, bytes, Sha256.of(bytes));
  }

  /**
   * Hashes a file over the size limit in chunks from its first byte, reading at most one byte more than its
   * size, each chunk also to {@code chunks} when given; null when it moved meanwhile (the caller retries).
   */
  private ReadOutcome hashStreaming(NativeCall call, int fd, StatInfo stat, Optional<UploadBuffer> chunks) {
    MessageDigest digest = Sha256.newDigest();
    MemorySegment buffer = call.allocate(CHUNK);
    long total = 0;
    long bound = stat.size() + 1;
    while (total < bound) {
      long n = libc.pread(call, fd, buffer, Math.min(CHUNK, bound - total), total);
      if (n == -EINTR || n == -EAGAIN) {
        continue;
      }
      if (n < 0) {
        return new ReadOutcome.Failed("read: " + libc.describe((int) -n));
      }
      if (n == 0) {
        break;
      }
      digest.update(buffer.asSlice(0, n).asByteBuffer());
      chunks.ifPresent(upload -> upload.add(buffer.asSlice(0, n).asByteBuffer()));
      total += n;
    }
    StatResult after = libc.fstat(call, fd);
    if (!after.ok() || total != stat.size() || !after.stat().unchangedSince(stat)) {
      return null;
    }
    return new ReadOutcome.TooLarge(stat, Sha256.fromDigest(digest));
  }

  /** The sampled fingerprint of a file over the size limit; null when it moved meanwhile (the caller retries). */
  private ReadOutcome sample(NativeCall call, int fd, StatInfo stat) {
    SampledBlocks blocks = new SampledBlocks(stat.size());
    MemorySegment buffer = call.allocate(io.turndiff.model.Snapshot.SAMPLED_BLOCK_SIZE);
    for (int i = 0; i < io.turndiff.model.Snapshot.SAMPLED_BLOCKS; i++) {
      int length = blocks.length(i);
      long filled = 0;
      while (filled < length) {
        long n = libc.pread(call, fd, buffer.asSlice(filled), length - filled, blocks.offset(i) + filled);
        if (n == -EINTR || n == -EAGAIN) {
          continue;
        }
        if (n < 0) {
          return new ReadOutcome.Failed("read: " + libc.describe((int) -n));
        }
        if (n == 0) {
          return null;  // shorter than fstat said: it is being truncated
        }
        filled += n;
      }
      blocks.add(i, buffer.asSlice(0, length).asByteBuffer());
    }
    StatResult after = libc.fstat(call, fd);
    if (!after.ok() || !after.stat().unchangedSince(stat)) {
      return null;
    }
    return new ReadOutcome.Sampled(stat, blocks.sha256());
  }

  /**
   * Hashes a file over the size limit and, unless {@code sink} holds that content already, reads it again
   * from the same fd into the sink; null when it moved meanwhile (the caller retries).
   */
  private ReadOutcome capture(NativeCall call, int fd, StatInfo stat, ContentSink sink) {
    ReadOutcome hashed = hashStreaming(call, fd, stat, Optional.empty());
    if (!(hashed instanceof ReadOutcome.TooLarge large)) {
      return hashed;
    }
    if (sink.holds(large.sha256())) {
      return new ReadOutcome.Stored(stat, large.sha256());
    }
    Optional<ContentSink.Upload> begun = sink.begin();
    if (begun.isEmpty()) {
      return hashed;
    }
    boolean completed = false;
    try {
      UploadBuffer chunks = new UploadBuffer(begun.get());
      ReadOutcome again = hashStreaming(call, fd, stat, Optional.of(chunks));
      if (!(again instanceof ReadOutcome.TooLarge copied) || !copied.sha256().equals(large.sha256())) {
        return again instanceof ReadOutcome.Failed ? again : null;
      }
      chunks.flush();
      begun.get().complete(large.sha256(), stat.size());
      completed = true;
      return new ReadOutcome.Stored(stat, large.sha256());
    } finally {
      if (!completed) {
        begun.get().abandon();
      }
    }
  }

  // ---- write side -------------------------------------------------------------------------------------

  /**
   * Opens the parent directory of {@code path} for writing into, one component at a time from the root,
   * never following a link; missing directories are created relative to their held parent.
   */
  private ParentDirectory openParentForWrite(NativeCall call, WorkspacePath path) {
    int current = rootFd;
    StringBuilder walked = new StringBuilder();
    for (byte[] component : path.parentComponents()) {
      walked.append(walked.isEmpty() ? "" : "/").append(new String(component, StandardCharsets.UTF_8));
      int next = openBeneath(call, current, component, directoryFlags, 0);
      if (next == -ENOENT) {
        int made = libc.mkdirat(call, current, component, 0777);
        if (made < 0 && made != -EEXIST) {
          closeUnlessRoot(call, current);
          return ParentDirectory.refused("cannot create directory " + walked + ": " + libc.describe(-made));
        }
        next = openBeneath(call, current, component, directoryFlags, 0);
      }
      closeUnlessRoot(call, current);
      if (next < 0) {
        return ParentDirectory.refused(parentRefusal(walked.toString(), -next));
      }
      current = next;
    }
    return ParentDirectory.open(current);
  }

  private String parentRefusal(String parent, int errno) {
    return switch (errno) {
      case ELOOP -> "parent " + parent + " is a symlink; it is never followed";
      case ENOTDIR -> "parent " + parent + " is not a directory";
      case EXDEV -> "parent " + parent + " is on another mount";
      case EACCES, EPERM -> "parent " + parent + " cannot be opened: " + libc.describe(errno);
      default -> "parent " + parent + ": " + libc.describe(errno);
    };
  }

  private void closeUnlessRoot(NativeCall call, int fd) {
    if (fd != rootFd) {
      libc.close(call, fd);
    }
  }

  private record ParentDirectory(int fd, String refusal) {
    static ParentDirectory open(int fd) {
      return new ParentDirectory(fd, null);
    }

    static ParentDirectory refused(String why) {
      return new ParentDirectory(-1, why);
    }
  }

  @Override
  public WriteOutcome writeFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    return writeFile(path, bytes(content), mode, temporaryName);
  }

  /** Writes a new file's content to its fd: null when done, else what failed. */
  @FunctionalInterface
  private interface Content {
    String writeTo(NativeCall call, int fd);
  }

  private Content bytes(byte[] content) {
    return (call, fd) -> {
      MemorySegment buffer = call.allocate(Math.max(1, content.length));
      MemorySegment.copy(content, 0, buffer, ValueLayout.JAVA_BYTE, 0, content.length);
      return writeAll(call, fd, buffer, content.length);
    };
  }

  /** Content streamed from {@code in}, a chunk at a time (never held whole). */
  private Content streamed(java.io.InputStream in) {
    return (call, fd) -> {
      byte[] chunk = new byte[CHUNK];
      MemorySegment buffer = call.allocate(CHUNK);
      try (in) {
        for (int n = in.readNBytes(chunk, 0, CHUNK); n > 0; n = in.readNBytes(chunk, 0, CHUNK)) {
          MemorySegment.copy(chunk, 0, buffer, ValueLayout.JAVA_BYTE, 0, n);
          String failure = writeAll(call, fd, buffer, n);
          if (failure != null) {
            return failure;
          }
        }
        return null;
      } catch (java.io.IOException | RuntimeException e) {
        return "cannot read the content to write (" + e.getMessage() + ")";
      }
    };
  }

  private String writeAll(NativeCall call, int fd, MemorySegment buffer, long length) {
    long written = 0;
    while (written < length) {
      long n = libc.write(call, fd, buffer.asSlice(written), length - written);
      if (n == -EINTR || n == -EAGAIN) {
        continue;
      }
      if (n < 0) {
        return libc.describe((int) -n);
      }
      written += n;
    }
    return null;
  }

  @Override
  public WriteOutcome writeFile(WorkspacePath path, java.io.InputStream content, int mode,
                                Optional<String> temporaryName) {
    return writeFile(path, streamed(content), mode, temporaryName);
  }

  private WriteOutcome writeFile(WorkspacePath path, Content content, int mode, Optional<String> temporaryName) {
    return inParentForWrite(path, (call, dir) -> writeFileIn(call, dir, path, content, mode, temporaryName));
  }

  /** Does {@code work} in the parent of {@code path}, opened (and created) for writing from the root. */
  @SuppressWarnings("try")
  private WriteOutcome inParentForWrite(WorkspacePath path, java.util.function.BiFunction<NativeCall, Integer,
      WriteOutcome> work) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      ParentDirectory parent = openParentForWrite(call, path);
      if (parent.refusal() != null) {
        return new WriteOutcome.Refused(parent.refusal());
      }
      try {
        return work.apply(call, parent.fd());
      } finally {
        closeUnlessRoot(call, parent.fd());
      }
    }
  }

  private WriteOutcome writeFileIn(NativeCall call, int dir, WorkspacePath path, Content content, int mode,
                                   Optional<String> temporaryName) {
    WriteOutcome staged = createTemporary(call, dir, path, content, mode, temporaryName, true);
    if (!(staged instanceof WriteOutcome.Staged temporary)) {
      return staged;
    }
    return renameIntoPlace(call, dir, temporary.temporaryName().getBytes(StandardCharsets.UTF_8), path, true);
  }

  /** A new file under a fresh temporary name in {@code dir}: content, mode, and when asked, fsync. */
  private WriteOutcome createTemporary(NativeCall call, int dir, WorkspacePath path, Content content, int mode,
                                       Optional<String> temporaryName, boolean sync) {
    for (int attempt = 0; attempt < TEMPORARY_NAME_ATTEMPTS; attempt++) {
      byte[] temporary = temporaryName(temporaryName);
      int fd = libc.openat(call, dir, temporary,
          O_WRONLY | O_CREAT | O_EXCL | libc.abi().oNoFollow() | O_CLOEXEC | O_NOCTTY, 0600);
      if (fd == -EEXIST && temporaryName.isPresent()) {
        return new WriteOutcome.NameTaken(temporaryName.get());
      }
      if (fd == -EEXIST) {
        continue;
      }
      if (fd < 0) {
        return new WriteOutcome.Refused("cannot create a temporary file next to " + path + ": "
            + libc.describe(-fd));
      }
      String failure = fill(call, fd, content, mode, sync);
      libc.close(call, fd);
      if (failure != null) {
        libc.unlinkat(call, dir, temporary, 0);
        return new WriteOutcome.Refused(failure + " writing " + path);
      }
      return new WriteOutcome.Staged(path, new String(temporary, StandardCharsets.UTF_8));
    }
    return new WriteOutcome.Refused("every temporary name tried next to " + path + " was taken");
  }

  /** The caller's name (one it journaled, so that a crashed write is found by it), else a fresh random one. */
  private byte[] temporaryName(Optional<String> given) {
    return given.orElseGet(options::nextTemporaryName).getBytes(StandardCharsets.UTF_8);
  }

  private String fill(NativeCall call, int fd, Content content, int mode, boolean sync) {
    String failure = content.writeTo(call, fd);
    if (failure != null) {
      return failure;
    }
    int chmod = libc.fchmod(call, fd, mode & 07777);
    if (chmod < 0) {
      return libc.describe(-chmod);
    }
    if (!sync) {
      return null;
    }
    int synced = libc.fsync(call, fd);
    return synced < 0 ? libc.describe(-synced) : null;
  }

  private WriteOutcome renameIntoPlace(NativeCall call, int dir, byte[] temporary, WorkspacePath path,
                                       boolean sync) {
    int renamed = libc.renameat(call, dir, temporary, dir, path.name());
    if (renamed < 0) {
      libc.unlinkat(call, dir, temporary, 0);
      return new WriteOutcome.Refused("cannot rename into " + path + ": " + libc.describe(-renamed));
    }
    if (!sync) {
      return new WriteOutcome.Done();
    }
    int synced = libc.fsync(call, dir);
    if (synced < 0) {
      return new WriteOutcome.Refused("renamed " + path + " but cannot sync its directory: "
          + libc.describe(-synced));
    }
    return new WriteOutcome.Done();
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome writeSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      ParentDirectory parent = openParentForWrite(call, path);
      if (parent.refusal() != null) {
        return new WriteOutcome.Refused(parent.refusal());
      }
      try {
        WriteOutcome staged = symlinkTemporary(call, parent.fd(), path, target, temporaryName);
        if (!(staged instanceof WriteOutcome.Staged temporary)) {
          return staged;
        }
        return renameIntoPlace(call, parent.fd(), temporary.temporaryName().getBytes(StandardCharsets.UTF_8), path,
            true);
      } finally {
        closeUnlessRoot(call, parent.fd());
      }
    }
  }

  private WriteOutcome symlinkTemporary(NativeCall call, int dir, WorkspacePath path, byte[] target,
                                        Optional<String> temporaryName) {
    for (int attempt = 0; attempt < TEMPORARY_NAME_ATTEMPTS; attempt++) {
      byte[] temporary = temporaryName(temporaryName);
      int made = libc.symlinkat(call, target, dir, temporary);
      if (made == -EEXIST && temporaryName.isPresent()) {
        return new WriteOutcome.NameTaken(temporaryName.get());
      }
      if (made == -EEXIST) {
        continue;
      }
      if (made < 0) {
        return new WriteOutcome.Refused("cannot create a symlink next to " + path + ": " + libc.describe(-made));
      }
      return new WriteOutcome.Staged(path, new String(temporary, StandardCharsets.UTF_8));
    }
    return new WriteOutcome.Refused("every temporary name tried next to " + path + " was taken");
  }

  @Override
  public WriteOutcome stageFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    return stageFile(path, bytes(content), mode, temporaryName);
  }

  @Override
  public WriteOutcome stageFile(WorkspacePath path, java.io.InputStream content, int mode,
                                Optional<String> temporaryName) {
    return stageFile(path, streamed(content), mode, temporaryName);
  }

  private WriteOutcome stageFile(WorkspacePath path, Content content, int mode, Optional<String> temporaryName) {
    return inParentForWrite(path, (call, dir) -> createTemporary(call, dir, path, content, mode, temporaryName,
        false));
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome stageSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      ParentDirectory parent = openParentForWrite(call, path);
      if (parent.refusal() != null) {
        return new WriteOutcome.Refused(parent.refusal());
      }
      try {
        return symlinkTemporary(call, parent.fd(), path, target, temporaryName);
      } finally {
        closeUnlessRoot(call, parent.fd());
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome commit(WriteOutcome.Staged staged) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      WorkspacePath path = staged.path();
      int parent = openBeneath(call, rootFd, parentBytes(path), directoryFlags, 0);
      if (parent < 0) {
        return new WriteOutcome.Refused(parentRefusal(new String(parentBytes(path), StandardCharsets.UTF_8), -parent));
      }
      try {
        return renameIntoPlace(call, parent, staged.temporaryName().getBytes(StandardCharsets.UTF_8), path, false);
      } finally {
        closeUnlessRoot(call, parent);
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public void discard(WriteOutcome.Staged staged) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int parent = openBeneath(call, rootFd, parentBytes(staged.path()), directoryFlags, 0);
      if (parent >= 0) {
        libc.unlinkat(call, parent, staged.temporaryName().getBytes(StandardCharsets.UTF_8), 0);
        closeUnlessRoot(call, parent);
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryListing list(Optional<WorkspacePath> directory) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      byte[] name = directory.map(WorkspacePath::bytes).orElse(".".getBytes(StandardCharsets.US_ASCII));
      int fd = openBeneath(call, rootFd, name, directoryFlags, 0);
      if (fd < 0) {
        return new DirectoryListing.NotListed(lookupFailure(-fd));
      }
      List<Libc.DirectoryEntry> entries = libc.list(call, fd);
      if (entries == null) {
        return new DirectoryListing.NotListed(new Lookup.Failed("cannot list the directory"));
      }
      List<DirectoryListing.Entry> listed = new java.util.ArrayList<>(entries.size());
      for (Libc.DirectoryEntry entry : entries) {
        listed.add(new DirectoryListing.Entry(entry.name(), entry.stat().ok() ? entry.stat().stat() : null,
            entry.linkText()));
      }
      return new DirectoryListing.Listed(listed);
    }
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome syncAll() {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int synced = libc.syncfs(call, rootFd);
      return synced < 0 ? new WriteOutcome.Refused("cannot sync the workspace's file system: "
          + libc.describe(-synced)) : new WriteOutcome.Done();
    }
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryOutcome makeDirectory(WorkspacePath path, OptionalInt mode) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      ParentDirectory parent = openParentForWrite(call, path);
      if (parent.refusal() != null) {
        return new DirectoryOutcome.Refused(parent.refusal());
      }
      try {
        int made = libc.mkdirat(call, parent.fd(), path.name(), mode.orElse(0777));
        if (made == -EEXIST) {
          StatResult there = libc.lstatAt(call, parent.fd(), path.name());
          return there.ok() && there.stat().type() == io.turndiff.model.FileType.DIRECTORY
              ? new DirectoryOutcome.AlreadySo()
              : new DirectoryOutcome.Refused("something other than a directory is at " + path);
        }
        if (made < 0) {
          return new DirectoryOutcome.Refused("cannot create directory " + path + ": " + libc.describe(-made));
        }
        if (mode.isPresent()) {
          // mkdir applied the umask: set exactly the recorded bits, on the directory just made, nothing followed
          int fd = openBeneath(call, parent.fd(), path.name(), directoryFlags, 0);
          if (fd < 0) {
            return new DirectoryOutcome.Refused("created " + path + " but cannot open it to set its mode: "
                + libc.describe(-fd));
          }
          int chmod = libc.fchmod(call, fd, mode.getAsInt() & 07777);
          libc.close(call, fd);
          if (chmod < 0) {
            return new DirectoryOutcome.Refused("created " + path + " but cannot set its mode: "
                + libc.describe(-chmod));
          }
        }
        return new DirectoryOutcome.Done();
      } finally {
        closeUnlessRoot(call, parent.fd());
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryOutcome removeDirectory(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int parent = openBeneath(call, rootFd, parentBytes(path), directoryFlags, 0);
      if (parent == -ENOENT || parent == -ENOTDIR) {
        return new DirectoryOutcome.AlreadySo();
      }
      if (parent < 0) {
        return new DirectoryOutcome.Refused(parentRefusal(new String(parentBytes(path), StandardCharsets.UTF_8),
            -parent));
      }
      try {
        int removed = libc.unlinkat(call, parent, path.name(), AT_REMOVEDIR);
        return switch (removed < 0 ? -removed : 0) {
          case 0 -> new DirectoryOutcome.Done();
          case ENOENT -> new DirectoryOutcome.AlreadySo();
          case ENOTEMPTY, EEXIST -> new DirectoryOutcome.NotEmpty();
          case ENOTDIR -> new DirectoryOutcome.Refused("something other than a directory is at " + path);
          default -> new DirectoryOutcome.Refused("cannot remove directory " + path + ": " + libc.describe(-removed));
        };
      } finally {
        closeUnlessRoot(call, parent);
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryOutcome changeDirectoryMode(WorkspacePath path, int from, int to) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      // the directory itself, nothing followed in any component (O_DIRECTORY: a FIFO swapped in is not opened)
      int fd = openBeneath(call, rootFd, path.bytes(), directoryFlags, 0);
      if (fd < 0) {
        return new DirectoryOutcome.Refused(switch (-fd) {
          case ENOENT -> path + " is no longer there";
          case ENOTDIR -> "something other than a directory is at " + path + ", or a parent is not a directory";
          case ELOOP -> path + " or a parent of it is a symlink; it is never followed";
          case EXDEV -> path + " is on another mount";
          default -> "cannot open directory " + path + ": " + libc.describe(-fd);
        });
      }
      try {
        StatResult now = libc.fstat(call, fd);
        if (!now.ok()) {
          return new DirectoryOutcome.Refused("cannot stat directory " + path);
        }
        int bits = now.stat().mode() & 07777;
        if (bits == (to & 07777)) {
          return new DirectoryOutcome.AlreadySo();
        }
        if (bits != (from & 07777)) {
          return new DirectoryOutcome.Changed(bits);
        }
        int chmod = libc.fchmod(call, fd, to & 07777);
        return chmod < 0 ? new DirectoryOutcome.Refused("cannot set the mode of " + path + ": "
            + libc.describe(-chmod)) : new DirectoryOutcome.Done();
      } finally {
        libc.close(call, fd);
      }
    }
  }

  @Override
  public WriteOutcome delete(WorkspacePath path) {
    return delete(path, true);
  }

  @Override
  public WriteOutcome deleteUnsynced(WorkspacePath path) {
    return delete(path, false);
  }

  @SuppressWarnings("try")
  private WriteOutcome delete(WorkspacePath path, boolean sync) {
    try (RootInUse inUse = rootInUse.acquire(); NativeCall call = libc.call()) {
      int parent = openBeneath(call, rootFd, parentBytes(path), directoryFlags, 0);
      if (parent == -ENOENT) {
        return new WriteOutcome.Done();
      }
      if (parent < 0) {
        return new WriteOutcome.Refused(parentRefusal(new String(parentBytes(path), StandardCharsets.UTF_8),
            -parent));
      }
      try {
        int removed = libc.unlinkat(call, parent, path.name(), 0);
        if (removed < 0 && removed != -ENOENT) {
          return new WriteOutcome.Refused("cannot remove " + path + ": " + libc.describe(-removed));
        }
        if (!sync) {
          return new WriteOutcome.Done();
        }
        int synced = libc.fsync(call, parent);
        return synced < 0
            ? new WriteOutcome.Refused("removed " + path + " but cannot sync its directory: " + libc.describe(-synced))
            : new WriteOutcome.Done();
      } finally {
        closeUnlessRoot(call, parent);
      }
    }
  }

  @Override
  public void close() {
    if (rootInUse.closeOnce()) {
      try (NativeCall call = libc.call()) {
        libc.close(call, rootFd);
      }
    }
  }
}
