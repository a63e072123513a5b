package io.turndiff.export;

import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.PositionedFile;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.model.RequestException;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.eclipse.jgit.internal.storage.file.PackIndex;
import org.eclipse.jgit.internal.storage.pack.BinaryDelta;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * The objects of the workspace's repository, read and written through its boundary: loose objects
 * ({@code .git/objects/ab/cdef…}, zlib) and the objects of its packs ({@code .git/objects/pack}),
 * which are read in parts at the offsets their index gives, never whole. JGit parses a pack's index
 * ({@code PackIndex} from the bytes the boundary read) and applies deltas ({@code BinaryDelta});
 * the inflating, and every byte read or written, is here, relative to the workspace's root held
 * open. New objects are written loose, each under a temporary name beside its name and renamed over
 * it only while the name is still free (an object already there is the same object).
 */
final class GitObjects {

  /** A git object: its type ({@link Constants#OBJ_BLOB}, …) and its bytes. */
  record GitObject(int type, byte[] data) {}

  private record Pack(WorkspacePath pack, PackIndex index) {}

  private final WorkspaceBoundary boundary;
  private final ObjectInserter.Formatter formatter = new ObjectInserter.Formatter();
  private final Map<String, ObjectId> written = new LinkedHashMap<>();
  private List<Pack> packs;

  GitObjects(WorkspaceBoundary boundary) {
    this.boundary = boundary;
  }

  /** The object {@code id}, loose or packed; refused, named, when the repository lacks it. */
  GitObject read(ObjectId id) {
    Optional<byte[]> loose = readWhole(loosePath(id));
    if (loose.isPresent()) {
      return parseLoose(id, inflate(loose.get(), id));
    }
    for (Pack pack : packs()) {
      if (pack.index().hasObject(id)) {
        long offset = pack.index().findOffset(id);
        return read(pack.pack(), file -> entryAt(file, offset, id));
      }
    }
    throw new RequestException(
        RequestException.Problem.WORKSPACE,
        "object "
            + id.name()
            + " is not in "
            + boundary.rootReal().resolve(".git")
            + " (an alternate object store outside the workspace is never read)");
  }

  /** Writes the object {@code data} of {@code type}, loose, unless it is there; its id. */
  ObjectId insert(int type, byte[] data) {
    ObjectId id = formatter.idFor(type, data);
    WorkspacePath path = loosePath(id);
    if (written.containsKey(id.name()) || boundary.lstat(path).isPresent() || packed(id)) {
      return id;
    }
    byte[] header =
        (Constants.typeString(type) + " " + data.length + "\0").getBytes(StandardCharsets.US_ASCII);
    Deflater deflater = new Deflater();
    ByteArrayOutputStream deflated = new ByteArrayOutputStream();
    try {
      deflater.setInput(concat(header, data));
      deflater.finish();
      byte[] buffer = new byte[8192];
      while (!deflater.finished()) {
        deflated.write(buffer, 0, deflater.deflate(buffer));
      }
    } finally {
      deflater.end();
    }
    write(path, deflated.toByteArray(), 0444);
    written.put(id.name(), id);
    return id;
  }

