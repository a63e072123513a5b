package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;

/**
 * The {@code turndiff} command line run in this JVM ({@link Main#run}), with its own output
 * streams.
 */
final class CliRun {

  private CliRun() {}

  static CommandRun inProcess(String... args) {
    return CommandRun.inProcess(Main::run, args);
  }
}
