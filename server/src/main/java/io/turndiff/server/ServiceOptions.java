package io.turndiff.server;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/** How the HTTP service listens and whom it answers. Immutable; build with {@link #builder(String)}. */
public final class ServiceOptions {

  public static final int DEFAULT_PORT = 7433;

  private final int port;
  private final String token;
  private final Set<String> allowedOrigins;
  private final Duration shutdownGrace;
  private final int maxBodyBytes;

  private ServiceOptions(Builder builder) {
    this.port = builder.port;
    this.token = builder.token;
    this.allowedOrigins = Set.copyOf(builder.allowedOrigins);
    this.shutdownGrace = builder.shutdownGrace;
    this.maxBodyBytes = builder.maxBodyBytes;
  }

  /** @param token the bearer token every request must carry */
  public static Builder builder(String token) {
    return new Builder(token);
  }

  public int port() {
    return port;
  }

  public String token() {
    return token;
  }

  /** Origins a browser may call from (CORS); none unless configured. */
  public Set<String> allowedOrigins() {
    return allowedOrigins;
  }

  public Duration shutdownGrace() {
    return shutdownGrace;
  }

  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  public static final class Builder {
    private int port = DEFAULT_PORT;
    private final String token;
    private Set<String> allowedOrigins = Set.of();
    private Duration shutdownGrace = Duration.ofSeconds(30);
    private int maxBodyBytes = 8 << 20;

    private Builder(String token) {
      this.token = Objects.requireNonNull(token);
      if (token.length() < 16) {
        throw new IllegalArgumentException("a token needs at least 16 characters");
      }
    }

    /** 0 picks a free port. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port " + port + " is not within 0..65535");
      }
      this.port = port;
      return this;
    }

    public Builder allowedOrigins(Set<String> origins) {
      this.allowedOrigins = Set.copyOf(origins);
      return this;
    }

    /** How long a stop waits for requests in flight. */
    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = Objects.requireNonNull(grace);
      return this;
    }

    public Builder maxBodyBytes(int bytes) {
      this.maxBodyBytes = bytes;
      return this;
    }

    public ServiceOptions build() {
      return new ServiceOptions(this);
    }
  }
}
