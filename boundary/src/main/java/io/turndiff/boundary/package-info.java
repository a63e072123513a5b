/**
 * Every file-system effect on a workspace: reads, writes, deletes, scans and directory modes, each
 * relative to a root held open (openat2 with RESOLVE_BENEATH, else openat with O_NOFOLLOW per
 * component, else a SecureDirectoryStream walk), never following a link out of the workspace; and
 * which directories may be roots at all. The handles differ; the walk ({@code Walker}), the read
 * pipeline ({@code FileReader}), what a path's state is ({@code Observer}) and the write protocol
 * ({@code WriteProtocol}) are written once over them, and {@code WorkspaceBoundary} only opens,
 * walks and delegates. No other package touches java.nio.file.Files, FileChannel or the libc calls
 * for a workspace path (the ArchitectureTest holds the few named exceptions, none of them a
 * workspace's). The policy, the design and what it does not protect: docs/boundary.md.
 */
package io.turndiff.boundary;
