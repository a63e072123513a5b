package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One headless Chromium (Debian's, through its own chromedriver) for a test class, at 1280×800:
 * every page it opens records its dialogs, script errors and CSP violations, and screenshots go to
 * {@code target/panel-screenshots/} as test output.
 */
final class PanelBrowser implements AutoCloseable {

  static final int WIDTH = 1280;
  static final int HEIGHT = 800;

  /** Generous: two cores shared with other builds make a page take seconds, never a minute. */
  private static final Duration WAIT = Duration.ofSeconds(60);

  /**
   * Runs before any script of every document (DevTools scripts are not bound by the page's CSP):
   * keeps what a test must see did not happen. alert, confirm and prompt still open their dialog.
   */
  private static final String WATCH =
      """
      window.__turndiff = {dialogs: [], errors: [], violations: []};
      for (const name of ['alert', 'confirm', 'prompt']) {
        const original = window[name];
        window[name] = function (...args) {
          window.__turndiff.dialogs.push(name + ': ' + String(args[0]));
          return original.apply(this, args);
        };
      }
      addEventListener('error', e => window.__turndiff.errors.push(String(e.message)));
      addEventListener('unhandledrejection', e => window.__turndiff.errors.push(String(e.reason)));
      document.addEventListener('securitypolicyviolation',
          e => window.__turndiff.violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample));
      // the first screen painted: the frame after the panel marks its list and first diff drawn
      new MutationObserver((changes, observer) => {
        if (!document.body?.dataset.firstScreen) return;
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          window.__turndiff.painted = performance.now();
        }));
      }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-first-screen']});
      """;

  private final ChromeDriver driver;
  private final Path screenshots;

  private PanelBrowser(ChromeDriver driver, Path screenshots) {
    this.driver = driver;
    this.screenshots = screenshots;
  }

  /** Starts Chromium with a fresh profile in {@code profile}. */
  static PanelBrowser start(Path profile) throws IOException {
    DebianChromium.ensureInstalled();
    Path screenshots = Path.of(System.getProperty("panel.screenshots", "target/panel-screenshots"));
    Files.createDirectories(screenshots);
    // both paths named: Selenium Manager never runs (and SE_OFFLINE forbids it to download)
    System.setProperty("webdriver.chrome.driver", DebianChromium.DRIVER.toString());
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(DebianChromium.BROWSER.toFile())
            .addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--force-device-scale-factor=1",
                "--user-data-dir=" + profile,
                "--window-size=" + WIDTH + "," + HEIGHT);
    // a dialog stays open for the test to find, instead of being dismissed on the next command
    options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.IGNORE);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(DebianChromium.DRIVER.toFile())
            .usingAnyFreePort()
            .withLogFile(new File(screenshots.toFile(), "chromedriver.log"))
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.executeCdpCommand(
        "Emulation.setDeviceMetricsOverride",
        Map.of("width", WIDTH, "height", HEIGHT, "deviceScaleFactor", 1, "mobile", false));
    driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", WATCH));
    return new PanelBrowser(driver, screenshots);
  }

  ChromeDriver driver() {
    return driver;
  }

  /**
   * Loads {@code url} in a new document: an address that differs from the current one only in its
   * fragment would otherwise just move within the page (and a login link would not log in).
   */
  void open(String url) {
    if (url.contains("#")) {
      driver.get("about:blank");
    }
    driver.get(url);
  }

  /**
   * Goes to {@code url} as an address pasted into the tab's address bar: one that differs from the
   * current one only in its fragment moves within the page, which is not loaded again.
   */
  void paste(String url) {
    driver.get(url);
  }

  /**
   * Ends the tab's login on {@code origin}: its cookies and its sessionStorage (where the page
   * keeps the anti-CSRF value) are gone, as in a new browser.
   */
  void forgetLogin(String origin) {
    driver.get(origin + "/not-a-page");
    script("sessionStorage.clear(); localStorage.clear();");
    driver.manage().deleteAllCookies();
    driver.executeCdpCommand("Network.clearBrowserCookies", Map.of());
  }

  /** As {@link #open}, failing when the page has not loaded within {@code limit}. */
  void openWithin(String url, Duration limit) {
    driver.manage().timeouts().pageLoadTimeout(limit);
    try {
      open(url);
    } finally {
      driver.manage().timeouts().pageLoadTimeout(Duration.ofMinutes(5));
    }
  }

  /** The address bar. */
  String url() {
    return driver.getCurrentUrl();
  }

  /** The first element {@code css} finds once it is visible. */
  WebElement await(String css) {
    return waiting().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
  }

  /** A wait that looks again when the page redrew what it looked at, or had not defined it yet. */
  private WebDriverWait waiting() {
    return waiting(WAIT);
  }

  private WebDriverWait waiting(Duration limit) {
    WebDriverWait wait = new WebDriverWait(driver, limit);
    wait.ignoring(StaleElementReferenceException.class).ignoring(JavascriptException.class);
    return wait;
  }

  /** Waits until the page's {@code condition} (a JavaScript expression) is truthy. */
  void awaitTrue(String condition) {
    awaitWithin(condition, WAIT);
  }

  /** As {@link #awaitTrue}, within {@code limit}. */
  void awaitWithin(String condition, Duration limit) {
    waiting(limit)
        .withMessage(() -> "the page never had: " + condition)
        .until(d -> Boolean.TRUE.equals(script("return !!(" + condition + ");")));
  }

  /** Waits until {@code css} finds an element whose text contains {@code text}, and returns it. */
  WebElement awaitText(String css, String text) {
    return waiting()
        .withMessage(() -> "no '" + css + "' holding '" + text + "'")
        .until(
            d ->
                d.findElements(By.cssSelector(css)).stream()
                    .filter(e -> e.getText().contains(text))
                    .findFirst()
                    .orElse(null));
  }

  /** Waits until nothing is loading. */
  void settle() {
    awaitTrue("!document.querySelector('.state-loading') && document.readyState === 'complete'");
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /**
   * Texts of the elements {@code css} finds. The panel re-renders a list when an event of the store
   * arrives (a turn's begin, then its finish), so an element found a moment before can be replaced
   * before its text is read; then the elements are found again, as a user's next look would.
   */
  List<String> texts(String css) {
    for (int attempt = 1; ; attempt++) {
      try {
        return all(css).stream().map(WebElement::getText).toList();
      } catch (StaleElementReferenceException replaced) {
        if (attempt == 5) {
          throw replaced;
        }
      }
    }
  }

  Object script(String javascript, Object... arguments) {
    return ((JavascriptExecutor) driver).executeScript(javascript, arguments);
  }

  /**
   * Runs {@code javascript} as the body of an async function and returns what it resolves to (its
   * {@code return}).
   */
  Object awaitScript(String javascript, Object... arguments) {
    return ((JavascriptExecutor) driver)
        .executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + "(async (...args) => {"
                + javascript
                + "})(...Array.from(arguments).slice(0, -1))"
                + ".then(done, e => done('script failed: ' + e));",
            arguments);
  }

  /** Types keys into the page, not into a field (a focused field keeps them): the shortcuts. */
  void press(CharSequence keys) {
    script(
        "const e = document.activeElement;"
            + "if (e && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName)) e.blur();");
    new Actions(driver).sendKeys(keys).perform();
  }

  /** Clicks the first button whose text contains {@code text}. */
  void clickButton(String text) {
    awaitText("button", text).click();
  }

  /**
   * Fails when the current document opened a dialog, raised a script error or broke its CSP: the
   * dialog is read from the browser itself, as well as from the page's record.
   */
  void assertQuiet(String where) {
    try {
      String text = driver.switchTo().alert().getText();
      throw new AssertionError(where + ": a dialog is open: " + text);
    } catch (NoAlertPresentException expected) {
      // none open
    }
    assertEquals(List.of(), script("return window.__turndiff.dialogs;"), where + ": dialogs");
    assertEquals(List.of(), script("return window.__turndiff.errors;"), where + ": script errors");
    assertEquals(
        List.of(), script("return window.__turndiff.violations;"), where + ": CSP violations");
  }

  /** Saves what the window shows as {@code target/panel-screenshots/NAME.png}, 1280×800. */
  Path screenshot(String name) {
    settle();
    byte[] png = driver.getScreenshotAs(OutputType.BYTES);
    try {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
      assertTrue(
          image.getWidth() == WIDTH && image.getHeight() == HEIGHT,
          name + ": " + image.getWidth() + "×" + image.getHeight());
      Path file = screenshots.resolve(name + ".png");
      Files.write(file, png);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