  /**
   * Writes {@code content} at {@code path} under a temporary name, then renames it over the name
   * only while the name is still absent; a name someone filled meanwhile is left as it is.
   */
  private void write(WorkspacePath path, byte[] content, int mode) {
    WriteOutcome staged = boundary.stageFile(path, content, mode, Optional.empty());
    if (!(staged instanceof WriteOutcome.Staged ready)) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE, "cannot write " + path.display() + ": " + staged);
    }
    WriteOutcome outcome =
        boundary.commitIfUnchanged(ready, Snapshot.absent(path, boundary.kind(), Instant.now()));
    if (outcome instanceof WriteOutcome.Refused refused) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "cannot write " + path.display() + ": " + refused.reason());
    }
  }

  /** Makes the objects written so far durable: each object directory synced once. */
  void sync() {
    written.keySet().stream()
        .map(name -> GitDirectory.path("objects/" + name.substring(0, 2)))
        .distinct()
        .forEach(directory -> boundary.syncDirectory(Optional.of(directory)));
  }

  private boolean packed(ObjectId id) {
    return packs().stream().anyMatch(pack -> pack.index().hasObject(id));
  }

  private static WorkspacePath loosePath(ObjectId id) {
    String name = id.name();
    return GitDirectory.path("objects/" + name.substring(0, 2) + "/" + name.substring(2));
  }

  /** The packs, each with its index, read once. */
  private List<Pack> packs() {
    if (packs == null) {
      packs = new ArrayList<>();
      WorkspacePath directory = GitDirectory.path("objects/pack");
      for (String name : boundary.namesIn(directory)) {
        if (!name.startsWith("pack-") || !name.endsWith(".idx")) {
          continue;
        }
        String base = name.substring(0, name.length() - ".idx".length());
        byte[] index =
            readWhole(GitDirectory.path("objects/pack/" + name))
                .orElseThrow(() -> unreadable(directory, name));
        try {
          packs.add(
              new Pack(
                  GitDirectory.path("objects/pack/" + base + ".pack"),
                  PackIndex.read(new ByteArrayInputStream(index))));
        } catch (IOException e) {
          throw unreadable(directory, name + ": " + e.getMessage());
        }
      }
    }
    return packs;
  }

  private static RequestException unreadable(WorkspacePath directory, String what) {
    return new RequestException(
        RequestException.Problem.WORKSPACE, "cannot read " + directory.display() + "/" + what);
  }

  private Optional<byte[]> readWhole(WorkspacePath path) {
    if (boundary.lstat(path).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        read(
            path,
            file -> {
              ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(file.size()));
              while (all.hasRemaining()) {
                if (file.read(all, all.position()) < 0) {
                  break;
                }
              }
              return all.array();
            }));
  }

  private <T> T read(WorkspacePath path, PositionedFile.Reads<T> reads) {
    try {
      return boundary.readPositioned(path, reads);
    } catch (BoundaryException refused) {
      throw new RequestException(RequestException.Problem.WORKSPACE, refused.getMessage());
    }
  }

  // ---- loose objects

  private static GitObject parseLoose(ObjectId id, byte[] raw) {
    int space = indexOf(raw, (byte) ' ', 0);
    int nul = indexOf(raw, (byte) 0, space + 1);
    if (space < 0 || nul < 0) {
      throw corrupt(id, "no object header");
    }
    int type =
        switch (new String(raw, 0, space, StandardCharsets.US_ASCII)) {
          case Constants.TYPE_BLOB -> Constants.OBJ_BLOB;
          case Constants.TYPE_TREE -> Constants.OBJ_TREE;
          case Constants.TYPE_COMMIT -> Constants.OBJ_COMMIT;
          case Constants.TYPE_TAG -> Constants.OBJ_TAG;
          default -> throw corrupt(id, "an object of unknown type");
        };
    byte[] data = new byte[raw.length - nul - 1];
    System.arraycopy(raw, nul + 1, data, 0, data.length);
    return new GitObject(type, data);
  }

  private static byte[] inflate(byte[] deflated, ObjectId id) {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(deflated);
      ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.length * 3);
      byte[] buffer = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(buffer);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw corrupt(id, "truncated");
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw corrupt(id, e.getMessage());
    } finally {
      inflater.end();
    }
  }

  // ---- packed objects

  /**
   * The object whose entry starts at {@code offset} of {@code file}: its header (type, size, and
   * for a delta its base), then its zlib stream, read in parts from there.
   */
  private GitObject entryAt(PositionedFile file, long offset, ObjectId id) throws IOException {
    byte[] head = new byte[32];
    int got = file.read(ByteBuffer.wrap(head), offset);
    if (got < 1) {
      throw corrupt(id, "pack entry past the end");
    }
    int at = 0;
    int c = head[at++] & 0xff;
    int type = (c >> 4) & 7;
    long size = c & 15;
    int shift = 4;
    while ((c & 0x80) != 0) {
      c = head[at++] & 0xff;
      size += (long) (c & 0x7f) << shift;
      shift += 7;
    }
    switch (type) {
      case Constants.OBJ_COMMIT, Constants.OBJ_TREE, Constants.OBJ_BLOB, Constants.OBJ_TAG -> {
        return new GitObject(type, inflateAt(file, offset + at, size, id));
      }
      case Constants.OBJ_OFS_DELTA -> {
        c = head[at++] & 0xff;
        long back = c & 127;
        while ((c & 128) != 0) {
          back += 1;
          c = head[at++] & 0xff;
          back = (back << 7) + (c & 127);
        }
        GitObject base = entryAt(file, offset - back, id);
        byte[] delta = inflateAt(file, offset + at, size, id);
        return new GitObject(base.type(), BinaryDelta.apply(base.data(), delta));
      }
      case Constants.OBJ_REF_DELTA -> {
        ObjectId baseId = ObjectId.fromRaw(head, at);
        at += Constants.OBJECT_ID_LENGTH;
        GitObject base = read(baseId);
        byte[] delta = inflateAt(file, offset + at, size, id);
        return new GitObject(base.type(), BinaryDelta.apply(base.data(), delta));
      }
      default -> throw corrupt(id, "pack entry of type " + type);
    }
  }

  private static byte[] inflateAt(PositionedFile file, long position, long size, ObjectId id)
      throws IOException {
    byte[] out = new byte[Math.toIntExact(size)];
    Inflater inflater = new Inflater();
    try {
      ByteBuffer input = ByteBuffer.allocate(16 * 1024);
      long at = position;
      int produced = 0;
      while (!inflater.finished()) {
        if (inflater.needsInput()) {
          input.clear();
          int n = file.read(input, at);
          if (n <= 0) {
            throw corrupt(id, "pack entry truncated");
          }
          at += n;
          inflater.setInput(input.array(), 0, n);
        }
        produced += inflater.inflate(out, produced, out.length - produced);
      }
      if (produced != out.length) {
        throw corrupt(id, "pack entry of " + produced + " bytes, not " + size);
      }
      return out;
    } catch (DataFormatException e) {
      throw corrupt(id, e.getMessage());
    } finally {
      inflater.end();
    }
  }

  private static RequestException corrupt(ObjectId id, String why) {
    return new RequestException(
        RequestException.Problem.WORKSPACE, "object " + id.name() + " cannot be read: " + why);
  }

  private static int indexOf(byte[] bytes, byte b, int from) {
    for (int i = Math.max(0, from); i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
