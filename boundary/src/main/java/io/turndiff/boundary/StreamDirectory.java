package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.turndiff.model.FileType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A directory of a {@link StreamHandle}, held as a {@link SecureDirectoryStream}; {@code location}
 * its components from the root. Every operation is relative to the stream with {@code
 * NOFOLLOW_LINKS}; what the JDK can only do by path (a by-name stat for {@code nlink}, a link's
 * text) is checked against the stream's inode around it.
 */
class StreamDirectory implements DirectoryHandle {

  private static final long OPEN_DEADLINE_MILLIS = 2_000;
  private static final ExecutorService OPENER =
      Executors.newCachedThreadPool(
          runnable -> {
            Thread thread = new Thread(runnable, "turndiff-fallback-open");
            thread.setDaemon(true);
            return thread;
          });
  private static final Executor A_THREAD_PER_OPEN =
      runnable -> Thread.ofPlatform().daemon().name("turndiff-background-open").start(runnable);

  private final StreamHandle owner;
  final SecureDirectoryStream<Path> stream;
  private final List<byte[]> location;

  StreamDirectory(StreamHandle owner, SecureDirectoryStream<Path> stream, List<byte[]> location) {
    this.owner = owner;
    this.stream = stream;
    this.location = location;
  }

  StreamHandle root() {
    return owner;
  }

  /** Does {@code op} with the name as a JDK path, refused when it cannot be represented. */
  private <T> Attempt<T> named(Name name, NameOperation<T> op) {
    Optional<Path> path = root().javaName(name);
    if (path.isEmpty()) {
      return Attempt.refused(root().unrepresentable());
    }
    try {
      return op.apply(path.get());
    } catch (IOException e) {
      return Attempt.refused(StreamHandle.failure(e));
    }
  }

  @FunctionalInterface
  private interface NameOperation<T> {
    Attempt<T> apply(Path name) throws IOException;
  }

  @Override
  public Attempt<DirectoryHandle> openDirectory(Name name) {
    return named(
        name,
        path -> {
          List<byte[]> at = name.under(location);
          if (root().mountPoints.isMountPoint(root().absolute(at))) {
            return Attempt.refused(new HandleFailure.OtherMount());
          }
          SecureDirectoryStream<Path> next;
          try {
            next = stream.newDirectoryStream(path, NOFOLLOW_LINKS);
          } catch (NoSuchFileException e) {
            return Attempt.refused(new HandleFailure.Missing());
          } catch (IOException e) {
            return Attempt.refused(classifyRefusedDirectory(path, e));
          }
          try {
            Object key =
                next.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
            if (DeviceNumber.ofFileKey(key).orElse(-1) != root().rootStat.device()) {
              StreamHandle.closeQuietly(next);
              return Attempt.refused(new HandleFailure.OtherMount());
            }
          } catch (IOException e) {
            StreamHandle.closeQuietly(next);
            return Attempt.refused(StreamHandle.failure(e));
          }
          return Attempt.done(new StreamDirectory(root(), next, at));
        });
  }

