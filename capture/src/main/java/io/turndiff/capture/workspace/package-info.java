/**
 * The workspace handles a process holds: a bounded number of roots open at once, borrowed and given
 * back, reopened only when the root is still the directory the store first recorded. What capture,
 * tracking and rewind share to reach a workspace.
 */
package io.turndiff.capture.workspace;
