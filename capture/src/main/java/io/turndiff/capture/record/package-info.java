/**
 * Recording file changes in the store: a before-state as a snapshot, a completed change with its
 * after-state, kind, line counts and stored diff, and content streamed into blobs whatever its
 * size. Agent turns, scans and rewind turns all record through it.
 */
package io.turndiff.capture.record;
