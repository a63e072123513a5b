package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An image diff in a real headless Chromium against a real {@code turndiff serve}: a turn that
 * redraws a PNG and adds an SVG whose script would mark the page. The panel shows the PNG's two
 * states and the SVG's one as {@code <img>} elements that the browser loaded (natural sizes above
 * zero, the PNG's exactly as drawn), and the SVG's script never runs: not in the panel, and not
 * when its raw address is opened in a tab of its own (the image policy's {@code sandbox}). A range
 * of two turns that redrew the PNG shows its first before-state and its last after-state.
 */
class PanelImageBrowserIT {

  private static final String SCRIPTED_SVG =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\">"
          + "<script>document.title = 'pwned'; window.__pwned = 1;"
          + " try { parent.__pwned = 1; parent.document.title = 'pwned'; } catch (e) {}"
          + " document.documentElement.setAttribute('data-pwned', '1');</script>"
          + "<rect width=\"40\" height=\"30\" fill=\"teal\"/></svg>\n";

  @TempDir static Path shared;

  private static PanelService service;
  private static PanelBrowser browser;
  private static TestWorkspace workspace;
  private static String turn;
  private static String second;

  @BeforeAll
  static void start() throws Exception {
    service = PanelService.start(shared);
    browser = PanelBrowser.start(shared.resolve("profile"));
    workspace = TestWorkspace.in(shared.resolve("images")).file("pic.png", png(3, 2));
    turn = service.begin(workspace.root(), "conv-images");
    service.snapshot(turn, List.of("pic.png", "logo.svg"));
    Files.write(workspace.resolve("pic.png"), png(5, 4));
    Files.writeString(workspace.resolve("logo.svg"), SCRIPTED_SVG);
    service.finish(turn);
    // a second turn redraws the PNG again: the range of both goes from the first turn's 3x2 to 7x6
    second = service.begin(workspace.root(), "conv-images");
    service.snapshot(second, List.of("pic.png"));
    Files.write(workspace.resolve("pic.png"), png(7, 6));
    service.finish(second);
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

  private static byte[] png(int width, int height) throws Exception {
    BufferedImage picture = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    picture.setRGB(0, 0, 0x3366ff);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(picture, "png", out);
    return out.toByteArray();
  }

  /** The natural sizes of the loaded images of the file shown, side by side, as "W×H". */
  @SuppressWarnings("unchecked")
  private static List<String> naturalSizes() {
    return (List<String>)
        browser.script(
            "return [...document.querySelectorAll('.image-compare img')]"
                + ".map(img => img.dataset.side + ' ' + img.naturalWidth + 'x' + img.naturalHeight);");
  }

  private static void assertNotPwned(String where) {
    assertNotEquals("pwned", browser.driver().getTitle(), where);
    assertNull(browser.script("return window.__pwned ?? null;"), where);
  }

  @Test
  void beforeAndAfterAreImagesAndTheSvgsScriptNeverRuns() throws Exception {
    browser.open(service.loginUrl(workspace.root()));
    browser.awaitText(".card", "conv-images");
    browser.open(service.url() + "/#/t/" + turn);

    browser.await(".file-row[title='pic.png']").click();
    browser.awaitText(".diff-path", "pic.png");
    browser.awaitTrue(
        "document.querySelectorAll('.image-compare img[data-loaded=\"true\"]').length === 2");
    assertEquals(List.of("before 3x2", "after 5x4"), naturalSizes());
    List<String> captions = browser.texts(".image-side figcaption");
    assertTrue(captions.get(0).contains("3 × 2 px"), captions.toString());
    assertTrue(captions.get(1).contains("5 × 4 px"), captions.toString());
    assertTrue(
        (Boolean)
            browser.script(
                "return [...document.querySelectorAll('.image-compare img')]"
                    + ".every(img => img.src.startsWith(location.origin + '/v1/turns/'));"),
        "every image comes from the service's raw route, none from a data: URI");
    browser.screenshot("turn-image-png");

    browser.await(".file-row[title='logo.svg']").click();
    browser.awaitText(".diff-path", "logo.svg");
    browser.awaitTrue(
        "document.querySelectorAll('.image-compare img[data-loaded=\"true\"]').length === 1");
    assertEquals(List.of("after 40x30"), naturalSizes(), "an added file: the after-state alone");
    assertEquals(
        0L,
        browser.script("return document.querySelectorAll('.diff-content svg rect').length;"),
        "the SVG's markup is never in the page");
    browser.screenshot("turn-image-svg");
    assertNotPwned("the panel showing the SVG");
    browser.assertQuiet("the panel showing images");

    // opened as a document of its own, the SVG is sandboxed: its script does not run
    browser.open(
        service.url()
            + "/v1/turns/"
            + turn
            + "/file/raw?side=after&path="
            + URLEncoder.encode("logo.svg", StandardCharsets.UTF_8));
    browser.awaitTrue("document.documentElement.localName === 'svg'");
    assertNotPwned("the SVG opened in a tab");
    assertNull(
        browser.script("return document.documentElement.getAttribute('data-pwned');"),
        "the SVG opened in a tab");
  }

  @Test
  void aRangeShowsTheFirstBeforeStateAndTheLastAfterStateAsImages() throws Exception {
    browser.open(service.loginUrl(workspace.root()));
    browser.awaitText(".card", "conv-images");
    browser.open(service.url() + "/#/r/" + turn + "/" + second + "?file=pic.png");

    browser.awaitText(".diff-path", "pic.png");
    browser.awaitTrue(
        "document.querySelectorAll('.image-compare img[data-loaded=\"true\"]').length === 2");
    assertEquals(
        List.of("before 3x2", "after 7x6"),
        naturalSizes(),
        "the first turn's before-state, the second turn's after-state");
    assertEquals(
        List.of(turn, second),
        browser.script(
            "return [...document.querySelectorAll('.image-compare img')]"
                + ".map(img => decodeURIComponent(new URL(img.src).pathname.split('/')[3]));"),
        "each side from the raw route of the turn that stored it");
    browser.screenshot("range-image-png");
    browser.assertQuiet("the range showing images");
  }
}
