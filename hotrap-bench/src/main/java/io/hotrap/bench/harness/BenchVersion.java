package io.hotrap.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The version of the bench jar: the {@code version} of the {@code pom.properties} Maven puts into
 * every jar it builds, else the manifest's {@code Implementation-Version}, else {@value #UNKNOWN}
 * (classes run from a build directory, as in tests, carry neither).
 */
public final class BenchVersion implements CommandLine.IVersionProvider {
  static final String UNKNOWN = "unknown (not run from the jar)";
  private static final String POM_PROPERTIES = "/META-INF/maven/io.hotrap/hotrap-bench/pom.properties";

  /** The version line {@code --version} prints, e.g. {@code hotrap-bench 0.1.0-SNAPSHOT}. */
  public static String line() {
    return "hotrap-bench " + version();
  }

  static String version() {
    String v = property(POM_PROPERTIES, "version");
    if (v == null) {
      v = BenchVersion.class.getPackage().getImplementationVersion();
    }
    return v != null ? v : UNKNOWN;
  }

  /**
   * The commit the jar was built from, as {@code git describe --always --dirty --abbrev=12} gave it
   * at build time ({@code -dirty}: the tree had changes not committed); {@code unknown} where git
   * was missing or the build was not in a git work tree.
   */
  public static String commit() {
    String c = property("/io/hotrap/bench/build.properties", "commit");
    return c != null ? c : "unknown";
  }

  /** The time a result is stamped with: now, ISO-8601 UTC to the second. */
  static String now() {
    return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }

  /** A non-blank value of a properties resource of this jar, stripped; null if absent or unreadable. */
  private static String property(String resource, String key) {
    try (InputStream in = BenchVersion.class.getResourceAsStream(resource)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty(key);
        if (v != null && !v.isBlank()) {
          return v.strip();
        }
      }
    } catch (IOException e) {
      // an unreadable resource in our own jar: treated as absent
    }
    return null;
  }

  @Override
  public String[] getVersion() {
    return new String[] {line()};
  }
}
