/**
 * Rewinds: plan which paths and directories go back to a turn's before-state, journal the plan in
 * the store, store what is about to be overwritten, then stage, sync and rename each path through
 * the boundary, and report every path not restored with its reason. Of capture it uses only
 * capture.workspace and capture.record. The protocol (planning rules, the decision table, journal
 * states, resume rules, directories and modes) is written out in {@code docs/rewind-protocol.md} at
 * the repository's root.
 */
package io.turndiff.rewind;
