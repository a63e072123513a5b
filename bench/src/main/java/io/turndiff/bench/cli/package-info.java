/**
 * The bench jar's command line: BenchMain is the product's turndiff with the real bench, bench http
 * and bench jmh in place of the product's placeholder.
 */
package io.turndiff.bench.cli;
