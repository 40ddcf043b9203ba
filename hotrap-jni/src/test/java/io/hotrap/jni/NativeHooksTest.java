package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class NativeHooksTest {
  @TempDir Path dir;

  /** Where the build produced the library, a failure to load it is a bug, not a reason to skip. */
  @Test
  void theLibraryLoadsWhereverTheBuildProducedIt() {
    Assumptions.assumeTrue(
        NativeHooks.class.getResource(NativeHooks.RESOURCE) != null,
        "skipped: the build produced no native library (no C compiler or JNI headers)");
    assertTrue(NativeHooks.available(), NativeHooks::unavailableReason);
    assertNull(NativeHooks.unavailableReason());
  }

  @Test
  void aMissingLibraryLeavesTheHooksUnavailableWithAReason() throws Exception {
    Path missing = dir.resolve("no-such-libhotrapjni.so");

    List<String> out = runProbe("-D" + NativeHooks.LIBRARY_PATH_PROPERTY + "=" + missing);

    assertEquals("available=false", out.get(0), () -> String.join("\n", out));
    assertEquals(
        "reason=" + NativeHooks.LIBRARY_PATH_PROPERTY + " names no file: " + missing, out.get(1));
    assertTrue(out.get(2).startsWith("set=native compaction hooks unavailable: "), out.get(2));
  }

  @Test
  void aFileThatIsNoLibraryLeavesTheHooksUnavailableWithAReason() throws Exception {
    Path bogus = java.nio.file.Files.writeString(dir.resolve("libhotrapjni.so"), "not an ELF file");

    List<String> out = runProbe("-D" + NativeHooks.LIBRARY_PATH_PROPERTY + "=" + bogus);

    assertEquals("available=false", out.get(0), () -> String.join("\n", out));
    assertTrue(out.get(1).startsWith("reason=loading libhotrapjni.so failed: "), out.get(1));
  }

  /** Runs {@link NativeHooksProbe} in a child JVM with the test class path; returns its output. */
  private static List<String> runProbe(String... jvmArgs) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(List.of(jvmArgs));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(NativeHooksProbe.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
    String stdout = new String(process.getInputStream().readAllBytes(), UTF_8);
    String stderr = new String(process.getErrorStream().readAllBytes(), UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "probe JVM did not exit");
    assertEquals(0, process.exitValue(), () -> "probe JVM failed:\n" + stdout + stderr);
    return stdout.lines().toList();
  }
}
