package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code turndiff doctor --json}: each check of the installation as the workspace's runtimes meet
 * it, in the order they are made, and how many failed or warned.
 *
 * @param workspace the directory the checks are about
 */
public record WireDoctorReport(String workspace, List<Check> checks, int failures, int warnings) {

  public WireDoctorReport {
    checks = List.copyOf(checks);
  }

  /** The report of {@code checks}, with their tallies. */
  public static WireDoctorReport of(String workspace, List<Check> checks) {
    return new WireDoctorReport(
        workspace,
        checks,
        (int) checks.stream().filter(check -> check.verdict() == Verdict.FAIL).count(),
        (int) checks.stream().filter(check -> check.verdict() == Verdict.WARN).count());
  }

  /**
   * A check's verdict: {@code fail} breaks something, {@code warn} may, {@code skip} could not run.
   */
  public enum Verdict {
    @JsonProperty("ok")
    OK,
    @JsonProperty("warn")
    WARN,
    @JsonProperty("fail")
    FAIL,
    @JsonProperty("skip")
    SKIP
  }

  /**
   * One check: {@code name} (store, disk, service, hooks RUNTIME, workspace, watch), what it {@code
   * found} in words, and {@code todo}, what to do about it (null when nothing).
   */
  public record Check(String name, Verdict verdict, String found, String todo) {

    public static Check ok(String name, String found) {
      return new Check(name, Verdict.OK, found, null);
    }

    public static Check warn(String name, String found, String todo) {
      return new Check(name, Verdict.WARN, found, todo);
    }

    public static Check fail(String name, String found, String todo) {
      return new Check(name, Verdict.FAIL, found, todo);
    }

    public static Check skip(String name, String found) {
      return new Check(name, Verdict.SKIP, found, null);
    }
  }
}
