package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How an image is told by its first bytes; the SVG's text check at its edges. */
class ImageTypeTest {

  private static Optional<ImageType> of(String text) {
    return ImageType.of(text.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <svg xmlns="http://www.w3.org/2000/svg"/>                       | SVG
          '  \n<svg>'                                                     | SVG
          \uFEFF<svg width="1">                                           | SVG
          <?xml version="1.0"?><!DOCTYPE svg><svg\tviewBox="0 0 1 1">     | SVG
          <!-- drawn --><svg/>                                            | SVG
          <svgx>                                                          | NONE
          <svg                                                            | NONE
          <html><svg></svg></html>                                        | NONE
          <?xml version="1.0"?><html/>                                    | NONE
          GIF89a...                                                       | GIF
          GIF87a                                                          | GIF
          GIF88a                                                          | NONE
          plain text                                                      | NONE
          """)
  void tellsByContent(String content, String expected) {
    assertEquals(expected, of(content).map(Enum::name).orElse("NONE"));
  }

  @Test
  void theSvgRootMustStartWithinTheFirstKibibyte() {
    String prologue = "<?xml version=\"1.0\"?><!--";
    String near = prologue + "x".repeat(ImageType.SVG_PROLOGUE_BYTES - prologue.length() - 10);
    assertEquals(Optional.of(ImageType.SVG), of(near + "--><svg/>"));
    assertEquals(Optional.empty(), of(near + "x".repeat(20) + "--><svg/>"));
  }

  @Test
  void magicNumbersNeedTheirWholeSignature() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0};
    assertEquals(Optional.of(ImageType.PNG), ImageType.of(png));
    assertEquals(Optional.empty(), ImageType.of(Arrays.copyOf(png, 7)));
    assertEquals(
        Optional.of(ImageType.JPEG),
        ImageType.of(new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff}));
    assertEquals(Optional.empty(), ImageType.of(new byte[] {(byte) 0xff, (byte) 0xd8}));
    assertEquals(Optional.empty(), ImageType.of(new byte[0]));
  }
}
