/**
 * The vocabulary and the values every module shares: workspace paths and the paths agents give,
 * snapshots and the kinds of files, changes and turns, ids, and the errors a request can meet.
 * Values only: nothing here opens a file, touches the store or depends on another turndiff package.
 */
package io.turndiff.model;
