package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/turns/{turn}/file/raw} over real HTTP and a real store (docs/http-api.md): real
 * PNG, JPEG and GIF files written by {@link ImageIO} and SVG text, captured by real turns, served
 * with the type their bytes say, the image policy and {@code nosniff}; a file named like an image
 * that is not one is refused, and so are a state not captured, an absence and bad parameters. The
 * bytes served are the store's: the workspace's file changed after the turn changes nothing.
 */
class StoredImageHttpTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final String SCRIPTED_SVG =
      "<?xml version=\"1.0\"?>\n<!-- a drawing -->\n<svg xmlns=\"http://www.w3.org/2000/svg\""
          + " width=\"4\" height=\"4\"><script>document.title='pwned'</script>"
          + "<rect width=\"4\" height=\"4\"/></svg>\n";

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Turndiff turndiff;
  private HttpService service;
  private final HttpClient client = HttpClient.newHttpClient();
  private final List<byte[]> bodies = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    start(BoundaryOptions.defaults());
  }

  private void start(BoundaryOptions boundary) throws Exception {
    turndiff =
        Turndiff.builder(TestStore.fileIn(temp))
            .policy(WorkspacePolicy.anyDirectory())
            .boundary(boundary)
            .open();
    service =
        HttpService.start(
            turndiff,
            ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
  }

  @AfterEach
  void tearDown() {
    service.stop();
    turndiff.close();
    workspace.assertOutsideUnchanged();
    bodies.forEach(
        body ->
            workspace
                .canary()
                .assertNotIn("an HTTP response", new String(body, StandardCharsets.ISO_8859_1)));
  }

  // ---- talking to the service

  private HttpResponse<byte[]> send(String method, String target, String body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(service.url() + target))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    HttpResponse<byte[]> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    bodies.add(response.body());
    return response;
  }

  private HttpResponse<byte[]> bearer(String method, String target, String body) throws Exception {
    return send(method, target, body, "Authorization", "Bearer " + TOKEN);
  }

  private static JsonNode json(int status, HttpResponse<byte[]> response) throws Exception {
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(status, response.statusCode(), response.headers() + "\n\n" + text);
    return Json.mapper().readTree(text);
  }

  private static String quoted(String text) {
    return Json.write(Json.mapper().getNodeFactory().textNode(text), false);
  }

  private static String raw(String turn, String path, String side) {
    return "/v1/turns/"
        + turn
        + "/file/raw?path="
        + URLEncoder.encode(path, StandardCharsets.UTF_8)
        + "&side="
        + side;
  }

  private HttpResponse<byte[]> getRaw(String turn, String path, String side) throws Exception {
    return bearer("GET", raw(turn, path, side), null);
  }

  /**
   * A GET with the panel's cookie and the {@code Sec-Fetch-Site} a browser said, no CSRF header.
   */
  private HttpResponse<byte[]> withCookie(String target, String cookie, String fetchSite)
      throws Exception {
    return send("GET", target, null, "Cookie", cookie, "Sec-Fetch-Site", fetchSite);
  }

  /** A finished turn in which a tool wrote {@code after} to each of {@code files}, in order. */
  private String turnWriting(List<String> files, List<byte[]> after) throws Exception {
    String turn =
        json(
                201,
                bearer(
                    "POST",
                    "/v1/turns",
                    "{\"workspace\":"
                        + quoted(workspace.root().toString())
                        + ",\"session\":\"s\"}"))
            .get("turn")
            .asText();
    StringBuilder paths = new StringBuilder();
    files.forEach(file -> paths.append(paths.isEmpty() ? "" : ",").append(quoted(file)));
    json(200, bearer("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[" + paths + "]}"));
    for (int i = 0; i < files.size(); i++) {
      Files.write(workspace.resolve(files.get(i)), after.get(i));
    }
    json(200, bearer("POST", "/v1/turns/" + turn + "/finish", null));
    return turn;
  }

  private static byte[] image(String format, int width, int height) throws Exception {
    BufferedImage picture = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    picture.setRGB(1, 1, 0xff0000);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTrue(ImageIO.write(picture, format, out), "ImageIO writes " + format);
    return out.toByteArray();
  }

  private static void assertServedAs(String type, byte[] expected, HttpResponse<byte[]> response) {
    assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    assertEquals(type, response.headers().firstValue("Content-Type").orElseThrow());
    assertEquals(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        response.headers().firstValue("Content-Security-Policy").orElseThrow());
    assertEquals(
        List.of("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
        response.headers().allValues("Content-Security-Policy"),
        "the image's policy replaces the page's, it is not added to it");
    assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElseThrow());
    assertEquals(
        "same-origin", response.headers().firstValue("Cross-Origin-Resource-Policy").orElseThrow());
    assertArrayEquals(expected, response.body());
  }

  private static void assertRefused(
      int status, String code, String named, HttpResponse<byte[]> response) throws Exception {
    JsonNode error = json(status, response);
    assertEquals(code, error.get("error").asText(), error.toString());
    assertTrue(error.get("message").asText().contains(named), named + " named in " + error);
    assertEquals(
        "application/json; charset=utf-8",
        response.headers().firstValue("Content-Type").orElseThrow());
  }

  // ---- the tests

  @Test
  void eachImageTypeIsServedByItsBytesWithTheImagePolicy() throws Exception {
    byte[] png = image("png", 3, 2);
    byte[] jpeg = image("jpg", 5, 4);
    byte[] gif = image("gif", 2, 7);
    byte[] svg = SCRIPTED_SVG.getBytes(StandardCharsets.UTF_8);
    // the names lie on purpose: the type comes from the content, never from the name
    List<String> files = List.of("pic.png", "photo.bin", "anim.txt", "logo.svg");
    String turn = turnWriting(files, List.of(png, jpeg, gif, svg));

    assertServedAs("image/png", png, getRaw(turn, "pic.png", "after"));
    assertServedAs("image/jpeg", jpeg, getRaw(turn, "photo.bin", "after"));
    assertServedAs("image/gif", gif, getRaw(turn, "anim.txt", "after"));
    HttpResponse<byte[]> scripted = getRaw(turn, "logo.svg", "after");
    assertServedAs("image/svg+xml", svg, scripted);
    assertEquals(
        "inline; filename=\"logo.svg\"; filename*=UTF-8''logo.svg",
        scripted.headers().firstValue("Content-Disposition").orElseThrow());

    String next = turnWriting(List.of("pic.png"), List.of(image("png", 9, 9)));
    assertServedAs("image/png", png, getRaw(next, "pic.png", "before"));
  }

  @Test
  void theBytesServedAreTheStoresNotTheWorkspaces() throws Exception {
    byte[] png = image("png", 3, 3);
    String turn = turnWriting(List.of("pic.png"), List.of(png));
    byte[] later = image("png", 8, 8);
    Files.write(workspace.resolve("pic.png"), later);

    assertServedAs("image/png", png, getRaw(turn, "pic.png", "after"));
    Files.delete(workspace.resolve("pic.png"));
    assertServedAs("image/png", png, getRaw(turn, "pic.png", "after"));
  }

  @Test
  void contentThatIsNotAnImageIsRefusedWhateverItsName() throws Exception {
    String turn =
        turnWriting(
            List.of("fake.png", "fake.svg"),
            List.of(
                "just text\n".getBytes(StandardCharsets.UTF_8),
                "<?xml version=\"1.0\"?><html><script>x()</script></html>"
                    .getBytes(StandardCharsets.UTF_8)));

    assertRefused(415, "not_an_image", "fake.png", getRaw(turn, "fake.png", "after"));
    assertRefused(415, "not_an_image", "fake.svg", getRaw(turn, "fake.svg", "after"));
  }

  @Test
  void aStateWithoutStoredContentIs404NamingWhy() throws Exception {
    workspace.file("linked.png", image("png", 2, 2));
    workspace.hardlink("twin.png", workspace.resolve("linked.png"));
    String turn =
        turnWriting(
            List.of("new.png", "linked.png"), List.of(image("png", 2, 2), image("png", 4, 4)));

    assertRefused(404, "not_stored", "absence", getRaw(turn, "new.png", "before"));
    assertRefused(404, "not_stored", "not captured", getRaw(turn, "linked.png", "before"));
  }

  @Test
  void anImageOverTheBoundIs413NamingIt() throws Exception {
    // the capture's own limit is below the bound by default: raised here, so that one is stored
    service.stop();
    turndiff.close();
    start(BoundaryOptions.builder().sizeLimit(StoredImageEndpoint.MAX_BYTES + 1).build());
    byte[] png = image("png", 2, 2);
    byte[] over = Arrays.copyOf(png, (int) StoredImageEndpoint.MAX_BYTES + 1);
    byte[] at = Arrays.copyOf(png, (int) StoredImageEndpoint.MAX_BYTES);
    String turn = turnWriting(List.of("over.png", "at.png"), List.of(over, at));

    assertRefused(
        413,
        "too_large",
        String.valueOf(StoredImageEndpoint.MAX_BYTES),
        getRaw(turn, "over.png", "after"));
    assertServedAs("image/png", at, getRaw(turn, "at.png", "after"));
  }

  @Test
  void badParametersAre400NamingThem() throws Exception {
    String turn = turnWriting(List.of("pic.png"), List.of(image("png", 2, 2)));

    assertRefused(400, "bad_request", "'side'", getRaw(turn, "pic.png", "middle"));
    assertRefused(
        400,
        "bad_request",
        "'side'",
        bearer("GET", "/v1/turns/" + turn + "/file/raw?path=pic.png", null));
    assertRefused(
        400,
        "bad_request",
        "'path'",
        bearer("GET", "/v1/turns/" + turn + "/file/raw?side=after", null));
    assertRefused(
        400,
        "bad_request",
        "'size'",
        bearer("GET", raw(turn, "pic.png", "after") + "&size=1", null));
    assertRefused(400, "bad_input", "other.png", getRaw(turn, "other.png", "after"));
    assertRefused(404, "unknown_turn", "nope", getRaw("nope", "pic.png", "after"));
  }

  @Test
  void anImgOfThePanelNeedsItsCookieButNoCsrfHeader() throws Exception {
    byte[] png = image("png", 3, 2);
    String turn = turnWriting(List.of("pic.png"), List.of(png));
    String code = json(201, bearer("POST", "/v1/login-codes", "{}")).get("code").asText();
    HttpResponse<byte[]> login =
        send(
            "POST",
            "/v1/login",
            "{\"code\":\"" + code + "\"}",
            "Content-Type",
            "application/json",
            "Origin",
            service.url());
    json(200, login);
    String cookie = login.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];

    // what Chromium sends for an <img> of the page: the cookie and Sec-Fetch-Site, no CSRF header
    String pic = raw(turn, "pic.png", "after");
    assertServedAs("image/png", png, withCookie(pic, cookie, "same-origin"));
    assertRefused(403, "forbidden_origin", "cross-site", withCookie(pic, cookie, "cross-site"));
    assertRefused(
        401,
        "unauthorized",
        "panel session",
        send("GET", raw(turn, "pic.png", "after"), null, "Sec-Fetch-Site", "same-origin"));
    // without Sec-Fetch-Site it is not known to be a browser's own: the CSRF header is required
    assertRefused(
        403,
        "csrf",
        "X-Turndiff-CSRF",
        send("GET", raw(turn, "pic.png", "after"), null, "Cookie", cookie));
    // and every other data route still requires it
    HttpResponse<byte[]> turnRecords = withCookie("/v1/turns/" + turn, cookie, "same-origin");
    assertRefused(403, "csrf", "X-Turndiff-CSRF", turnRecords);
    assertFalse(new String(turnRecords.body(), StandardCharsets.UTF_8).contains("pic.png"));
  }
}
