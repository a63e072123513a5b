/**
 * JMH microbenchmarks: the boundary's cost per file (openat2, the fallback, a plain read as the
 * anchor), one before-snapshot call, a runtime's Pre hook and a whole prompt through the hooks
 * in-process, what a watched snapshot call's live update reads, the store's turn look-ups and a
 * file's blame, run by turndiff bench jmh.
 */
package io.turndiff.bench.jmh;
