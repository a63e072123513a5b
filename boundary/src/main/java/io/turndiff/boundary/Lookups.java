package io.turndiff.boundary;

import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Optional;

/**
 * Metadata of workspace paths, each a closure over the {@link Walker}: nothing is opened for
 * reading, nothing followed.
 */
final class Lookups {

  private final Walker walker;

  Lookups(Walker walker) {
    this.walker = walker;
  }

  StatInfo rootStat() {
    return walker.root().rootStat();
  }

  Lookup lstat(WorkspacePath path) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        (parent, name) ->
            switch (parent.lstat(name)) {
              case Attempt.Done<StatInfo>(StatInfo stat)
                  when stat.device() != rootStat().device() ->
                  new Lookup.OtherMount();
              case Attempt.Done<StatInfo>(StatInfo stat) -> new Lookup.Found(stat);
              case Attempt.Refused<StatInfo>(HandleFailure why) -> lookupOf(why);
            },
        refusal -> lookupOf(refusal.why()));
  }

  /** The text of the symlink at {@code path}, or null when it could not be read. */
  byte[] readLink(WorkspacePath path) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        (parent, name) ->
            parent.readLink(name) instanceof Attempt.Done<byte[]>(byte[] text) ? text : null,
        refusal -> null);
  }

  /**
   * Whether the symlink at {@code path} finally leads to a directory, as the kernel resolves it
   * (every link on the way followed before a {@code ..} applies): a stat that follows the link,
   * relative to its parent held open from the root. Metadata only: nothing is opened, listed or
   * read.
   */
  boolean leadsToDirectory(WorkspacePath path) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        (parent, name) ->
            parent.statFollowing(name) instanceof Attempt.Done<StatInfo>(StatInfo stat)
                && stat.type() == FileType.DIRECTORY,
        refusal -> false);
  }

  /**
   * The names in a directory ({@code empty} for the root) with their {@code lstat}, nothing
   * followed.
   */
  DirectoryListing list(Optional<WorkspacePath> directory) {
    return list(directory, Optional.empty());
  }

  /**
   * As {@link #list(Optional)}, the directory first watched by {@code watch} through the handle the
   * listing uses, so that no change after the listing goes unseen.
   */
  DirectoryListing list(Optional<WorkspacePath> directory, Optional<TreeWatch> watch) {
    return walker.inDirectory(
        directory,
        handle -> listed(handle, directory, watch),
        refusal -> new DirectoryListing.NotListed(lookupOf(refusal.why())));
  }

  /** A listing whose directory is still open, for the walk to open its subdirectories in. */
  record OpenListing(DirectoryListing listing, Optional<DirectoryHandle> directory) {}

  /**
   * As {@link #list(Optional, Optional)}, for a walk that keeps directories open: {@code directory}
   * is opened in {@code parent} (the directory the walk found it in, still open) by its last name,
   * or from the root without one, and handed back open with a listing (the caller closes it); a
   * directory that could not be listed is closed here.
   */
  OpenListing listKeptOpen(
      Optional<WorkspacePath> directory,
      Optional<DirectoryHandle> parent,
      Optional<TreeWatch> watch) {
    return walker.inDirectoryKeptOpen(
        directory,
        parent,
        handle -> {
          DirectoryListing listing = listed(handle, directory, watch);
          if (listing instanceof DirectoryListing.Listed) {
            return new OpenListing(listing, Optional.of(handle));
          }
          handle.close();
          return new OpenListing(listing, Optional.empty());
        },
        why -> new OpenListing(new DirectoryListing.NotListed(lookupOf(why)), Optional.empty()));
  }

  /**
   * Opens {@code directory} (the root when empty) in {@code parent} by its last name, or from the
   * root without one, for the caller to close.
   */
  Attempt<DirectoryHandle> openDirectory(
      Optional<WorkspacePath> directory, Optional<DirectoryHandle> parent) {
    return walker.inDirectoryKeptOpen(directory, parent, Attempt::done, Attempt::refused);
  }

  private static DirectoryListing listed(
      DirectoryHandle handle, Optional<WorkspacePath> directory, Optional<TreeWatch> watch) {
    watch.ifPresent(tree -> tree.add(handle, directory, false));
    return switch (handle.list()) {
      case Attempt.Done<List<DirectoryListing.Entry>>(var entries) ->
          new DirectoryListing.Listed(entries);
      case Attempt.Refused<List<DirectoryListing.Entry>>(HandleFailure why) ->
          new DirectoryListing.NotListed(lookupOf(why));
    };
  }

  /** Watches a git directory (never listed by a scan) for its index being replaced. */
  void watchGitDirectory(WorkspacePath directory, TreeWatch watch) {
    walker.inDirectory(
        Optional.of(directory),
        handle -> {
          watch.add(handle, Optional.of(directory), true);
          return null;
        },
        refusal -> null);
  }

  /** The {@code lstat} of exactly {@code path} in its parent held open, or why there is none. */
  Attempt<StatInfo> lstatInParent(WorkspacePath path) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        (parent, name) -> parent.lstat(name),
        refusal -> Attempt.refused(refusal.why()));
  }

  static Lookup lookupOf(HandleFailure why) {
    return switch (why) {
      case HandleFailure.Missing missing -> new Lookup.Missing();
      case HandleFailure.NotDirectory notDirectory -> new Lookup.Missing();
      case HandleFailure.Symlink symlink -> new Lookup.LinkInPath();
      case HandleFailure.OtherMount otherMount -> new Lookup.OtherMount();
      default -> new Lookup.Failed(why.describe());
    };
  }
}
