package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The fallback boundary where {@code openat2} is unavailable (old kernel, seccomp, native access denied):
 * the JDK's {@link SecureDirectoryStream}, walked one validated component at a time with
 * {@code NOFOLLOW_LINKS}, so that a symlinked component is refused rather than followed.
 *
 * <p>It is weaker than {@link Openat2Access}, and says so in every record it produces:
 * <ul>
 *   <li>it cannot {@code fstat} an opened channel, so the inode is checked by name before and after the
 *       read (an inode swapped in and back between the checks could be read);
 *   <li>it cannot open without blocking, so an open runs on a helper thread with a deadline (a FIFO swapped
 *       in after the type check leaves that thread blocked, not the capture);
 *   <li>it cannot see {@code nlink} through the stream, so the link count comes from a by-name stat whose
 *       inode must match the stream's;
 *   <li>it cannot create directories or symlinks relative to a held directory: they are created at the
 *       root's path, verified through the held root, and moved into place (a symlink's temporary name is
 *       checked free beside its target first, but a name made there between the check and the move is
 *       replaced);
 *   <li>names must be representable in the JVM's file name encoding ({@code sun.jnu.encoding}).
 * </ul>
 */
final class DirectoryStreamAccess implements FileAccess {

  private static final long OPEN_DEADLINE_MILLIS = 2_000;
  private static final ExecutorService OPENER = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "turndiff-fallback-open");
    thread.setDaemon(true);
    return thread;
  });

  private final Path rootReal;
  private final SecureDirectoryStream<Path> root;
  private final StatInfo rootStat;
  private final BoundaryOptions options;
  private final Charset nameEncoding;
  private final MountPoints mountPoints;
  private final RootInUse rootInUse = new RootInUse();

  private DirectoryStreamAccess(Path rootReal, SecureDirectoryStream<Path> root, StatInfo rootStat,
                                BoundaryOptions options) {
    this.rootReal = rootReal;
    this.root = root;
    this.rootStat = rootStat;
    this.options = options;
    this.nameEncoding = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    this.mountPoints = MountPoints.under(rootReal);
  }

  static DirectoryStreamAccess open(Path rootReal, BoundaryOptions options) throws BoundaryException {
    DirectoryStream<Path> stream;
    try {
      stream = Files.newDirectoryStream(rootReal);
    } catch (IOException e) {
      throw new BoundaryException("cannot open the workspace root " + rootReal + ": " + e.getMessage());
    }
    if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
      closeQuietly(stream);
      throw new UnsupportedOperationException("this platform has no SecureDirectoryStream");
    }
    try {
      Object heldKey = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
      Map<String, Object> byName = Files.readAttributes(rootReal, "unix:*", NOFOLLOW_LINKS);
      StatInfo stat = statOf(byName);
      if (!String.valueOf(heldKey).equals(fileKeyOf(stat))) {
        closeQuietly(secure);
        throw new BoundaryException("the workspace root " + rootReal + " was replaced while it was opened");
      }
      return new DirectoryStreamAccess(rootReal, secure, stat, options);
    } catch (IOException e) {
      closeQuietly(secure);
      throw new BoundaryException("cannot stat the workspace root " + rootReal + ": " + e.getMessage());
    }
  }

  @Override
  public BoundaryKind kind() {
    return BoundaryKind.SECURE_DIRECTORY_STREAM;
  }

  @Override
  public StatInfo rootStat() {
    return rootStat;
  }

  /** A component as a JDK path, or empty when its bytes cannot be represented in the name encoding. */
  private Optional<Path> name(byte[] component) {
    String text = new String(component, nameEncoding);
    if (!Arrays.equals(text.getBytes(nameEncoding), component)) {
      return Optional.empty();
    }
    return Optional.of(rootReal.getFileSystem().getPath(text));
  }

  private Path absolute(WorkspacePath path) {
    Path result = rootReal;
    for (byte[] component : path.components()) {
      result = result.resolve(new String(component, nameEncoding));
    }
    return result;
  }

  private static StatInfo statOf(Map<String, Object> unix) {
    long mtimeNanos = ((java.nio.file.attribute.FileTime) unix.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
    long ctimeNanos = ((java.nio.file.attribute.FileTime) unix.get("ctime")).to(TimeUnit.NANOSECONDS);
    return new StatInfo((Integer) unix.get("mode"), ((Number) unix.get("nlink")).longValue(),
        ((Number) unix.get("ino")).longValue(), ((Number) unix.get("size")).longValue(), mtimeNanos, ctimeNanos,
        ((Number) unix.get("dev")).longValue());
  }

  /** The JDK's file key for an inode, as {@code UnixFileKey.toString()} spells it. */
  private static String fileKeyOf(StatInfo stat) {
    return "(dev=" + Long.toHexString(stat.device()) + ",ino=" + stat.inode() + ")";
  }

  /** The parent directory stream of a path, walked from the root without following links. */
  private sealed interface Walk {
    record Reached(SecureDirectoryStream<Path> directory) implements Walk {
    }

    record Stopped(Lookup why) implements Walk {
    }
  }

  private Walk walkParents(WorkspacePath path) {
    SecureDirectoryStream<Path> current = root;
    List<byte[]> walked = new ArrayList<>();
    for (byte[] component : path.parentComponents()) {
      Optional<Path> name = name(component);
      if (name.isEmpty()) {
        closeUnlessRoot(current);
        return new Walk.Stopped(new Lookup.Failed("a name is not representable in " + nameEncoding));
      }
      walked.add(component);
      if (mountPoints.isMountPoint(absolute(WorkspacePath.ofComponents(walked)))) {
        closeUnlessRoot(current);
        return new Walk.Stopped(new Lookup.OtherMount());
      }
      SecureDirectoryStream<Path> next;
      try {
        next = current.newDirectoryStream(name.get(), NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        closeUnlessRoot(current);
        return new Walk.Stopped(new Lookup.Missing());
      } catch (IOException e) {
        Lookup why = classifyRefusedDirectory(current, name.get(), e);
        closeUnlessRoot(current);
        return new Walk.Stopped(why);
      }
      closeUnlessRoot(current);
      current = next;
      try {
        Object key = current.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
        if (!String.valueOf(key).startsWith("(dev=" + Long.toHexString(rootStat.device()) + ",")) {
          closeUnlessRoot(current);
          return new Walk.Stopped(new Lookup.OtherMount());
        }
      } catch (IOException e) {
        closeUnlessRoot(current);
        return new Walk.Stopped(new Lookup.Failed(e.getMessage()));
      }
    }
    return new Walk.Reached(current);
  }

  private static Lookup classifyRefusedDirectory(SecureDirectoryStream<Path> parent, Path name, IOException e) {
    try {
      BasicFileAttributes attributes = parent.getFileAttributeView(name, BasicFileAttributeView.class,
          NOFOLLOW_LINKS).readAttributes();
      if (attributes.isSymbolicLink()) {
        return new Lookup.LinkInPath();
      }
      if (!attributes.isDirectory()) {
        return new Lookup.Missing();
      }
    } catch (NoSuchFileException gone) {
      return new Lookup.Missing();
    } catch (IOException ignored) {
      // fall through to the original failure
    }
    return new Lookup.Failed(e instanceof FileSystemException fse && fse.getReason() != null
        ? fse.getReason() : e.getMessage());
  }

  private void closeUnlessRoot(SecureDirectoryStream<Path> stream) {
    if (stream != root) {
      closeQuietly(stream);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // nothing was written through it
    }
  }

  /** The inode a name in {@code directory} refers to, checked against a by-name stat of the same inode. */
  private Lookup statIn(SecureDirectoryStream<Path> directory, Path name, WorkspacePath path) {
    try {
      PosixFileAttributeView view = directory.getFileAttributeView(name, PosixFileAttributeView.class,
          NOFOLLOW_LINKS);
      Object heldKey = view.readAttributes().fileKey();
      StatInfo stat = statOf(Files.readAttributes(absolute(path), "unix:*", NOFOLLOW_LINKS));
      if (!String.valueOf(heldKey).equals(fileKeyOf(stat))) {
        return new Lookup.Failed("the name was replaced while it was looked at");
      }
      return new Lookup.Found(stat);
    } catch (NoSuchFileException e) {
      return new Lookup.Missing();
    } catch (IOException e) {
      return new Lookup.Failed(e.getMessage());
    }
  }

  @Override
  @SuppressWarnings("try")
  public Lookup lstat(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      if (name.isEmpty()) {
        return new Lookup.Failed("the name is not representable in " + nameEncoding);
      }
      Walk walk = walkParents(path);
      if (walk instanceof Walk.Stopped stopped) {
        return stopped.why();
      }
      SecureDirectoryStream<Path> directory = ((Walk.Reached) walk).directory();
      try {
        Lookup found = statIn(directory, name.get(), path);
        if (found instanceof Lookup.Found f
            && (f.stat().device() != rootStat.device() || mountPoints.isMountPoint(absolute(path)))) {
          return new Lookup.OtherMount();
        }
        return found;
      } finally {
        closeUnlessRoot(directory);
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public boolean leadsToDirectory(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      if (name.isEmpty() || !(walkParents(path) instanceof Walk.Reached reached)) {
        return false;
      }
      try {
        // without NOFOLLOW_LINKS the JDK's view is fstatat(parent, name, 0): the kernel follows the link
        return reached.directory().getFileAttributeView(name.get(), BasicFileAttributeView.class).readAttributes()
            .isDirectory();
      } catch (IOException e) {
        return false;
      } finally {
        closeUnlessRoot(reached.directory());
      }
    }
  }

  @Override
  public byte[] readLink(WorkspacePath path) {
    // The JDK reads link text only by path; the text is metadata, and the link's identity is checked first.
    Lookup lookup = lstat(path);
    if (!(lookup instanceof Lookup.Found found) || found.stat().type() != io.turndiff.model.FileType.SYMLINK) {
      return null;
    }
    try {
      Path target = Files.readSymbolicLink(absolute(path));
      Lookup again = lstat(path);
      if (!(again instanceof Lookup.Found same) || same.stat().inode() != found.stat().inode()) {
        return null;
      }
      byte[] bytes = target.toString().getBytes(nameEncoding);
      return bytes.length == 0 ? null : bytes;
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  @SuppressWarnings("try")
  public ReadOutcome read(WorkspacePath path, long sizeLimit, int retries, OverLimit overLimit) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      if (name.isEmpty()) {
        return new ReadOutcome.Failed("the name is not representable in " + nameEncoding);
      }
      Optional<StatInfo> lastSeen = Optional.empty();
      for (int attempt = 0; attempt <= retries; attempt++) {
        Walk walk = walkParents(path);
        if (walk instanceof Walk.Stopped stopped) {
          return fromLookup(stopped.why());
        }
        SecureDirectoryStream<Path> directory = ((Walk.Reached) walk).directory();
        try {
          Lookup before = statIn(directory, name.get(), path);
          if (!(before instanceof Lookup.Found found)) {
            return fromLookup(before);
          }
          StatInfo stat = found.stat();
          if (stat.type() == io.turndiff.model.FileType.SYMLINK) {
            return new ReadOutcome.LinkInPath();
          }
          Optional<ReadOutcome> refusal = OpenedInode.refusal(stat, rootStat);
          if (refusal.isPresent()) {
            return refusal.get();
          }
          lastSeen = Optional.of(stat);
          ReadOutcome outcome = readChecked(directory, name.get(), path, stat, sizeLimit, overLimit);
          if (outcome != null) {
            return outcome;
          }
        } finally {
          closeUnlessRoot(directory);
        }
      }
      return new ReadOutcome.MetadataOnly(lastSeen, Reason.CHANGED_DURING_READ,
          "size, modification time or inode moved while reading, " + (retries + 1) + " times");
    }
  }

  private static ReadOutcome fromLookup(Lookup lookup) {
    return switch (lookup) {
      case Lookup.Missing missing -> new ReadOutcome.Missing();
      case Lookup.LinkInPath link -> new ReadOutcome.LinkInPath();
      case Lookup.OtherMount mount -> new ReadOutcome.MetadataOnly(Optional.empty(), Reason.ESCAPES_WORKSPACE,
          "the path crosses a mount point");
      case Lookup.Failed failed -> new ReadOutcome.Failed(failed.detail());
      case Lookup.Found found -> throw new IllegalArgumentException("found is not a failure");
    };
  }

  /** Opens with a deadline, reads, and checks the inode again; null when it moved (the caller retries). */
  private ReadOutcome readChecked(SecureDirectoryStream<Path> directory, Path name, WorkspacePath path,
                                  StatInfo stat, long sizeLimit, OverLimit overLimit) {
    // The open runs on its own stream of the same directory: if it blocks (a FIFO swapped in), the thread and
    // that stream are abandoned, and nothing this boundary holds (the root stream's lock) is pinned by them.
    SecureDirectoryStream<Path> opener;
    try {
      opener = directory.newDirectoryStream(rootReal.getFileSystem().getPath("."), NOFOLLOW_LINKS);
    } catch (IOException e) {
      return new ReadOutcome.Failed("cannot reopen the parent directory: " + e.getMessage());
    }
    Future<SeekableByteChannel> opening = OPENER.submit(() -> {
      try {
        return opener.newByteChannel(name, Set.of(StandardOpenOption.READ, NOFOLLOW_LINKS));
      } finally {
        closeQuietly(opener);
      }
    });
    SeekableByteChannel channel;
    try {
      channel = opening.get(OPEN_DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      opening.cancel(true);
      return new ReadOutcome.MetadataOnly(Optional.of(stat), Reason.SPECIAL_FILE,
          "the open did not return: a FIFO or device was swapped in after the type check");
    } catch (ExecutionException e) {
      return e.getCause() instanceof NoSuchFileException ? null
          : new ReadOutcome.Failed(String.valueOf(e.getCause().getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ReadOutcome.Failed("interrupted");
    }
    Optional<ContentSink.Upload> upload = Optional.empty();
    boolean completed = false;
    try (channel) {
      ReadOutcome outcome;
      if (stat.size() <= sizeLimit) {
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(stat.size() + 1));
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
          // read until full or end of file
        }
        if (buffer.position() != stat.size()) {
          return null;
        }
        byte[] bytes = Arrays.copyOf(buffer.array(), buffer.position());
        outcome = new ReadOutcome.Content(stat, bytes, Sha256.of(bytes));
      } else if (overLimit instanceof OverLimit.Sample) {
        outcome = sample(channel, stat);
      } else {
        Sha256 sha256 = hashAll(channel, stat, Optional.empty());
        if (sha256 == null) {
          return null;
        }
        outcome = new ReadOutcome.TooLarge(stat, sha256);
        if (overLimit instanceof OverLimit.Capture capture) {
          if (capture.sink().holds(sha256)) {
            outcome = new ReadOutcome.Stored(stat, sha256);
          } else {
            upload = capture.sink().begin();
            if (upload.isPresent()) {
              channel.position(0);
              UploadBuffer chunks = new UploadBuffer(upload.get());
              if (!sha256.equals(hashAll(channel, stat, Optional.of(chunks)))) {
                return null;
              }
              chunks.flush();
              outcome = new ReadOutcome.Stored(stat, sha256);
            }
          }
        }
      }
      if (outcome == null) {
        return null;
      }
      Lookup after = statIn(directory, name, path);
      if (!(after instanceof Lookup.Found again) || !again.stat().unchangedSince(stat)) {
        return null;
      }
      if (upload.isPresent()) {
        upload.get().complete(((ReadOutcome.Stored) outcome).sha256(), stat.size());
        completed = true;
      }
      return outcome;
    } catch (IOException e) {
      return new ReadOutcome.Failed(e.getMessage());
    } finally {
      if (upload.isPresent() && !completed) {
        upload.get().abandon();
      }
    }
  }

  /** The SHA-256 of all {@code stat.size()} bytes from the channel's position, each also to {@code chunks}. */
  private static Sha256 hashAll(SeekableByteChannel channel, StatInfo stat, Optional<UploadBuffer> chunks)
      throws IOException {
    MessageDigest digest = Sha256.newDigest();
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    long total = 0;
    while (total <= stat.size()) {
      buffer.clear();
      int n = channel.read(buffer);
      if (n < 0) {
        break;
      }
      buffer.flip();
      digest.update(buffer.duplicate());
      chunks.ifPresent(upload -> upload.add(buffer));
      total += n;
    }
    return total == stat.size() ? Sha256.fromDigest(digest) : null;
  }

  /** The sampled fingerprint ({@link SampledBlocks}); null when the file is shorter than its stat said. */
  private static ReadOutcome sample(SeekableByteChannel channel, StatInfo stat) throws IOException {
    SampledBlocks blocks = new SampledBlocks(stat.size());
    for (int i = 0; i < io.turndiff.model.Snapshot.SAMPLED_BLOCKS; i++) {
      ByteBuffer block = ByteBuffer.allocate(blocks.length(i));
      channel.position(blocks.offset(i));
      while (block.hasRemaining()) {
        if (channel.read(block) < 0) {
          return null;
        }
      }
      blocks.add(i, block.flip());
    }
    return new ReadOutcome.Sampled(stat, blocks.sha256());
  }

  // ---- write side -------------------------------------------------------------------------------------

  private record WritableParent(SecureDirectoryStream<Path> directory, String refusal) {
  }

  private WritableParent parentForWrite(WorkspacePath path) {
    SecureDirectoryStream<Path> current = root;
    List<String> walked = new ArrayList<>();
    for (byte[] component : path.parentComponents()) {
      Optional<Path> name = name(component);
      walked.add(new String(component, nameEncoding));
      String shown = String.join("/", walked);
      if (name.isEmpty()) {
        closeUnlessRoot(current);
        return new WritableParent(null, "parent " + shown + " is not representable in " + nameEncoding);
      }
      SecureDirectoryStream<Path> next;
      try {
        next = current.newDirectoryStream(name.get(), NOFOLLOW_LINKS);
      } catch (NoSuchFileException missing) {
        String made = createDirectoryIn(current, name.get());
        if (made != null) {
          closeUnlessRoot(current);
          return new WritableParent(null, "cannot create directory " + shown + ": " + made);
        }
        try {
          next = current.newDirectoryStream(name.get(), NOFOLLOW_LINKS);
        } catch (IOException e) {
          Lookup why = classifyRefusedDirectory(current, name.get(), e);
          closeUnlessRoot(current);
          return new WritableParent(null, refusalOf(shown, why));
        }
      } catch (IOException e) {
        Lookup why = classifyRefusedDirectory(current, name.get(), e);
        closeUnlessRoot(current);
        return new WritableParent(null, refusalOf(shown, why));
      }
      closeUnlessRoot(current);
      current = next;
    }
    return new WritableParent(current, null);
  }

  private static String refusalOf(String parent, Lookup why) {
    return switch (why) {
      case Lookup.LinkInPath link -> "parent " + parent + " is a symlink; it is never followed";
      case Lookup.Missing missing -> "parent " + parent + " is not a directory";
      case Lookup.OtherMount mount -> "parent " + parent + " is on another mount";
      case Lookup.Failed failed -> "parent " + parent + ": " + failed.detail();
      case Lookup.Found found -> "parent " + parent + " cannot be opened";
    };
  }

  /**
   * Creates a directory named {@code name} in {@code parent}: made at the root's path under a fresh name,
   * proven to be the one the held root sees, then moved into the held parent.
   */
  private String createDirectoryIn(SecureDirectoryStream<Path> parent, Path name) {
    Path temporary = rootReal.getFileSystem().getPath(options.nextTemporaryName());
    Path made = rootReal.resolve(temporary);
    try {
      Files.createDirectory(made);
    } catch (IOException e) {
      return e.getMessage();
    }
    return adoptFromRoot(made, temporary, parent, name);
  }

  /** Moves {@code temporary}, just created at the root's path, into place if the held root really has it. */
  private String adoptFromRoot(Path made, Path temporary, SecureDirectoryStream<Path> parent, Path name) {
    try {
      Object held = root.getFileAttributeView(temporary, BasicFileAttributeView.class, NOFOLLOW_LINKS)
          .readAttributes().fileKey();
      Object created = Files.readAttributes(made, BasicFileAttributes.class, NOFOLLOW_LINKS).fileKey();
      if (!held.equals(created)) {
        deleteQuietly(made);
        return "the workspace root's path no longer leads to the workspace";
      }
      root.move(temporary, parent, name);
      return null;
    } catch (IOException e) {
      deleteQuietly(made);
      return e.getMessage();
    }
  }

  private static void deleteQuietly(Path made) {
    try {
      Files.deleteIfExists(made);
    } catch (IOException ignored) {
      // it was created a moment ago by this process and holds nothing
    }
  }

  @Override
  public WriteOutcome writeFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    return writeFile(path, new java.io.ByteArrayInputStream(content), mode, temporaryName);
  }

  @Override
  public WriteOutcome writeFile(WorkspacePath path, java.io.InputStream content, int mode,
                                Optional<String> temporaryName) {
    WriteOutcome staged = stageFile(path, content, mode, temporaryName);
    return staged instanceof WriteOutcome.Staged temporary ? commit(temporary) : staged;
  }

  @Override
  public WriteOutcome stageFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName) {
    return stageFile(path, new java.io.ByteArrayInputStream(content), mode, temporaryName);
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome stageFile(WorkspacePath path, java.io.InputStream content, int mode,
                                Optional<String> temporaryName) {
    try (RootInUse inUse = rootInUse.acquire()) {
      if (name(path.name()).isEmpty()) {
        return new WriteOutcome.Refused(path + " is not representable in " + nameEncoding);
      }
      WritableParent parent = parentForWrite(path);
      if (parent.refusal() != null) {
        return new WriteOutcome.Refused(parent.refusal());
      }
      try {
        for (int attempt = 0; attempt < 16; attempt++) {
          Path temporary = rootReal.getFileSystem().getPath(temporaryName.orElseGet(options::nextTemporaryName));
          Set<OpenOption> create = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, NOFOLLOW_LINKS);
          SeekableByteChannel channel;
          try {
            channel = parent.directory().newByteChannel(temporary, create,
                PosixFilePermissions.asFileAttribute(EnumSet.of(PosixFilePermission.OWNER_READ,
                    PosixFilePermission.OWNER_WRITE)));
          } catch (java.nio.file.FileAlreadyExistsException taken) {
            if (temporaryName.isPresent()) {
              return new WriteOutcome.NameTaken(temporaryName.get());
            }
            continue;
          }
          try (channel; content) {
            content.transferTo(java.nio.channels.Channels.newOutputStream(channel));
            // the fallback cannot sync the file system through a held stream: each file is synced here
            if (channel instanceof FileChannel file) {
              file.force(true);
            }
            parent.directory().getFileAttributeView(temporary, PosixFileAttributeView.class, NOFOLLOW_LINKS)
                .setPermissions(permissions(mode));
          } catch (IOException | RuntimeException e) {
            // a content streamed from the store can fail as it is read: the temporary file is removed either way
            quietlyDelete(parent.directory(), temporary);
            return new WriteOutcome.Refused("cannot write " + path + ": " + e.getMessage());
          }
          return new WriteOutcome.Staged(path, temporary.toString());
        }
        return new WriteOutcome.Refused("every temporary name tried next to " + path + " was taken");
      } catch (IOException e) {
        return new WriteOutcome.Refused("cannot create a temporary file next to " + path + ": " + e.getMessage());
      } finally {
        closeUnlessRoot(parent.directory());
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome commit(WriteOutcome.Staged staged) {
    try (RootInUse inUse = rootInUse.acquire()) {
      WorkspacePath path = staged.path();
      Optional<Path> name = name(path.name());
      Walk walk = walkParents(path);
      if (walk instanceof Walk.Stopped stopped) {
        return new WriteOutcome.Refused(refusalOf(path.display(), stopped.why()));
      }
      SecureDirectoryStream<Path> directory = ((Walk.Reached) walk).directory();
      Path temporary = rootReal.getFileSystem().getPath(staged.temporaryName());
      try {
        directory.move(temporary, directory, name.orElseThrow());
        return new WriteOutcome.Done();
      } catch (IOException e) {
        quietlyDelete(directory, temporary);
        return new WriteOutcome.Refused("cannot rename into " + path + ": " + e.getMessage());
      } finally {
        closeUnlessRoot(directory);
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public void discard(WriteOutcome.Staged staged) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Path temporary = rootReal.getFileSystem().getPath(staged.temporaryName());
      Walk walk = walkParents(staged.path());
      if (walk instanceof Walk.Reached reached) {
        quietlyDelete(reached.directory(), temporary);
        closeUnlessRoot(reached.directory());
      }
      // a symlink is staged at the root first and then moved beside its target: one a process killed in
      // between left is at the root under the same name
      quietlyDelete(root, temporary);
    }
  }

  @Override
  public WriteOutcome deleteUnsynced(WorkspacePath path) {
    return delete(path);
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryOutcome makeDirectory(WorkspacePath path, java.util.OptionalInt mode) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      if (name.isEmpty()) {
        return new DirectoryOutcome.Refused(path + " is not representable in " + nameEncoding);
      }
      WritableParent parent = parentForWrite(path);
      if (parent.refusal() != null) {
        return new DirectoryOutcome.Refused(parent.refusal());
      }
      try {
        try {
          BasicFileAttributes there = parent.directory().getFileAttributeView(name.get(),
              BasicFileAttributeView.class, NOFOLLOW_LINKS).readAttributes();
          return there.isDirectory() ? new DirectoryOutcome.AlreadySo()
              : new DirectoryOutcome.Refused("something other than a directory is at " + path);
        } catch (NoSuchFileException missing) {
          // to be made
        }
        String made = createDirectoryIn(parent.directory(), name.get());
        if (made != null) {
          return new DirectoryOutcome.Refused("cannot create directory " + path + ": " + made);
        }
        if (mode.isPresent()) {
          parent.directory().getFileAttributeView(name.get(), PosixFileAttributeView.class, NOFOLLOW_LINKS)
              .setPermissions(permissions(mode.getAsInt()));
        }
        return new DirectoryOutcome.Done();
      } catch (IOException e) {
        return new DirectoryOutcome.Refused("cannot create directory " + path + ": " + e.getMessage());
      } finally {
        closeUnlessRoot(parent.directory());
      }
    }
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryOutcome removeDirectory(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      if (name.isEmpty()) {
        return new DirectoryOutcome.Refused(path + " is not representable in " + nameEncoding);
      }
      Walk walk = walkParents(path);
      if (walk instanceof Walk.Stopped stopped) {
        return stopped.why() instanceof Lookup.Missing ? new DirectoryOutcome.AlreadySo()
            : new DirectoryOutcome.Refused(refusalOf(path.display(), stopped.why()));
      }
      SecureDirectoryStream<Path> directory = ((Walk.Reached) walk).directory();
      try {
        directory.deleteDirectory(name.get());
        return new DirectoryOutcome.Done();
      } catch (NoSuchFileException gone) {
        return new DirectoryOutcome.AlreadySo();
      } catch (java.nio.file.DirectoryNotEmptyException full) {
        return new DirectoryOutcome.NotEmpty();
      } catch (IOException e) {
        return new DirectoryOutcome.Refused("cannot remove directory " + path + ": " + e.getMessage());
      } finally {
        closeUnlessRoot(directory);
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here the directory is walked to as a stream of its own ({@code NOFOLLOW_LINKS} at each component) and
   * its bits are read and set through that stream's descriptor. The JDK sets only the nine permission bits
   * (and clears setuid, setgid and sticky): a mode with any of those three is refused, not set inexactly.
   */
  @Override
  @SuppressWarnings("try")
  public DirectoryOutcome changeDirectoryMode(WorkspacePath path, int from, int to) {
    if ((to & 07000) != 0) {
      return new DirectoryOutcome.Refused("the fallback boundary cannot set the setuid, setgid or sticky bits of "
          + path + " (mode " + String.format("%04o", to & 07777) + ")");
    }
    try (RootInUse inUse = rootInUse.acquire()) {
      Walk walk = walkParents(path.child(new byte[] {'x'}));
      if (walk instanceof Walk.Stopped stopped) {
        return new DirectoryOutcome.Refused(stopped.why() instanceof Lookup.Missing
            ? path + " is no longer a directory" : refusalOf(path.display(), stopped.why()));
      }
      SecureDirectoryStream<Path> directory = ((Walk.Reached) walk).directory();
      try {
        PosixFileAttributeView view = directory.getFileAttributeView(PosixFileAttributeView.class);
        int bits = bitsOf(view.readAttributes().permissions());
        if (bits == (to & 0777) && (from & 07000) == 0) {
          return new DirectoryOutcome.AlreadySo();
        }
        if (bits != (from & 0777)) {
          return new DirectoryOutcome.Changed(bits);
        }
        view.setPermissions(permissions(to));
        return new DirectoryOutcome.Done();
      } catch (IOException e) {
        return new DirectoryOutcome.Refused("cannot set the mode of " + path + ": " + e.getMessage());
      } finally {
        closeUnlessRoot(directory);
      }
    }
  }

  private static int bitsOf(Set<PosixFilePermission> permissions) {
    int bits = 0;
    for (PosixFilePermission permission : permissions) {
      bits |= 0400 >> permission.ordinal();
    }
    return bits;
  }

  @Override
  @SuppressWarnings("try")
  public DirectoryListing list(Optional<WorkspacePath> directory) {
    try (RootInUse inUse = rootInUse.acquire()) {
      SecureDirectoryStream<Path> parent = root;
      if (directory.isPresent()) {
        if (mountPoints.isMountPoint(absolute(directory.get()))) {
          return new DirectoryListing.NotListed(new Lookup.OtherMount());
        }
        Walk walk = walkParents(directory.get().child(new byte[] {'x'}));
        if (walk instanceof Walk.Stopped stopped) {
          return new DirectoryListing.NotListed(stopped.why());
        }
        parent = ((Walk.Reached) walk).directory();
      }
      // a directory stream can be iterated once: list a fresh stream of the same directory
      List<DirectoryListing.Entry> entries = new ArrayList<>();
      try (SecureDirectoryStream<Path> listing = parent.newDirectoryStream(rootReal.getFileSystem().getPath("."),
          NOFOLLOW_LINKS)) {
        for (Path name : listing) {
          byte[] bytes = name.getFileName().toString().getBytes(nameEncoding);
          WorkspacePath path = directory.map(dir -> dir.child(bytes))
              .orElseGet(() -> WorkspacePath.ofComponents(List.of(bytes)));
          Lookup lookup = statIn(parent, name.getFileName(), path);
          StatInfo stat = lookup instanceof Lookup.Found found ? found.stat() : null;
          byte[] linkText = null;
          if (stat != null && stat.type() == io.turndiff.model.FileType.SYMLINK) {
            linkText = readLink(path);
          }
          entries.add(new DirectoryListing.Entry(bytes, stat, linkText));
        }
      } catch (IOException | java.nio.file.DirectoryIteratorException e) {
        return new DirectoryListing.NotListed(new Lookup.Failed(String.valueOf(e.getMessage())));
      } finally {
        closeUnlessRoot(parent);
      }
      return new DirectoryListing.Listed(entries);
    }
  }

  @Override
  public WriteOutcome syncAll() {
    // each staged file was synced when it was written; directories cannot be synced through a held stream
    return new WriteOutcome.Done();
  }

  private static void quietlyDelete(SecureDirectoryStream<Path> directory, Path name) {
    try {
      directory.deleteFile(name);
    } catch (IOException ignored) {
      // a temporary name of ours; nothing else refers to it
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
    for (int bit = 0; bit < bits.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        permissions.add(bits[bit]);
      }
    }
    return permissions;
  }

  @Override
  public WriteOutcome writeSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName) {
    WriteOutcome staged = stageSymlink(path, target, temporaryName);
    return staged instanceof WriteOutcome.Staged temporary ? commit(temporary) : staged;
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome stageSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      String targetText = new String(target, nameEncoding);
      if (name.isEmpty() || !Arrays.equals(targetText.getBytes(nameEncoding), target)) {
        return new WriteOutcome.Refused(path + " or its link text is not representable in " + nameEncoding);
      }
      WritableParent parent = parentForWrite(path);
      if (parent.refusal() != null) {
        return new WriteOutcome.Refused(parent.refusal());
      }
      try {
        Path temporary = rootReal.getFileSystem().getPath(temporaryName.orElseGet(options::nextTemporaryName));
        Path made = rootReal.resolve(temporary);
        try {
          Files.createSymbolicLink(made, rootReal.getFileSystem().getPath(targetText));
        } catch (java.nio.file.FileAlreadyExistsException taken) {
          return temporaryName.<WriteOutcome>map(WriteOutcome.NameTaken::new).orElseGet(() ->
              new WriteOutcome.Refused("cannot create a symlink for " + path + ": its temporary name is taken"));
        } catch (IOException e) {
          return new WriteOutcome.Refused("cannot create a symlink for " + path + ": " + e.getMessage());
        }
        if (parent.directory() != root && nameTaken(parent.directory(), temporary)) {
          // the move below replaces a name: one someone else made beside the target is never replaced
          deleteQuietly(made);
          return temporaryName.<WriteOutcome>map(WriteOutcome.NameTaken::new).orElseGet(() ->
              new WriteOutcome.Refused("cannot create a symlink for " + path + ": its temporary name is taken"));
        }
        String adopted = adoptFromRoot(made, temporary, parent.directory(), temporary);
        return adopted == null ? new WriteOutcome.Staged(path, temporary.toString())
            : new WriteOutcome.Refused("cannot put the symlink in place at " + path + ": " + adopted);
      } finally {
        closeUnlessRoot(parent.directory());
      }
    }
  }

  /** Whether {@code name} exists in {@code directory} (anything, a dangling link included). */
  private static boolean nameTaken(SecureDirectoryStream<Path> directory, Path name) {
    try {
      directory.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW_LINKS).readAttributes();
      return true;
    } catch (NoSuchFileException free) {
      return false;
    } catch (IOException unknown) {
      return true;
    }
  }

  @Override
  @SuppressWarnings("try")
  public WriteOutcome delete(WorkspacePath path) {
    try (RootInUse inUse = rootInUse.acquire()) {
      Optional<Path> name = name(path.name());
      if (name.isEmpty()) {
        return new WriteOutcome.Refused(path + " is not representable in " + nameEncoding);
      }
      Walk walk = walkParents(path);
      if (walk instanceof Walk.Stopped stopped) {
        return stopped.why() instanceof Lookup.Missing ? new WriteOutcome.Done()
            : new WriteOutcome.Refused(refusalOf(path.display(), stopped.why()));
      }
      SecureDirectoryStream<Path> directory = ((Walk.Reached) walk).directory();
      try {
        directory.deleteFile(name.get());
        return new WriteOutcome.Done();
      } catch (NoSuchFileException gone) {
        return new WriteOutcome.Done();
      } catch (IOException e) {
        return new WriteOutcome.Refused("cannot remove " + path + ": " + e.getMessage());
      } finally {
        closeUnlessRoot(directory);
      }
    }
  }

  @Override
  public void close() {
    if (rootInUse.closeOnce()) {
      closeQuietly(root);
    }
  }
}
