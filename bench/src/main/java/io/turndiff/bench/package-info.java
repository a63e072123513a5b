/**
 * The benchmarks of turndiff bench: synthetic trees, the turn workload, shadow git as the anchor,
 * the HTTP latency bench. They play the agent and build their trees with the JDK's file API; they
 * live in the bench jar only, never in the product jar.
 */
package io.turndiff.bench;
