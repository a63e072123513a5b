package io.turndiff.service;

import io.turndiff.api.Json;
import io.turndiff.api.wire.WireDiscovery;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The discovery file of a running daemon (docs/runtime-hooks.md, "The discovery file"): written
 * after the service listens and its token and header files are in place, atomically, one member a
 * line in a fixed order so that the shell client reads it without a JSON parser.
 */
public record Discovery(
    String instance,
    long pid,
    OptionalLong procStartTicks,
    int port,
    String store,
    Path tokenFile,
    Path headerFile,
    Path logFile,
    String version,
    String program,
    String startedAt) {

  /** More than any discovery file holds: a longer file is not one. */
  private static final int BOUND = 64 * 1024;

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The file's text: exactly the documented layout. */
  public String text() {
    return "{\n"
        + "  \"format\": 1,\n"
        + "  \"instance\": "
        + quoted(instance)
        + ",\n"
        + "  \"pid\": "
        + pid
        + ",\n"
        + "  \"proc_start_ticks\": "
        + (procStartTicks.isPresent() ? Long.toString(procStartTicks.getAsLong()) : "null")
        + ",\n"
        + "  \"port\": "
        + port
        + ",\n"
        + "  \"url\": "
        + quoted(url())
        + ",\n"
        + "  \"store\": "
        + quoted(store)
        + ",\n"
        + "  \"token_file\": "
        + quoted(tokenFile.toString())
        + ",\n"
        + "  \"header_file\": "
        + quoted(headerFile.toString())
        + ",\n"
        + "  \"log_file\": "
        + quoted(logFile.toString())
        + ",\n"
        + "  \"version\": "
        + quoted(version)
        + ",\n"
        + "  \"program\": "
        + (program == null ? "null" : quoted(program))
        + ",\n"
        + "  \"started_at\": "
        + quoted(startedAt)
        + "\n}\n";
  }

  private static String quoted(String text) {
    return Json.write(text, false);
  }

  public void write(Path file) throws IOException {
    ServiceFiles.writePrivately(file, text());
  }

  /**
   * The stores whose service published a discovery file in {@code runDirectory} (every service of
   * this user whose run directory is {@code $XDG_RUNTIME_DIR/turndiff}); a file that cannot be read
   * as one is passed over.
   */
  public static List<String> storesIn(Path runDirectory) throws IOException {
    List<String> stores = new ArrayList<>();
    for (Path file : OwnDirectory.of(runDirectory).list("*.json")) {
      read(file).map(Discovery::store).ifPresent(stores::add);
    }
    return stores;
  }

  /** The discovery file at {@code file}; empty when there is none or it cannot be read as one. */
  public static Optional<Discovery> read(Path file) throws IOException {
    return OwnFile.of(file)
        .readText(BOUND)
        .flatMap(text -> Json.read(text, WireDiscovery.class))
        .filter(read -> read.format() == 1 && read.instance() != null)
        .map(
            read ->
                new Discovery(
                    read.instance(),
                    read.pid(),
                    read.procStartTicks() == null
                        ? OptionalLong.empty()
                        : OptionalLong.of(read.procStartTicks()),
                    read.port(),
                    read.store(),
                    Path.of(read.tokenFile()),
                    Path.of(read.headerFile()),
                    Path.of(read.logFile()),
                    read.version(),
                    read.program(),
                    read.startedAt()));
  }
}
