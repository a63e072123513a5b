package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Alert;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The panel's login and its defences, in a real headless Chromium against a real {@code turndiff
 * serve}: a tab without the cookie sees no data; the one-time code works once; a page of another
 * origin on the same host (same site, so the cookie goes along) cannot make the service write, nor
 * can the panel's own origin without the anti-CSRF header, checked on disk and in the store; and a
 * hostile file name and content render as text, with no dialog. (PanelHttpTest covers the same
 * rules over raw HTTP.)
 */
class PanelSecurityBrowserIT {

  private static final String HOSTILE_NAME = "<img src=x onerror=alert(1)>.txt";
  private static final String HOSTILE_CONTENT = "</script><script>alert(1)</script>";

  @TempDir static Path shared;

  private static PanelService service;
  private static PanelBrowser browser;
  private static TestWorkspace workspace;
  private static String turn;

  @BeforeAll
  static void start() throws Exception {
    service = PanelService.start(shared);
    browser = PanelBrowser.start(shared.resolve("profile"));
    workspace =
        TestWorkspace.in(shared.resolve("hostile"))
            .file("app.txt", "one\n")
            .file(HOSTILE_NAME, "harmless\n");
    turn = service.begin(workspace.root(), "conv-security");
    service.snapshot(turn, List.of("app.txt", HOSTILE_NAME));
    Files.writeString(workspace.resolve("app.txt"), "two\n");
    Files.writeString(workspace.resolve(HOSTILE_NAME), HOSTILE_CONTENT + "\n");
    service.finish(turn);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (service != null) {
      service.close();
    }
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static void logIn() throws Exception {
    browser.forgetLogin(service.url());
    browser.open(service.loginUrl(workspace.root()));
    browser.awaitText(".card", "conv-security");
  }

  /** What the page's {@code fetch} of {@code path} answers: {@code {status, body}}. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> fetch(
      String path, String method, Map<String, String> headers) {
    return (Map<String, Object>)
        browser.awaitScript(
            "const [path, method, headers] = args;"
                + "const response = await fetch(path, {method, headers, credentials: 'same-origin',"
                + "  body: method === 'POST' ? JSON.stringify({turn: '"
                + turn
                + "'}) : undefined});"
                + "return {status: response.status, body: await response.text()};",
            path,
            method,
            headers);
  }

  @Test
  void withoutTheCookieThePageShowsNoDataAndTheApiAnswers401() throws Exception {
    browser.forgetLogin(service.url());
    browser.open(service.url() + "/#/w/" + encode(workspace.root().toString()));
    browser.awaitText(".login-needed", "Open the panel from turndiff");
    assertTrue(browser.all(".card").isEmpty(), "no session is listed");
    browser.screenshot("login-needed");

    String sessions = "/v1/sessions?workspace=" + encode(workspace.root().toString());
    for (String path : List.of(sessions, "/v1/turns/" + turn, "/v1/events")) {
      Map<String, Object> answer = fetch(path, "GET", Map.of("X-Turndiff-CSRF", "a-guess"));
      assertEquals(401L, answer.get("status"), path + ": " + answer);
      String body = (String) answer.get("body");
      assertTrue(body.contains("\"unauthorized\""), body);
      assertFalse(body.contains("conv-security") || body.contains(turn), body);
    }
    // typed into the address bar: the same refusal
    browser.open(service.url() + "/v1/turns/" + turn);
    String shown = browser.await("body").getText();
    assertTrue(shown.contains("unauthorized"), shown);
    assertFalse(shown.contains("app.txt") || shown.contains("onerror"), shown);
    browser.assertQuiet("a tab without the cookie");
  }

  @Test
  void theOneTimeCodeWorksOnceAndTheCookieIsHttpOnlyAndStrict() throws Exception {
    browser.forgetLogin(service.url());
    String url = service.loginUrl(workspace.root());
    browser.open(url);
    browser.awaitText(".card", "conv-security");
    assertFalse(browser.url().contains("login="), browser.url());
    Cookie cookie = browser.driver().manage().getCookieNamed("turndiff_session_" + service.port());
    assertNotNull(cookie, "the session cookie: " + browser.driver().manage().getCookies());
    assertTrue(cookie.isHttpOnly());
    assertEquals("Strict", cookie.getSameSite());
    assertEquals("/", cookie.getPath());
    assertEquals("", browser.script("return document.cookie;"), "the page's script never sees it");

    // the same link again, in a tab without the session: refused, and no cookie
    browser.forgetLogin(service.url());
    browser.open(url);
    browser.awaitText(".login-reason", "did not work");
    assertNull(browser.driver().manage().getCookieNamed("turndiff_session_" + service.port()));
    assertTrue(browser.all(".card").isEmpty());
    browser.screenshot("login-code-used");
    browser.assertQuiet("a used login link");
  }

  @Test
  void aFreshLoginLinkPastedIntoATabWhoseSessionIsGoneLogsItInWithoutAReload() throws Exception {
    logIn();
    // the session ends under the open tab (a service started again forgets its sessions); what the
    // tab shows is cleared, so that only a route drawn after the new login shows the sessions again
    browser.driver().manage().deleteAllCookies();
    browser.driver().executeCdpCommand("Network.clearBrowserCookies", Map.of());
    browser.script(
        "document.getElementById('main').replaceChildren(); window.thisDocument = 'still';");

    browser.paste(service.loginUrl(workspace.root()));
    browser.awaitText(".card", "conv-security");
    assertEquals(
        "still", browser.script("return window.thisDocument;"), "the page was not loaded again");
    assertFalse(
        browser.url().contains("login="), "the code left the address bar: " + browser.url());
    browser.assertQuiet("a login link pasted into an open tab");
  }

  @Test
  void aPageOfAnotherOriginCannotMakeTheServiceWrite() throws Exception {
    logIn();
    Map<String, Long> rows = StoreRows.countAtRest(service.database());
    Map<String, String> tree = TreeContent.of(workspace.root());
    String target = service.url() + "/v1/rewind";
    // another server on the same host: the same site, so the browser sends the session cookie
    String page =
        """
        <!doctype html><html><body><h1>elsewhere</h1>
        <form id="f" method="post" enctype="text/plain" action="TARGET">
          <input type="hidden" name='{"turn":"TURN","x":"' value='"}'>
        </form>
        <script>
          window.outcomes = [];
          fetch('TARGET', {method: 'POST', mode: 'cors', credentials: 'include',
                           headers: {'Content-Type': 'application/json'}, body: '{"turn":"TURN"}'})
            .then(r => outcomes.push('cors: ' + r.status), e => outcomes.push('cors: blocked'))
            .then(() => fetch('TARGET', {method: 'POST', mode: 'no-cors', credentials: 'include',
                                         headers: {'Content-Type': 'text/plain'}, body: '{"turn":"TURN"}'}))
            .then(r => outcomes.push('no-cors: ' + r.type), e => outcomes.push('no-cors: blocked'))
            .then(() => { document.title = outcomes.join('; '); });
        </script></body></html>
        """
            .replace("TARGET", target)
            .replace("TURN", turn);
    HttpServer elsewhere =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    elsewhere.createContext(
        "/",
        exchange -> {
          byte[] body = page.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    elsewhere.start();
    try {
      browser.open("http://127.0.0.1:" + elsewhere.getAddress().getPort() + "/");
      new WebDriverWait(browser.driver(), Duration.ofSeconds(60))
          .until(d -> d.getTitle().contains("no-cors"));
      String outcomes = browser.driver().getTitle();
      assertTrue(outcomes.contains("cors: blocked"), "the browser's CORS check: " + outcomes);
      // the form: a top-level POST, which the browser sends with the cookie and its Origin
      browser.script("document.getElementById('f').submit();");
      String refused = browser.awaitText("body", "forbidden_origin").getText();
      assertTrue(refused.contains("\"error\":\"forbidden_origin\""), refused);
    } finally {
      elsewhere.stop(0);
    }
    assertEquals(
        rows, StoreRows.countAtRest(service.database()), "nothing was written to the store");
    assertEquals(tree, TreeContent.of(workspace.root()), "nothing was written to the workspace");
    assertEquals("finished", service.turn(turn).get("state").asText());
  }

  @Test
  void thePanelsOwnOriginWithoutTheCsrfHeaderGets403AndChangesNothing() throws Exception {
    logIn();
    Map<String, Long> rows = StoreRows.countAtRest(service.database());
    Map<String, String> tree = TreeContent.of(workspace.root());
    String sessions = "/v1/sessions?workspace=" + encode(workspace.root().toString());
    String csrf = (String) browser.script("return sessionStorage.getItem('turndiff.csrf');");
    assertNotNull(csrf, "the page keeps its anti-CSRF value");

    for (Map<String, String> headers :
        List.of(Map.<String, String>of(), Map.of("X-Turndiff-CSRF", "x".repeat(csrf.length())))) {
      Map<String, Object> rewind =
          fetch("/v1/rewind", "POST", with(headers, "Content-Type", "application/json"));
      assertEquals(403L, rewind.get("status"), rewind.toString());
      assertTrue(((String) rewind.get("body")).contains("\"csrf\""), rewind.toString());
      Map<String, Object> read = fetch(sessions, "GET", headers);
      assertEquals(403L, read.get("status"), read.toString());
      assertFalse(((String) read.get("body")).contains("conv-security"), read.toString());
    }
    assertEquals(
        rows, StoreRows.countAtRest(service.database()), "nothing was written to the store");
    assertEquals(tree, TreeContent.of(workspace.root()), "nothing was written to the workspace");
    assertEquals("finished", service.turn(turn).get("state").asText());

    // the same read with the header is answered: the refusals above were the header's check
    Map<String, Object> read = fetch(sessions, "GET", Map.of("X-Turndiff-CSRF", csrf));
    assertEquals(200L, read.get("status"), read.toString());
    assertTrue(((String) read.get("body")).contains("conv-security"), read.toString());
    browser.assertQuiet("requests without the header");
  }

  private static Map<String, String> with(Map<String, String> headers, String name, String value) {
    Map<String, String> all = new HashMap<>(headers);
    all.put(name, value);
    return all;
  }

  @Test
  void aHostileFileNameAndContentRenderAsTextAndOpenNoDialog() throws Exception {
    logIn();
    browser.script(
        "location.hash = arguments[0];", "#/t/" + encode(turn) + "?file=" + encode(HOSTILE_NAME));
    browser.awaitText(".diff-path", HOSTILE_NAME);
    for (String layout : List.of("u", "s")) {
      browser.press(layout);
      browser.awaitTrue(
          "document.querySelector('.diff-body .d2h-file-wrapper') && document.querySelectorAll("
              + "'.diff-body .d2h-file-side-diff').length === "
              + (layout.equals("s") ? 2 : 0));
      assertEquals(HOSTILE_NAME, browser.await(".diff-path").getText());
      assertTrue(
          browser.await(".file-row[aria-selected=true]").getText().contains(HOSTILE_NAME),
          "the list row");
      String diff =
          (String) browser.script("return document.querySelector('.diff-body').textContent;");
      assertTrue(diff.contains(HOSTILE_CONTENT), "the content, as text: " + diff);
      assertNoInjectedElement();
    }
    browser.screenshot("hostile-name-and-content");
    browser.clickButton("Rewind file…");
    browser.awaitText("#rewind-dialog .plan-list code", HOSTILE_NAME);
    assertNoInjectedElement();
    browser.clickButton("Cancel");
    browser.assertQuiet("the hostile file");

    // the check above can see a dialog: one opened on purpose is found and recorded
    browser.script("setTimeout(() => alert('probe'), 0);");
    Alert alert =
        new WebDriverWait(browser.driver(), Duration.ofSeconds(30))
            .until(ExpectedConditions.alertIsPresent());
    assertEquals("probe", alert.getText());
    alert.accept();
    assertEquals(List.of("alert: probe"), browser.script("return window.__turndiff.dialogs;"));
  }

  /** No element made from the name or the content: no {@code img}, no inline script. */
  private static void assertNoInjectedElement() {
    assertEquals(
        0L,
        browser.script(
            "return document.querySelectorAll('img[src=\"x\"], img[onerror], script:not([src]),"
                + " [onerror]').length;"));
  }
}
