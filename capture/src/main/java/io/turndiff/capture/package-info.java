/**
 * Turns: begin one, snapshot the paths a tool is about to change, finish it (after-states, diffs,
 * the directories above), reading the workspace through the boundary and writing one transaction
 * per call into the store. Built on its sub-packages workspace, record and track, which none of
 * them turns back to.
 */
package io.turndiff.capture;
