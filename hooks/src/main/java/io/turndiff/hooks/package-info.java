/**
 * The runtimes' hooks as they arrive (docs/runtime-hooks.md): {@link
 * io.turndiff.hooks.RuntimeHooks} reads each runtime's own payload with that runtime's mapper
 * ({@code ClaudeCodeHooks}, {@code CodexHooks}, {@code GeminiHooks}, {@code OpenCodeHooks}) into a
 * {@code HookCall}, and the one turn state machine ({@code HookTurns}) makes it a begin, a snapshot
 * or a finish through the {@link io.turndiff.api.Turndiff} facade. The HTTP service is a thin
 * adapter over it; {@link io.turndiff.hooks.install} is the other half of the feature, the
 * runtimes' settings that make them call.
 */
package io.turndiff.hooks;