  private HandleFailure classifyRefusedDirectory(Path name, IOException e) {
    try {
      BasicFileAttributes attributes =
          stream
              .getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW_LINKS)
              .readAttributes();
      if (attributes.isSymbolicLink()) {
        return new HandleFailure.Symlink();
      }
      if (!attributes.isDirectory()) {
        return new HandleFailure.NotDirectory();
      }
    } catch (NoSuchFileException gone) {
      return new HandleFailure.Missing();
    } catch (IOException ignored) {
      // fall through to the original failure
    }
    return StreamHandle.failure(e);
  }

  /**
   * The inode a name here refers to, checked against a by-name stat of the same inode (the stream
   * gives no {@code nlink} or {@code ctime}).
   */
  private Attempt<StatInfo> statIn(Path name, List<byte[]> at) throws IOException {
    Object heldKey =
        stream
            .getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW_LINKS)
            .readAttributes()
            .fileKey();
    StatInfo stat =
        StreamHandle.statOf(Files.readAttributes(root().absolute(at), "unix:*", NOFOLLOW_LINKS));
    return DeviceNumber.sameInode(heldKey, stat)
        ? Attempt.done(stat)
        : Attempt.failed("the name was replaced while it was looked at");
  }

  @Override
  public Attempt<Void> makeDirectory(Name name, int mode) {
    return named(
        name,
        path -> {
          if (StreamHandle.nameTaken(stream, path)) {
            return Attempt.refused(new HandleFailure.Exists());
          }
          // made at the root's path under a fresh name, proven to be the one the held root sees,
          // moved in
          Path temporary = root().rootReal.getFileSystem().getPath(root().temporaryNames.get());
          Path made = root().rootReal.resolve(temporary);
          Files.createDirectory(
              made, PosixFilePermissions.asFileAttribute(StreamHandle.permissions(mode)));
          String adopted = root().adoptFromRoot(made, temporary, stream, path);
          return adopted == null ? Attempt.done() : Attempt.failed(adopted);
        });
  }

  @Override
  public Attempt<StatInfo> lstat(Name name) {
    return named(
        name,
        path -> {
          List<byte[]> at = name.under(location);
          Attempt<StatInfo> found = statIn(path, at);
          if (found.ok() && root().mountPoints.isMountPoint(root().absolute(at))) {
            return Attempt.refused(new HandleFailure.OtherMount());
          }
          return found;
        });
  }

  @Override
  public Attempt<StatInfo> statFollowing(Name name) {
    // without NOFOLLOW_LINKS the JDK's view is fstatat(parent, name, 0): the kernel follows the
    // link
    return named(
        name,
        path -> {
          BasicFileAttributes reached =
              stream.getFileAttributeView(path, BasicFileAttributeView.class).readAttributes();
          int type =
              reached.isDirectory()
                  ? LinuxAbi.S_IFDIR
                  : reached.isRegularFile() ? LinuxAbi.S_IFREG : 0;
          return Attempt.done(
              new StatInfo(type, 1, 0, reached.size(), 0, 0, root().rootStat.device()));
        });
  }

  @Override
  public Attempt<byte[]> readLink(Name name) {
    // The JDK reads link text only by path; the text is metadata, and the link's identity is
    // checked around it.
    return named(
        name,
        path -> {
          List<byte[]> at = name.under(location);
          Attempt<StatInfo> before = statIn(path, at);
          if (!(before instanceof Attempt.Done<StatInfo> link)
              || link.value().type() != FileType.SYMLINK) {
            return before.ok() ? Attempt.failed("not a symlink") : before.asRefused();
          }
          Path target = Files.readSymbolicLink(root().absolute(at));
          Attempt<StatInfo> after = statIn(path, at);
          if (!(after instanceof Attempt.Done<StatInfo> same)
              || same.value().inode() != link.value().inode()) {
            return Attempt.failed("the link was replaced while it was read");
          }
          byte[] bytes = target.toString().getBytes(root().nameEncoding);
          return bytes.length == 0
              ? Attempt.failed("the link's text is empty")
              : Attempt.done(bytes);
        });
  }

  @Override
  public Attempt<OpenedFile> openForRead(Name name) {
    return named(
        name,
        path -> {
          List<byte[]> at = name.under(location);
          Attempt<StatInfo> before = statIn(path, at);
          if (!(before instanceof Attempt.Done<StatInfo> found)) {
            return before.asRefused();
          }
          StatInfo stat = found.value();
          if (stat.type() == FileType.SYMLINK) {
            return Attempt.refused(new HandleFailure.Symlink());
          }
          if (root().mountPoints.isMountPoint(root().absolute(at))) {
            // a bind mount of a file on the same file system has the root's device: the mount table
            // tells
            return Attempt.refused(new HandleFailure.OtherMount());
          }
          if (stat.type() != FileType.REGULAR
              || stat.nlink() > 1
              || stat.device() != root().rootStat.device()) {
            // never opened: the reader refuses it by this stat
            return Attempt.done(new StreamOpenedFile(this, path, at, stat, null));
          }
          return openWithDeadline(path, at, stat);
        });
  }

  /**
   * The open runs on its own stream of the same directory, until a deadline ({@link
   * DeadlinedOpen}): if it blocks (a FIFO swapped in), the thread and that stream are abandoned,
   * and nothing this boundary holds (the root stream's lock) is pinned by them.
   */
  private Attempt<OpenedFile> openWithDeadline(Path name, List<byte[]> at, StatInfo stat)
      throws IOException {
    SecureDirectoryStream<Path> opener =
        stream.newDirectoryStream(root().rootReal.getFileSystem().getPath("."), NOFOLLOW_LINKS);
    Attempt<SeekableByteChannel> opened =
        DeadlinedOpen.open(
            () -> opener.newByteChannel(name, Set.of(StandardOpenOption.READ, NOFOLLOW_LINKS)),
            opener,
            openersForThisThread(),
            OPEN_DEADLINE_MILLIS);
    return opened instanceof Attempt.Done<SeekableByteChannel> channel
        ? Attempt.done(new StreamOpenedFile(this, name, at, stat, channel.value()))
        : opened.asRefused();
  }

  /**
   * Where this thread's opens run. A caller in the background (the watch's check, {@link
   * ThreadPriority}) opens on a thread of its own, which it starts at its priority and which ends
   * with the open: a thread it started in the shared pool would keep that priority while it served
   * the hooks' opens after.
   */
  static Executor openersForThisThread() {
    return ThreadPriority.isThisThreadInTheBackground() ? A_THREAD_PER_OPEN : OPENER;
  }

  @Override
  public Attempt<NewFile> createExclusive(Name name) {
    return named(
        name,
        path -> {
          SeekableByteChannel channel =
              stream.newByteChannel(
                  path,
                  Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, NOFOLLOW_LINKS),
                  PosixFilePermissions.asFileAttribute(
                      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
          return Attempt.done(new StreamNewFile(this, path, channel));
        });
  }

  @Override
  // "!=" asks whether this directory IS the root's own stream (then no name beside the target can
  // be taken by the move), not whether two streams are equal
  @SuppressWarnings("ReferenceEquality")
  public Attempt<Void> symlink(Name name, byte[] target) {
    return named(
        name,
        path -> {
          String text = new String(target, root().nameEncoding);
          if (!Arrays.equals(text.getBytes(root().nameEncoding), target)) {
            return Attempt.refused(root().unrepresentable());
          }
          if (stream != root().stream && StreamHandle.nameTaken(stream, path)) {
            // the move below replaces a name: one someone else made beside the target is never
            // replaced
            return Attempt.refused(new HandleFailure.Exists());
          }
          Path made = root().rootReal.resolve(path);
          Files.createSymbolicLink(made, root().rootReal.getFileSystem().getPath(text));
          String adopted = root().adoptFromRoot(made, path, stream, path);
          return adopted == null ? Attempt.done() : Attempt.failed(adopted);
        });
  }

  @Override
  public Attempt<Void> rename(Name from, Name to) {
    return named(
        from,
        source ->
            named(
                to,
                target -> {
                  stream.move(source, stream, target);
                  return Attempt.done();
                }));
  }

  @Override
  public Attempt<Void> unlink(Name name) {
    return named(
        name,
        path -> {
          stream.deleteFile(path);
          return Attempt.done();
        });
  }

  @Override
  public Attempt<Void> removeDirectory(Name name) {
    return named(
        name,
        path -> {
          stream.deleteDirectory(path);
          return Attempt.done();
        });
  }

  @Override
  public Attempt<Void> sync() {
    // a held stream cannot be synced; each new file was synced on its own as it was written
    return Attempt.done();
  }

  @Override
  public Attempt<Void> syncFileSystem() {
    // the JDK has no syncfs: a batch written without a sync each stays not known durable, which the
    // caller records (a rewind is then checked again after a restart)
    return Attempt.failed("the file system cannot be synced through a held stream");
  }

  @Override
  public Attempt<List<DirectoryListing.Entry>> list() {
    // a directory stream can be iterated once: list a fresh stream of the same directory
    List<DirectoryListing.Entry> entries = new ArrayList<>();
    try (SecureDirectoryStream<Path> listing =
        stream.newDirectoryStream(root().rootReal.getFileSystem().getPath("."), NOFOLLOW_LINKS)) {
      for (Path path : listing) {
        byte[] bytes = path.getFileName().toString().getBytes(root().nameEncoding);
        Name name = Name.of(bytes);
        Attempt<StatInfo> stat = lstat(name);
        StatInfo found = stat instanceof Attempt.Done<StatInfo> done ? done.value() : null;
        byte[] linkText =
            found != null
                    && found.type() == FileType.SYMLINK
                    && readLink(name) instanceof Attempt.Done<byte[]> text
                ? text.value()
                : null;
        entries.add(new DirectoryListing.Entry(bytes, found, linkText));
      }
    } catch (IOException | DirectoryIteratorException e) {
      return Attempt.failed(String.valueOf(e.getMessage()));
    }
    return Attempt.done(entries);
  }

  /**
   * The by-name stat of this directory's path, checked to be the inode the stream holds (for the
   * full mode).
   */
  @Override
  public Attempt<StatInfo> stat() {
    try {
      Object heldKey =
          stream.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
      StatInfo stat =
          StreamHandle.statOf(
              Files.readAttributes(root().absolute(location), "unix:*", NOFOLLOW_LINKS));
      return DeviceNumber.sameInode(heldKey, stat)
          ? Attempt.done(stat)
          : Attempt.failed("the directory was replaced while it was looked at");
    } catch (IOException e) {
      return Attempt.refused(StreamHandle.failure(e));
    }
  }

  /**
   * Sets the nine permission bits only (the JDK clears setuid, setgid and sticky): a mode with one
   * is refused.
   */
  @Override
  public Attempt<Void> chmod(int mode) {
    if ((mode & 07000) != 0) {
      return Attempt.failed(
          "the fallback boundary cannot set the setuid, setgid or sticky bits (mode "
              + String.format("%04o", mode & 07777)
              + ")");
    }
    try {
      stream
          .getFileAttributeView(PosixFileAttributeView.class)
          .setPermissions(StreamHandle.permissions(mode));
      return Attempt.done();
    } catch (IOException e) {
      return Attempt.refused(StreamHandle.failure(e));
    }
  }

  @Override
  public void close() {
    StreamHandle.closeQuietly(stream);
  }

  /**
   * A channel opened for reading; {@code channel} null for an inode refused by its stat before any
   * open.
   */
  private static final class StreamOpenedFile implements OpenedFile {
    private final StreamDirectory directory;
    private final Path name;
    private final List<byte[]> at;
    private final StatInfo opened;
    private final SeekableByteChannel channel;

    StreamOpenedFile(
        StreamDirectory directory,
        Path name,
        List<byte[]> at,
        StatInfo opened,
        SeekableByteChannel channel) {
      this.directory = directory;
      this.name = name;
      this.at = at;
      this.opened = opened;
      this.channel = channel;
    }

    @Override
    public StatInfo opened() {
      return opened;
    }

    @Override
    public Optional<StatInfo> now() {
      try {
        return directory.statIn(name, at) instanceof Attempt.Done<StatInfo> done
            ? Optional.of(done.value())
            : Optional.empty();
      } catch (IOException e) {
        return Optional.empty();
      }
    }

    @Override
    public int read(ByteBuffer into, long position) throws IOException {
      if (channel == null) {
        throw new IOException("never opened");
      }
      if (channel instanceof FileChannel file) {
        return file.read(into, position);
      }
      channel.position(position);
      return channel.read(into);
    }

    @Override
    public void close() {
      if (channel != null) {
        StreamHandle.closeQuietly(channel);
      }
    }
  }

  /**
   * A new file's channel; its mode is set through the directory's view of its name, nothing
   * followed.
   */
  private static final class StreamNewFile implements NewFile {
    private final StreamDirectory directory;
    private final Path name;
    private final SeekableByteChannel channel;

    StreamNewFile(StreamDirectory directory, Path name, SeekableByteChannel channel) {
      this.directory = directory;
      this.name = name;
      this.channel = channel;
    }

    @Override
    public void write(ByteBuffer from) throws IOException {
      while (from.hasRemaining()) {
        channel.write(from);
      }
    }

    @Override
    public void chmod(int mode) throws IOException {
      directory
          .stream
          .getFileAttributeView(name, PosixFileAttributeView.class, NOFOLLOW_LINKS)
          .setPermissions(StreamHandle.permissions(mode));
    }

    @Override
    public void sync() throws IOException {
      if (channel instanceof FileChannel file) {
        file.force(true);
      }
    }

    /**
     * Empty: a channel has no {@code fstat}, and a stat of the name may meet another file by the
     * time it is made; the caller reads the file instead.
     */
    @Override
    public Optional<StatInfo> now() {
      return Optional.empty();
    }

    @Override
    public void close() {
      StreamHandle.closeQuietly(channel);
    }
  }
}
