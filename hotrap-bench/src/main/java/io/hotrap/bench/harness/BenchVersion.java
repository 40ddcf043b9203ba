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
    try (InputStream in = BenchVersion.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version");
        if (v != null && !v.isBlank()) {
          return v.strip();
        }
      }
    } catch (IOException e) {
      // an unreadable resource in our own jar: fall through to the manifest
    }
    String v = BenchVersion.class.getPackage().getImplementationVersion();
    return v != null ? v : UNKNOWN;
  }

  /**
   * The commit the jar was built from, as {@code git describe --always --dirty --abbrev=12} gave it
   * at build time ({@code -dirty}: the tree had changes not committed); {@code unknown} where git
   * was missing or the build was not in a git work tree.
   */
  public static String commit() {
    try (InputStream in = BenchVersion.class.getResourceAsStream("/io/hotrap/bench/build.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String c = p.getProperty("commit");
        if (c != null && !c.isBlank()) {
          return c.strip();
        }
      }
    } catch (IOException e) {
      // unreadable: unknown
    }
    return "unknown";
  }

  @Override
  public String[] getVersion() {
    return new String[] {line()};
  }
}
