/**
 * Every file of turndiff's own, never a workspace's (those go through {@code
 * io.turndiff.boundary}): with the boundary, the one package that touches files, and ArchUnit's
 * {@code ArchitectureTest.onlyTheBoundaryTouchesFiles} keeps it so. What it serves, and why none of
 * it is a workspace's:
 *
 * <ul>
 *   <li>the store's own files: the SQLite file's creation (whole, then linked to its name, in a
 *       folder made {@code 0700}) and checks (its header, whether it and its folder can be
 *       written), the migration lock, the record of its last clean check, the copy of sqlite-jdbc's
 *       native library beside the jar, a PostgreSQL store's password file (which the user names,
 *       read only when its owner alone may read it), and this machine's host id ({@code
 *       /etc/machine-id} or the kept {@code host-id});
 *   <li>the per-user service's: its token file, its run directory (made {@code 0700} and refused
 *       unless it is the user's own), discovery files, locks, log, the launcher it is spawned
 *       through, the real path of the jar it runs, and what it reads of {@code /proc} ({@link
 *       io.turndiff.ownfiles.Proc});
 *   <li>the user's runtime settings files {@code turndiff hooks} edits in the user's home, with
 *       turndiff's record and backups of them (a workspace's settings go through the boundary), and
 *       the runtimes' own session files there, of which {@code hooks status} and {@code doctor}
 *       read names, owners and times (and of Codex's the first line, bounded), never following a
 *       link, as evidence that a runtime worked with no hook arriving;
 *   <li>turndiff's own installed program and folders, which {@code turndiff uninstall} removes
 *       without following a link, the log of a service {@code turndiff open} starts, the demo's
 *       temporary folder (the demo's edits in it go through the boundary's write protocol, as the
 *       agent's would), and the patch series {@code turndiff export --patch} writes where the user
 *       names, never over an existing file.
 * </ul>
 *
 * <p>The types, each one job over a name as Go's {@code os.Root} is over its handle: {@link
 * io.turndiff.ownfiles.OwnFile} (what is looked at and read of one file, reads bounded), {@link
 * io.turndiff.ownfiles.OwnDirectory} (a directory made with its mode, listed, removed without
 * following a link), {@link io.turndiff.ownfiles.LockFile} (an advisory lock), {@link
 * io.turndiff.ownfiles.Proc} and {@link io.turndiff.ownfiles.AtomicFile}, the one way a file is
 * written whole: under a temporary name, synced, then renamed (or linked) into place. ArchUnit
 * ({@code ArchitectureTest.ownFilesAreWrittenOneWay}) keeps the steps of that protocol in this
 * package and the boundary.
 */
package io.turndiff.ownfiles;
