/**
 * The review queries: the sessions of a workspace, the turns of a session, a turn's records, a turn
 * or a stretch of turns as a patch, a path's history. Every answer comes from the store; nothing
 * here reads a workspace.
 */
package io.turndiff.review;
