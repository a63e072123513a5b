package io.turndiff.boundary;

import static io.turndiff.boundary.LinuxAbi.AT_REMOVEDIR;
import static io.turndiff.boundary.LinuxAbi.EEXIST;
import static io.turndiff.boundary.LinuxAbi.O_CLOEXEC;
import static io.turndiff.boundary.LinuxAbi.O_CREAT;
import static io.turndiff.boundary.LinuxAbi.O_EXCL;
import static io.turndiff.boundary.LinuxAbi.O_NOCTTY;
import static io.turndiff.boundary.LinuxAbi.O_RDONLY;
import static io.turndiff.boundary.LinuxAbi.O_WRONLY;

import java.util.ArrayList;
import java.util.List;

/**
 * A directory of an {@link FdHandle} held as an {@code O_PATH} descriptor (the root: a readable
 * one). Each operation is one system call relative to it; names are resolved as its {@link
 * FdHandle} resolves them.
 */
class FdDirectory implements DirectoryHandle {

  private final FdHandle owner;
  final int fd;
  private final List<byte[]> location;

  FdDirectory(FdHandle owner, int fd, List<byte[]> location) {
    this.owner = owner;
    this.fd = fd;
    this.location = location;
  }

  FdHandle root() {
    return owner;
  }

  private Libc libc() {
    return root().libc;
  }

  @Override
  public Attempt<DirectoryHandle> openDirectory(Name name) {
    return root().openDirectory(this, name.raw(), name.under(location));
  }

  @Override
  public Attempt<Void> makeDirectory(Name name, int mode) {
    try (NativeCall call = libc().call()) {
      return root().result(libc().mkdirat(call, fd, name.raw(), mode));
    }
  }

  @Override
  public Attempt<StatInfo> lstat(Name name) {
    try (NativeCall call = libc().call()) {
      return stat(libc().lstatAt(call, fd, name.raw()));
    }
  }

  @Override
  public Attempt<StatInfo> statFollowing(Name name) {
    try (NativeCall call = libc().call()) {
      return stat(libc().statFollowingAt(call, fd, name.raw()));
    }
  }

  private Attempt<StatInfo> stat(StatResult result) {
    return result.ok()
        ? Attempt.done(result.stat())
        : Attempt.refused(root().failure(result.errno()));
  }

  @Override
  public Attempt<byte[]> readLink(Name name) {
    try (NativeCall call = libc().call()) {
      Libc.LinkText text = libc().readlinkat(call, fd, name.raw());
      if (!text.ok()) {
        return Attempt.refused(root().failure(text.errno()));
      }
      return text.bytes().length > 0
          ? Attempt.done(text.bytes())
          : Attempt.failed("the link's text is empty");
    }
  }

  @Override
  public Attempt<OpenedFile> openForRead(Name name) {
    return root().openFile(this, name.raw(), name.under(location));
  }

  @Override
  public Attempt<NewFile> createExclusive(Name name) {
    NativeCall call = libc().call();
    int created =
        libc()
            .openat(
                call,
                fd,
                name.raw(),
                O_WRONLY | O_CREAT | O_EXCL | libc().abi().oNoFollow() | O_CLOEXEC | O_NOCTTY,
                0600);
    if (created < 0) {
      call.close();
      return Attempt.refused(root().failure(-created));
    }
    return Attempt.done(new FdHandle.FdNewFile(libc(), call, created));
  }

  @Override
  public Attempt<Void> symlink(Name name, byte[] target) {
    try (NativeCall call = libc().call()) {
      return root().result(libc().symlinkat(call, target, fd, name.raw()));
    }
  }

  @Override
  public Attempt<Void> rename(Name from, Name to) {
    try (NativeCall call = libc().call()) {
      return root().result(libc().renameat(call, fd, from.raw(), fd, to.raw()));
    }
  }

  @Override
  public Attempt<Void> unlink(Name name) {
    try (NativeCall call = libc().call()) {
      return root().result(libc().unlinkat(call, fd, name.raw(), 0));
    }
  }

  @Override
  public Attempt<Void> removeDirectory(Name name) {
    try (NativeCall call = libc().call()) {
      int removed = libc().unlinkat(call, fd, name.raw(), AT_REMOVEDIR);
      return removed == -EEXIST
          ? Attempt.refused(new HandleFailure.NotEmpty())
          : root().result(removed);
    }
  }

  /**
   * This directory opened readable ("." relative to it: nothing to follow), for what an O_PATH fd
   * cannot do.
   */
  private int readable(NativeCall call) {
    return libc()
        .openat(call, fd, new byte[] {'.'}, O_RDONLY | libc().abi().oDirectory() | O_CLOEXEC, 0);
  }

  @Override
  public Attempt<Void> sync() {
    try (NativeCall call = libc().call()) {
      int readable = readable(call);
      if (readable < 0) {
        return root().result(readable);
      }
      int synced = libc().fsync(call, readable);
      libc().close(call, readable);
      return root().result(synced);
    }
  }

  @Override
  public Attempt<Void> syncFileSystem() {
    try (NativeCall call = libc().call()) {
      int readable = readable(call);
      if (readable < 0) {
        return root().result(readable);
      }
      int synced = libc().syncfs(call, readable);
      libc().close(call, readable);
      return root().result(synced);
    }
  }

  @Override
  public Attempt<List<DirectoryListing.Entry>> list() {
    try (NativeCall call = libc().call()) {
      int readable = readable(call);
      if (readable < 0) {
        return Attempt.refused(root().failure(-readable));
      }
      List<Libc.DirectoryEntry> entries = libc().list(call, readable);
      if (entries == null) {
        return Attempt.failed("cannot list the directory");
      }
      List<DirectoryListing.Entry> listed = new ArrayList<>(entries.size());
      for (Libc.DirectoryEntry entry : entries) {
        listed.add(
            new DirectoryListing.Entry(
                entry.name(), entry.stat().ok() ? entry.stat().stat() : null, entry.linkText()));
      }
      return Attempt.done(listed);
    }
  }

  @Override
  public Attempt<StatInfo> stat() {
    try (NativeCall call = libc().call()) {
      return stat(libc().fstat(call, fd));
    }
  }

  @Override
  public Attempt<Void> chmod(int mode) {
    try (NativeCall call = libc().call()) {
      int readable = readable(call);
      if (readable < 0) {
        return root().result(readable);
      }
      int changed = libc().fchmod(call, readable, mode & 07777);
      libc().close(call, readable);
      return root().result(changed);
    }
  }

  @Override
  public void close() {
    try (NativeCall call = libc().call()) {
      libc().close(call, fd);
    }
  }
}
