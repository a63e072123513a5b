package io.turndiff.server;

import io.turndiff.api.HealthProof;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How the HTTP service listens, whom it answers, and how much it lets one connection take.
 * Immutable; build with {@link #builder(String)}.
 *
 * <p>The connection limits ({@link #maxConnections()}, {@link #requestDeadline()}, {@link
 * #maxHeaderBytes()}) are each service's own ({@link Edge}).
 */
public final class ServiceOptions {

  public static final int DEFAULT_PORT = 7433;

  /** What {@code sun_path} holds, less its terminating NUL. */
  static final int MAX_SOCKET_PATH_BYTES = 107;

  public static final int DEFAULT_MAX_CONNECTIONS = 256;
  public static final Duration DEFAULT_REQUEST_DEADLINE = Duration.ofSeconds(5);
  public static final Duration DEFAULT_GC_EVERY = Duration.ofDays(1);
  public static final Duration DEFAULT_GC_SIZE_CHECK = Duration.ofMinutes(1);

  private final int port;
  private final String token;
  private final Set<String> allowedOrigins;
  private final Duration shutdownGrace;
  private final int maxBodyBytes;
  private final int maxConnections;
  private final Duration requestDeadline;
  private final int maxHeaderBytes;
  private final Optional<String> instance;
  private final String version;
  private final Duration gcEvery;
  private final Duration gcSizeCheck;
  private final Optional<Path> socket;
  private final Optional<OneShotCommands> commands;

  private ServiceOptions(Builder builder) {
    this.port = builder.port;
    this.token = builder.token;
    this.allowedOrigins = Set.copyOf(builder.allowedOrigins);
    this.shutdownGrace = builder.shutdownGrace;
    this.maxBodyBytes = builder.maxBodyBytes;
    this.maxConnections = builder.maxConnections;
    this.requestDeadline = builder.requestDeadline;
    this.maxHeaderBytes = builder.maxHeaderBytes;
    this.instance = builder.instance;
    this.version = builder.version;
    this.gcEvery = builder.gcEvery;
    this.gcSizeCheck = builder.gcSizeCheck;
    this.socket = builder.socket;
    this.commands = builder.commands;
  }

  /**
   * @param token the bearer token every request must carry
   */
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

  /** Connections open at once; one more is closed as soon as it is accepted. */
  public int maxConnections() {
    return maxConnections;
  }

  /**
   * How long a TCP connection may stay open without a request on it showing the token or the
   * panel's cookie ({@link ConnectionGuard}).
   */
  public Duration requestDeadline() {
    return requestDeadline;
  }

  /**
   * The request line and headers together, in bytes (as Jetty counts them: what came on the wire).
   */
  public int maxHeaderBytes() {
    return maxHeaderBytes;
  }

  /**
   * The name of this run of the service, when it is the per-user daemon: it then answers the
   * identity challenge on {@code GET /v1/health?challenge=NONCE} without a token ({@link
   * HealthProof}). Without one, every request needs the token.
   */
  public Optional<String> instance() {
    return instance;
  }

  /** The version {@code GET /v1/service/status} reports. */
  public String version() {
    return version;
  }

  /**
   * How often the service collects garbage on its own with the policy kept with the store ({@link
   * ScheduledCollection}); zero: never on a schedule.
   */
  public Duration gcEvery() {
    return gcEvery;
  }

  /**
   * How often the service compares the store's size with the kept {@code max-size}, collecting when
   * it is over; zero: never.
   */
  public Duration gcSizeCheck() {
    return gcSizeCheck;
  }

  /**
   * The Unix domain socket the service listens on besides its TCP port (the per-user service's, in
   * its run directory), where the peer's user, not a token, decides; none by default.
   */
  public Optional<Path> socket() {
    return socket;
  }

  /**
   * The one-shot commands the service runs for a client ({@code POST /v1/commands}): none unless
   * the service is the command line's ({@code turndiff serve}), which alone has their rendering.
   */
  public Optional<OneShotCommands> commands() {
    return commands;
  }

  /**
   * Whether {@code path} can name a Unix domain socket: absolute, and within the 107 bytes the
   * kernel keeps of a socket's name (a run directory beside a deeply nested store may not be).
   */
  public static boolean socketPathFits(Path path) {
    return path.isAbsolute()
        && path.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH_BYTES;
  }

  public static final class Builder {
    private int port = DEFAULT_PORT;
    private final String token;
    private Set<String> allowedOrigins = Set.of();
    private Duration shutdownGrace = Duration.ofSeconds(30);
    private int maxBodyBytes = 8 << 20;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private Duration requestDeadline = DEFAULT_REQUEST_DEADLINE;
    private int maxHeaderBytes = 16 << 10;
    private Optional<String> instance = Optional.empty();
    private String version = "";
    private Duration gcEvery = DEFAULT_GC_EVERY;
    private Duration gcSizeCheck = DEFAULT_GC_SIZE_CHECK;
    private Optional<Path> socket = Optional.empty();
    private Optional<OneShotCommands> commands = Optional.empty();

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
      if (bytes < 0 || bytes == Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "the body limit must be within 0.." + (Integer.MAX_VALUE - 1));
      }
      this.maxBodyBytes = bytes;
      return this;
    }

    public Builder maxConnections(int connections) {
      if (connections < 1) {
        throw new IllegalArgumentException(
            "the connection limit must be at least 1, not " + connections);
      }
      this.maxConnections = connections;
      return this;
    }

    /** Whole seconds, at least one. */
    public Builder requestDeadline(Duration deadline) {
      if (deadline.compareTo(Duration.ofSeconds(1)) < 0 || deadline.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException(
            "the request deadline must be a whole number of seconds, at least 1, not " + deadline);
      }
      this.requestDeadline = deadline;
      return this;
    }

    public Builder maxHeaderBytes(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException(
            "the header limit must be at least 1024 bytes, not " + bytes);
      }
      this.maxHeaderBytes = bytes;
      return this;
    }

    /** 32 lowercase hex characters, new at every start of the daemon. */
    public Builder instance(String instance) {
      if (!instance.matches("[0-9a-f]{32}")) {
        throw new IllegalArgumentException(
            "an instance is 32 lowercase hex characters, not '" + instance + "'");
      }
      this.instance = Optional.of(instance);
      return this;
    }

    public Builder version(String version) {
      this.version = Objects.requireNonNull(version);
      return this;
    }

    /** Zero: no collection on a schedule. */
    public Builder gcEvery(Duration every) {
      this.gcEvery = nonNegative("the collection interval", every);
      return this;
    }

    /** Zero: the size is never looked at. */
    public Builder gcSizeCheck(Duration every) {
      this.gcSizeCheck = nonNegative("the size check interval", every);
      return this;
    }

    private static Duration nonNegative(String what, Duration duration) {
      if (duration.isNegative()) {
        throw new IllegalArgumentException(what + " must not be negative: " + duration);
      }
      return duration;
    }

    /** An absolute path, short enough for a socket's name (the kernel's limit is 107 bytes). */
    public Builder socket(Path path) {
      if (!socketPathFits(path)) {
        throw new IllegalArgumentException(
            "a socket's path is absolute and at most "
                + MAX_SOCKET_PATH_BYTES
                + " bytes long: "
                + path);
      }
      this.socket = Optional.of(path);
      return this;
    }

    /** Serves {@code POST /v1/commands} with {@code commands}. */
    public Builder commands(OneShotCommands commands) {
      this.commands = Optional.of(commands);
      return this;
    }

    public ServiceOptions build() {
      return new ServiceOptions(this);
    }
  }
}
