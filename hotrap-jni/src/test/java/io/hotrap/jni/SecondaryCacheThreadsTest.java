package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RocksDB's own threads call the backend (attached to the JVM on first use), and a JVM in which
 * they did still exits: at exit, RocksDB joins those threads from its static destructors, after
 * the JVM has stopped, so they must not call DetachCurrentThread then (it would block forever).
 */
@Timeout(120)
class SecondaryCacheThreadsTest {
  private static final String ATTACHED_THREAD = "rocksdb-secondary-cache";

  @ParameterizedTest
  @ValueSource(strings = {"exit", "return"})
  void aJvmWhoseRocksDbThreadsCalledTheBackendExits(String how) throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                SecondaryCacheExitProbe.class.getName(),
                how)
            .redirectErrorStream(true)
            .start();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);

    assertTrue(exited, () -> "the JVM did not exit:\n" + out);
    assertEquals(0, process.exitValue(), out);
    List<String> lines = out.lines().filter(l -> l.startsWith("threads=")).toList();
    assertEquals(1, lines.size(), out);
    assertTrue(lines.get(0).contains(ATTACHED_THREAD), () -> "no RocksDB thread inserted: " + out);
  }
}
