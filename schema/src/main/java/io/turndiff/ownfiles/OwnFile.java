package io.turndiff.ownfiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One file of turndiff's own, by its name (a directory is one too, for what is asked of its name:
 * its attributes, its owner, its mode): what turndiff looks at, reads and writes of it, each
 * operation one step over the JDK's file API. Whole writes go through {@link AtomicFile}.
 *
 * <p>Reads are bounded: a file of turndiff's own is small (a token, an id, a record, a settings
 * file), and one grown past what its reader expects is refused with its name rather than read into
 * memory. A missing file is an empty result, never an error, where the caller treats both alike.
 *
 * <p>What this does not protect: the name is resolved by the kernel from the root each time, links
 * followed unless a method says otherwise. That is right for turndiff's own files, in directories
 * it made or the user named; a workspace's files are never reached this way (they go through {@code
 * io.turndiff.boundary}).
 */
public final class OwnFile {

  private final Path path;

  private OwnFile(Path path) {
    this.path = path;
  }

  public static OwnFile of(Path path) {
    return new OwnFile(path);
  }

  public Path path() {
    return path;
  }

  // ---- looking at the name

  /**
   * Whether it exists (through links unless {@code options} say not to follow: then a link counts,
   * whatever it leads to).
   */
  public boolean exists(LinkOption... options) {
    return Files.exists(path, options);
  }

  /** Whether it is a regular file (through links unless {@code options} say not to follow). */
  public boolean isRegularFile(LinkOption... options) {
    return Files.isRegularFile(path, options);
  }

  /** Whether it is a directory (through links unless {@code options} say not to follow). */
  public boolean isDirectory(LinkOption... options) {
    return Files.isDirectory(path, options);
  }

  public boolean isSymbolicLink() {
    return Files.isSymbolicLink(path);
  }

  public boolean isReadable() {
    return Files.isReadable(path);
  }

  public boolean isWritable() {
    return Files.isWritable(path);
  }

  public boolean isExecutable() {
    return Files.isExecutable(path);
  }

  /** Its attributes, itself (a link is not followed); empty when there is no such name. */
  public Optional<PosixFileAttributes> attributes() throws IOException {
    try {
      return Optional.of(
          Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException missing) {
      return Optional.empty();
    }
  }

  /** Its permission bits (through links unless {@code options} say not to follow). */
  public Set<PosixFilePermission> permissions(LinkOption... options) throws IOException {
    return Files.getPosixFilePermissions(path, options);
  }

  /** Its mode's low twelve bits (set-id and sticky bits too), through links. */
  public int mode() throws IOException {
    return (Integer) Files.getAttribute(path, "unix:mode") & 07777;
  }

  public void setPermissions(Set<PosixFilePermission> permissions) throws IOException {
    Files.setPosixFilePermissions(path, permissions);
  }

  /** Whether the name itself (not followed) belongs to this process's user. */
  public boolean ownedByThisUser() throws IOException {
    return Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS)
        .equals(Proc.userOfThisProcess());
  }

  /** What any write to it moves, itself (not followed); empty when there is no such name. */
  public Optional<FileStamp> stamp() throws IOException {
    Map<String, Object> stat;
    try {
      stat =
          Files.readAttributes(
              path, "unix:dev,ino,size,lastModifiedTime,ctime", LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException absent) {
      return Optional.empty();
    }
    return Optional.of(
        new FileStamp(
            (Long) stat.get("dev"),
            (Long) stat.get("ino"),
            (Long) stat.get("size"),
            ((FileTime) stat.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
            ((FileTime) stat.get("ctime")).to(TimeUnit.NANOSECONDS)));
  }

  /**
   * Its size in bytes.
   *
   * @throws NoSuchFileException when there is no such file
   */
  public long size() throws IOException {
    return Files.size(path);
  }

  /** The real path it names now, every link resolved. */
  public Path realPath() throws IOException {
    return path.toRealPath();
  }

  /** Whether it and {@code other} are one file (links followed). */
  public boolean isSameFile(Path other) throws IOException {
    return Files.isSameFile(path, other);
  }

  /** What the link says it leads to; empty when it is not a link. */
  public Optional<Path> linkTarget() throws IOException {
    return Files.isSymbolicLink(path)
        ? Optional.of(Files.readSymbolicLink(path))
        : Optional.empty();
  }

  // ---- reading

  /**
   * Its bytes (through links); empty when there is no such file.
   *
   * @throws IOException when it holds more than {@code bound} bytes, or cannot be read
   */
  public Optional<byte[]> read(int bound) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(path)) {
      bytes = in.readNBytes(bound + 1);
    } catch (NoSuchFileException missing) {
      return Optional.empty();
    }
    if (bytes.length > bound) {
      throw new IOException(
          path + " holds more than " + bound + " bytes, more than turndiff reads of it");
    }
    return Optional.of(bytes);
  }

