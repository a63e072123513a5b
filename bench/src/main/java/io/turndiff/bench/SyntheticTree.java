package io.turndiff.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * A generated source tree that looks like a real repository to the code under measurement: nested
 * packages of about twenty files each, Java-like text files of 1–60 KB (a log-normal size around 6
 * KB, so that 11,000 files come to about 90 MB), and about 1 % binaries. Deterministic for a seed.
 */
public final class SyntheticTree {

  private static final String[] WORDS =
      ("account adapter address amount array audit batch bean buffer builder "
              + "bundle cache channel checksum client codec column config context cursor delta digest domain driver "
              + "encoder entry event factory field filter format frame gateway graph handler header index input item "
              + "journal kernel key layout ledger limit listener loader locale lock manager mapper marker matrix merge "
              + "message meta metric mode module monitor mutex node offset order output owner packet page parser path "
              + "payload pipeline policy pool port printer probe queue range reader record region registry report "
              + "request resolver resource result route rule sample scanner schema scope segment sender session shard "
              + "signal snapshot socket source span state status store stream style table target task template "
              + "thread token topic tracker txn unit update user value vector view window worker writer zone")
          .split(" ");

  private SyntheticTree() {}

  /** How much was generated. */
  public record Summary(int files, long bytes) {}

  public static Summary generate(Path root, int files, long seed) throws IOException {
    Random random = new Random(seed);
    long bytes = 0;
    for (int i = 0; i < files; i++) {
      Path file = root.resolve(pathOf(i, random));
      Files.createDirectories(file.getParent());
      byte[] content = random.nextInt(100) == 0 ? binary(random) : text(random, size(random));
      Files.write(file, content);
      bytes += content.length;
    }
    return new Summary(files, bytes);
  }

  private static String pathOf(int index, Random random) {
    int module = index / 400;
    int pkg = (index / 20) % 20;
    String ext = random.nextInt(100) == 0 ? ".bin" : ".java";
    return "module"
        + module
        + "/src/main/java/com/acme/m"
        + module
        + "/p"
        + pkg
        + "/"
        + capitalized(WORDS[random.nextInt(WORDS.length)])
        + index
        + ext;
  }

  private static int size(Random random) {
    double size = Math.exp(Math.log(6000) + 0.8 * random.nextGaussian());
    return (int) Math.max(1024, Math.min(61_440, size));
  }

  static byte[] binary(Random random) {
    byte[] content = new byte[1024 + random.nextInt(60 * 1024)];
    random.nextBytes(content);
    content[0] = 0;
    return content;
  }

  /** Java-like text of about {@code size} bytes. */
  static byte[] text(Random random, int size) {
    StringBuilder out = new StringBuilder(size + 200);
    out.append("package com.acme.").append(word(random)).append(";\n\n");
    for (int i = 0; i < 4; i++) {
      out.append("import com.acme.")
          .append(word(random))
          .append('.')
          .append(capitalized(word(random)))
          .append(";\n");
    }
    out.append("\npublic final class ").append(capitalized(word(random))).append(" {\n");
    while (out.length() < size) {
      out.append(line(random)).append('\n');
    }
    out.append("}\n");
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** One plausible line of code. */
  static String line(Random random) {
    return switch (random.nextInt(9)) {
      case 0 ->
          "  private final "
              + capitalized(word(random))
              + " "
              + word(random)
              + " = new "
              + capitalized(word(random))
              + "("
              + random.nextInt(100)
              + ");";
      case 1 ->
          "  public "
              + capitalized(word(random))
              + " "
              + word(random)
              + capitalized(word(random))
              + "("
              + capitalized(word(random))
              + " "
              + word(random)
              + ") {";
      case 2 ->
          "    if ("
              + word(random)
              + ".is"
              + capitalized(word(random))
              + "() && "
              + word(random)
              + ".size() > "
              + random.nextInt(10)
              + ") {";
      case 3 ->
          "      return " + word(random) + "(" + word(random) + ", \"" + word(random) + "\");";
      case 4 -> "    }";
      case 5 -> "  }";
      case 6 ->
          "    // "
              + word(random)
              + " the "
              + word(random)
              + " before the "
              + word(random)
              + " is read";
      case 7 ->
          "    "
              + word(random)
              + "."
              + word(random)
              + "("
              + word(random)
              + ", "
              + random.nextInt(1000)
              + ");";
      default -> "";
    };
  }

  static String word(Random random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  private static String capitalized(String word) {
    return Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }
}
