/**
 * Git-style patches of two recorded states (text hunks from a histogram diff bounded by the edit,
 * git binary patches, mode lines, and comment lines for a side that was not captured), and the
 * reverse merge a rewind uses. Pure functions of the bytes and snapshots they are given.
 */
package io.turndiff.diff;
