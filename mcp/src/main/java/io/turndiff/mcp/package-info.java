/**
 * {@code turndiff mcp}: turndiff for the agent itself, a Model Context Protocol server over stdio
 * (the official Java SDK) whose tools list the agent's own session's turns, show and diff one, and
 * rewind one. A rewind is a plan first, with a token bound to the plan and to the state of every
 * file it names ({@link PlanToken}); the same call with that token applies it only while the files
 * are still as planned, never forced, and it stays undoable (the rewind is a turn of the session).
 * The server serves one session ({@link AgentSession}) and refuses every other session's turn.
 *
 * <p>Standard output is the protocol: nothing else is written there. Bad input is a tool error
 * naming it, never a stack trace. The store is opened for each call and closed after it, so the
 * server holds nothing between an agent's calls.
 */
package io.turndiff.mcp;
