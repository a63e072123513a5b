package io.turndiff.cli;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Which commands a call needs picocli to build: the one its first command word names, none for a
 * bare {@code --version}, every one otherwise ({@code --help}'s listing, a missing or misspelt
 * command and its suggestions). Picocli builds a command by reflecting over it and its options;
 * building all of them costs a one-shot call more than the call itself.
 *
 * <p>The command word is found as picocli would find it: the root's own options (the store options,
 * which come before the command as git's {@code -C} does) are skipped with their values. Anything
 * this cannot read for sure (an option the root does not have, {@code --}) takes every command, so
 * picocli parses exactly what it parsed before.
 */
final class CommandChoice {

  private static final Set<String> VERSION = Set.of("-V", "--version");

  private CommandChoice() {}

  /**
   * The commands out of {@code commands} that {@code args} may reach, given the root command {@code
   * root} (without its subcommands).
   */
  static List<Class<?>> needed(CommandSpec root, List<Class<?>> commands, String[] args) {
    boolean onlyVersion = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("-") || arg.equals("-")) {
        return named(arg, commands).map(List::<Class<?>>of).orElse(commands);
      }
      int equals = arg.indexOf('=');
      OptionSpec option = root.findOption(equals < 0 ? arg : arg.substring(0, equals));
      if (option == null || arg.equals("--")) {
        return commands;
      }
      if (VERSION.contains(arg)) {
        onlyVersion = true;
      } else if (option.usageHelp()) {
        return commands;
      } else if (equals < 0 && option.arity().max() > 0) {
        i++; // the option's value, whatever it looks like
      }
    }
    return onlyVersion ? List.of() : commands;
  }

  /** The command whose name or alias is {@code word}. */
  private static Optional<Class<?>> named(String word, List<Class<?>> commands) {
    for (Class<?> command : commands) {
      Command annotation = command.getAnnotation(Command.class);
      if (annotation.name().equals(word) || List.of(annotation.aliases()).contains(word)) {
        return Optional.of(command);
      }
    }
    return Optional.empty();
  }
}
