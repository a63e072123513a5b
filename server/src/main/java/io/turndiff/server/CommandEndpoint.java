package io.turndiff.server;

import io.turndiff.api.Turndiff;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /v1/commands}: one of the command line's read-only commands, run by {@link
 * OneShotCommands} for the command client (the hook client's {@code --command} mode, in C).
 *
 * <p>The request's body is a list of NUL-terminated {@code name=value} fields, so that any argument
 * a shell can pass arrives as it is, with no quoting to get wrong in C: {@code cwd} and {@code
 * store} once each, {@code tty} once ({@code 0} or {@code 1}), then any number of {@code env}
 * ({@code NAME=VALUE}) and {@code arg} fields, the arguments in order. The answer to a command that
 * ran is {@code 200} with its standard output and then its standard error as the body, the length
 * of the first in {@code Turndiff-Stdout-Bytes}, the exit code in {@code Turndiff-Exit}, and for a
 * view that goes through a pager, {@code Turndiff-Pager} (the command) and {@code
 * Turndiff-Pager-From} (the first byte of the output it is given). A command the service declines
 * is {@code 409 declined}, and the client runs it itself.
 */
final class CommandEndpoint {

  static final String PATH = "/v1/commands";

  private final OneShotCommands commands;
  private final Turndiff turndiff;

  CommandEndpoint(OneShotCommands commands, Turndiff turndiff) {
    this.commands = commands;
    this.turndiff = turndiff;
  }

  ApiResponse handle(ApiRequest request) {
    request.requireBearer(PATH);
    OneShotCommands.Invocation invocation = invocation(request.rawBody());
    return switch (commands.run(invocation, turndiff)) {
      case OneShotCommands.Outcome.Declined(String reason) ->
          ApiResponse.error(409, "declined", reason);
      case OneShotCommands.Outcome.Ran ran -> answer(ran);
    };
  }

  private static ApiResponse answer(OneShotCommands.Outcome.Ran ran) {
    byte[] body = new byte[ran.out().length + ran.err().length];
    System.arraycopy(ran.out(), 0, body, 0, ran.out().length);
    System.arraycopy(ran.err(), 0, body, ran.out().length, ran.err().length);
    ApiResponse response =
        new ApiResponse(200, "application/octet-stream", body)
            .withHeader("Turndiff-Exit", Integer.toString(ran.exitCode()))
            .withHeader("Turndiff-Stdout-Bytes", Integer.toString(ran.out().length));
    if (ran.pager().isPresent()) {
      OneShotCommands.Paged paged = ran.pager().get();
      response =
          response
              .withHeader("Turndiff-Pager", paged.command())
              .withHeader("Turndiff-Pager-From", Integer.toString(paged.from()));
    }
    return response;
  }

  /** The request's fields; a malformed one is a 400 naming it. */
  static OneShotCommands.Invocation invocation(byte[] body) {
    String cwd = null;
    String store = null;
    String tty = null;
    List<String> arguments = new ArrayList<>();
    Map<String, String> environment = new HashMap<>();
    int start = 0;
    for (int end = 0; end < body.length; end++) {
      if (body[end] != 0) {
        continue;
      }
      String field = new String(body, start, end - start, StandardCharsets.UTF_8);
      start = end + 1;
      int equals = field.indexOf('=');
      String name = equals < 0 ? field : field.substring(0, equals);
      String value = equals < 0 ? null : field.substring(equals + 1);
      switch (name) {
        case "cwd" -> cwd = once(name, cwd, value);
        case "store" -> store = once(name, store, value);
        case "tty" -> tty = once(name, tty, value);
        case "arg" -> arguments.add(present(name, value));
        case "env" -> {
          String variable = present(name, value);
          int split = variable.indexOf('=');
          if (split <= 0) {
            throw bad("an env field is NAME=VALUE");
          }
          environment.put(variable.substring(0, split), variable.substring(split + 1));
        }
        default -> throw bad("unknown field '" + name + "'");
      }
    }
    if (start != body.length) {
      throw bad("the last field is not NUL-terminated");
    }
    return new OneShotCommands.Invocation(
        arguments,
        absolute("cwd", cwd),
        absolute("store", store),
        switch (Optional.ofNullable(tty).orElse("")) {
          case "0" -> false;
          case "1" -> true;
          default -> throw bad("tty is 0 or 1");
        },
        environment);
  }

  private static String once(String name, String seen, String value) {
    if (seen != null) {
      throw bad(name + " is given twice");
    }
    return present(name, value);
  }

  private static String present(String name, String value) {
    if (value == null) {
      throw bad("the field " + name + " has no value");
    }
    return value;
  }

  private static Path absolute(String name, String value) {
    if (value == null || !value.startsWith("/")) {
      throw bad(name + " is an absolute path");
    }
    return Path.of(value);
  }

  private static ApiError bad(String message) {
    return new ApiError(400, "bad_request", PATH + ": " + message);
  }
}
