package io.turndiff.server;

import static io.turndiff.server.GateTables.answer;
import static io.turndiff.server.GateTables.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.server.Gate.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The panel files gate alone, over the panel module's files on the class path: only listed files,
 * by GET or HEAD, 304 for their ETag; every {@code /v1/} request passes on.
 */
class PanelFilesGateTest {

  private final PanelFiles files = PanelFiles.load(PanelFilesGateTest.class.getClassLoader());
  private final PanelFilesGate gate = new PanelFilesGate(files);
  private final String etag = files.find("/").orElseThrow().etag();

  @ParameterizedTest(name = "{0} {1} [{2}] -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # method | target                         | headers                                 | answer
          GET      | /                              |                                         | 200
          HEAD     | /                              |                                         | 200
          GET      | /assets/js/main.js             |                                         | 200
          GET      | /                              | If-None-Match: {etag}                   | 304
          GET      | /                              | If-None-Match: "another"                | 200
          GET      | /                              | If-None-Match: a ,, If-None-Match: b    | 400 bad_request
          POST     | /                              | If-None-Match: a ,, If-None-Match: b    | 400 bad_request
          POST     | /                              |                                         | 405
          DELETE   | /nothing                       |                                         | 405
          GET      | /index.html                    |                                         | 404
          GET      | /assets/                       |                                         | 404
          GET      | /%2e%2e/pom.xml                |                                         | 404
          GET      | /assets/js/..%2fmain.js        |                                         | 404
          GET      | /v1                            |                                         | 404
          GET      | /v1/sessions                   |                                         | pass
          POST     | /v1/login                      |                                         | pass
          """)
  void answers(String method, String target, String headers, String expected) {
    String withEtag = headers == null ? null : headers.replace("{etag}", etag);
    assertEquals(expected, answer(gate, request(method, target, withEtag)));
  }

  @Test
  void aFileIsSentWithItsTypeAndEtagAndAHeadWithItsLengthAndNoBody() throws Exception {
    PanelFiles.PanelFile index = files.find("/").orElseThrow();
    ApiResponse get = answered(request("GET", "/", null));
    assertEquals(index.type(), get.contentType());
    assertArrayEquals(index.bytes(), get.body());
    assertEquals(index.etag(), get.headers().get("ETag"));
    assertEquals("no-cache", get.headers().get("Cache-Control"));
    ApiResponse head = answered(request("HEAD", "/", null));
    assertEquals(0, head.body().length);
    assertEquals(Integer.toString(index.bytes().length), head.headers().get("Content-Length"));
    ApiResponse notModified = answered(request("GET", "/", "If-None-Match: " + index.etag()));
    assertEquals(0, notModified.body().length);
    assertEquals(index.etag(), notModified.headers().get("ETag"));
  }

  private ApiResponse answered(RequestView request) throws Exception {
    return ((Verdict.Answer) gate.check(request, Passage.START)).response();
  }
}
