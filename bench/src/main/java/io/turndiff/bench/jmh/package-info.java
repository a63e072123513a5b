/**
 * JMH microbenchmarks: the boundary's cost per file (openat2, the fallback, a plain read as the
 * anchor) and one before-snapshot call, run by turndiff bench jmh.
 */
package io.turndiff.bench.jmh;
