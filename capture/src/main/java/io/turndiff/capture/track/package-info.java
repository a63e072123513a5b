/**
 * Tracked workspaces: an index with a content baseline, the scan that compares the tree with it
 * (ignore rules, git's index, budgets), and the changes a turn's finish records as detected by
 * scan. A stat proves a path unchanged only through {@link io.turndiff.model.StatProof} (the
 * racy-timestamp rule, measured). It reaches workspaces through capture.workspace and never depends
 * on io.turndiff.capture. The design: {@code docs/tracking.md} in the repository.
 */
package io.turndiff.capture.track;
