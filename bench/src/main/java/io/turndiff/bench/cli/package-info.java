/**
 * The bench jar's command line: BenchMain is the product's turndiff with the real bench, bench http
 * and bench jmh in place of the product's placeholder. The options several benchmarks take are
 * picocli mixins declared once, each command giving its own default: {@link GeneratedFiles}, {@link
 * MeasuredTurns}, {@link MeasuredCalls}, {@link Warmup} (checked by {@link CountOption}), {@link
 * Seed} and {@link FiguresOutput} ({@code --json}).
 */
package io.turndiff.bench.cli;
