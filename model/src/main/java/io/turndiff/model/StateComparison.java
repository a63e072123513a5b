package io.turndiff.model;

/** How two states of one path compare: proven the same, proven different, or not known. */
public enum StateComparison {
  SAME,
  DIFFERENT,
  /** At least one state was not captured, and nothing known about them proves a difference. */
  UNKNOWN
}
