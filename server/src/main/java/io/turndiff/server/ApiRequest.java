package io.turndiff.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.turndiff.api.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One request as the endpoints see it: path parameters, query parameters and the JSON body. */
final class ApiRequest {

  private final Map<String, String> pathParameters;
  private final Map<String, List<String>> query;
  private final byte[] body;
  private final EarlyHeaders early;
  private JsonNode json;

  ApiRequest(Map<String, String> pathParameters, Map<String, List<String>> query, byte[] body, EarlyHeaders early) {
    this.pathParameters = pathParameters;
    this.query = query;
    this.body = body;
    this.early = early;
  }

  /** Sends {@code 200} and {@code headers} now, before the body is ready (see {@link EarlyHeaders}). */
  void sendHeadersNow(Map<String, String> headers) {
    early.send(headers);
  }

  String path(String name) {
    return pathParameters.get(name);
  }

  Optional<String> query(String name) {
    List<String> values = query.getOrDefault(name, List.of());
    return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
  }

  String requireQuery(String name) {
    return query(name).orElseThrow(() -> new ApiError(400, "bad_request", "query parameter '" + name
        + "' is required"));
  }

  List<String> queryAll(String name) {
    return query.getOrDefault(name, List.of());
  }

  long queryLong(String name, long fallback) {
    Optional<String> value = query(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      return Long.parseLong(value.get());
    } catch (NumberFormatException e) {
      throw new ApiError(400, "bad_request", "query parameter '" + name + "' is not a number: '" + value.get() + "'");
    }
  }

  /** The body as a JSON object ({@code {}} when empty). */
  JsonNode json() {
    if (json == null) {
      if (body.length == 0) {
        json = Json.object();
      } else {
        try {
          json = Json.mapper().readTree(body);
        } catch (Exception e) {
          throw new ApiError(400, "bad_request", "the body is not valid JSON: "
              + e.getMessage().lines().findFirst().orElse("unreadable"));
        }
        if (json == null || json.getNodeType() != JsonNodeType.OBJECT) {
          throw new ApiError(400, "bad_request", "the body must be a JSON object");
        }
      }
    }
    return json;
  }

  Optional<String> text(String field) {
    JsonNode value = json().get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw new ApiError(400, "bad_request", "field '" + field + "' must be a string");
    }
    return Optional.of(value.asText());
  }

  String requireText(String field) {
    return text(field).orElseThrow(() -> new ApiError(400, "bad_request", "field '" + field + "' is required"));
  }

  boolean flag(String field) {
    JsonNode value = json().get(field);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new ApiError(400, "bad_request", "field '" + field + "' must be true or false");
    }
    return value.asBoolean();
  }

  List<String> texts(String field) {
    JsonNode value = json().get(field);
    List<String> texts = new ArrayList<>();
    if (value == null || value.isNull()) {
      return texts;
    }
    if (!value.isArray()) {
      throw new ApiError(400, "bad_request", "field '" + field + "' must be an array of strings");
    }
    for (JsonNode element : value) {
      if (!element.isTextual()) {
        throw new ApiError(400, "bad_request", "field '" + field + "' must be an array of strings");
      }
      texts.add(element.asText());
    }
    return texts;
  }

  static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
