/**
 * Rewinds: plan which paths and directories go back to a turn's before-state, journal the plan in the store, store
 * what is about to be overwritten, then stage, sync and rename each path through the boundary, and report every
 * path not restored with its reason. Of capture it uses only capture.workspace and capture.record.
 */
package io.turndiff.rewind;
