/**
 * How turndiff writes a file of its own, never a workspace's (those go through {@code
 * io.turndiff.boundary}): the store's records beside it, this machine's host id, the copy of
 * sqlite-jdbc's library, the service's token and discovery files, the hooks' ledger and the user's
 * runtime settings. Each is written whole under a temporary name and renamed (or linked) into place
 * by {@link io.turndiff.ownfiles.AtomicFile}, the one way to do so: ArchUnit ({@code
 * ArchitectureTest}) keeps the steps of that protocol in this package and the boundary.
 */
package io.turndiff.ownfiles;
