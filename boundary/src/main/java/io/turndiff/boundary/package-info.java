/**
 * Every file-system effect on a workspace: reads, writes, deletes, scans and directory modes, each relative to a
 * root held open (openat2 with RESOLVE_BENEATH, else a SecureDirectoryStream walk), never following a link out of
 * the workspace; and which directories may be roots at all. No other package touches java.nio.file.Files,
 * FileChannel or the libc calls for a workspace path (the ArchitectureTest holds the few named exceptions, none of
 * them a workspace's).
 */
package io.turndiff.boundary;
