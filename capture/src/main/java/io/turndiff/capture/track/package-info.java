/**
 * Tracked workspaces: an index with a content baseline, the scan that compares the tree with it (ignore rules,
 * git's index, budgets), and the changes a turn's finish records as detected by scan. It reaches workspaces
 * through capture.workspace and never depends on io.turndiff.capture.
 */
package io.turndiff.capture.track;