  /**
   * Its bytes, the name itself: a link there is an error, not followed (a file the hook script left
   * in the run directory is read only as what it is); empty when there is no such file.
   *
   * @throws IOException when it holds more than {@code bound} bytes, is a link, or cannot be read
   */
  public Optional<byte[]> readItself(int bound) throws IOException {
    byte[] bytes;
    try (InputStream in =
        Files.newInputStream(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes(bound + 1);
    } catch (NoSuchFileException missing) {
      return Optional.empty();
    }
    if (bytes.length > bound) {
      throw new IOException(
          path + " holds more than " + bound + " bytes, more than turndiff reads of it");
    }
    return Optional.of(bytes);
  }

  /**
   * Its text, decoded as UTF-8 (malformed bytes are an error, as {@link Files#readString}'s); empty
   * when there is no such file.
   */
  public Optional<String> readText(int bound) throws IOException {
    Optional<byte[]> bytes = read(bound);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.get())).toString());
  }

  /**
   * Its first {@code count} bytes, fewer when it is shorter.
   *
   * @throws NoSuchFileException when there is no such file
   */
  public byte[] first(int count) throws IOException {
    try (InputStream in = Files.newInputStream(path)) {
      return in.readNBytes(count);
    }
  }

  /**
   * Its first {@code count} bytes, fewer when it is shorter, the name itself: a link there is an
   * error, not followed (a runtime's session file in the user's home is read only as what it is);
   * empty when there is no such file.
   */
  public Optional<byte[]> firstItself(int count) throws IOException {
    try (InputStream in =
        Files.newInputStream(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(in.readNBytes(count));
    } catch (NoSuchFileException missing) {
      return Optional.empty();
    }
  }

  /** Its last {@code count} lines (UTF-8), oldest first; none when there is no such file. */
  public List<String> lastLines(int count) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException none) {
      return List.of();
    }
    return List.copyOf(lines.subList(Math.max(0, lines.size() - count), lines.size()));
  }

  // ---- writing

  /** Replaces it whole with {@code bytes}, mode {@code mode} ({@link AtomicFile#replace}). */
  public void replace(byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
    AtomicFile.replace(path, bytes, mode);
  }

  /** Makes it whole unless a file has its name ({@link AtomicFile#createIfAbsent}). */
  public boolean createIfAbsent(byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
    return AtomicFile.createIfAbsent(path, bytes, mode);
  }

  /**
   * Makes it empty, with exactly {@code mode} from its creation; false when a name is there already
   * (left as it is).
   */
  public boolean createEmpty(Set<PosixFilePermission> mode) throws IOException {
    try {
      Files.createFile(path, PosixFilePermissions.asFileAttribute(mode));
      return true;
    } catch (FileAlreadyExistsException existing) {
      return false;
    }
  }

  /**
   * Writes {@code bytes} to a new file of this name (the process's default mode), as an output the
   * user names is written: not synced, and never over anything.
   *
   * @throws FileAlreadyExistsException when the name is taken
   */
  public void createNew(byte[] bytes) throws IOException {
    Files.write(path, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  /**
   * Opens it for appending, as a log is written: an existing file of this name, never a link (a
   * link in its place fails to open rather than lead the writes elsewhere); the caller made it with
   * its mode first. Not synced: a log line is not a commit.
   */
  public OutputStream appending() throws IOException {
    return Files.newOutputStream(
        path, StandardOpenOption.WRITE, StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
  }

  /** Removes the name (a link as a link); false when there was none. */
  public boolean deleteIfExists() throws IOException {
    return Files.deleteIfExists(path);
  }
}
