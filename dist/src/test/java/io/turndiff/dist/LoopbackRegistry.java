package io.turndiff.dist;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An npm registry on loopback that serves the {@code .tgz} files this module built, as the public
 * registry would serve them once published: a packument per package ({@code GET /turndiff}, {@code
 * GET /@turndiff%2flinux-x64}) naming its tarball and integrity, the tarballs, and 404 for every
 * other name (the platforms not built yet). So {@code npm install -g turndiff} and {@code npx
 * turndiff} run here exactly as for a user, without the network.
 */
final class LoopbackRegistry implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Map<String, byte[]> documents = new HashMap<>();

  private LoopbackRegistry(HttpServer server) {
    this.server = server;
  }

  static LoopbackRegistry serving(Path packages) throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    LoopbackRegistry registry = new LoopbackRegistry(server);
    try (Stream<Path> files = Files.list(packages)) {
      for (Path tarball : files.filter(file -> file.toString().endsWith(".tgz")).toList()) {
        registry.publish(tarball);
      }
    }
    server.createContext("/", registry::answer);
    server.start();
    return registry;
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  private void publish(Path tarball) throws Exception {
    byte[] bytes = Files.readAllBytes(tarball);
    String file = tarball.getFileName().toString();
    ObjectNode manifest =
        (ObjectNode)
            JSON.readTree(
                CommandRun.ofProcess(
                        new ProcessBuilder(
                            "tar", "-xzOf", tarball.toString(), "package/package.json"))
                    .expect(0)
                    .out());
    manifest
        .putObject("dist")
        .put("tarball", url() + "-/" + file)
        .put(
            "integrity",
            "sha512-"
                + Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-512").digest(bytes)))
        .put("shasum", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes)));
    String name = manifest.get("name").asText();
    String version = manifest.get("version").asText();
    ObjectNode packument = JSON.createObjectNode().put("name", name);
    packument.putObject("dist-tags").put("latest", version);
    packument.putObject("versions").set(version, manifest);
    documents.put("/" + name, JSON.writeValueAsBytes(packument));
    documents.put("/-/" + file, bytes);
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path =
          URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
      byte[] body = documents.get(path);
      if (body == null) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      exchange
          .getResponseHeaders()
          .set(
              "Content-Type",
              path.startsWith("/-/") ? "application/octet-stream" : "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
