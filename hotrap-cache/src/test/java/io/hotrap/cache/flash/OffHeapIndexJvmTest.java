package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The off-heap index in JVMs started for the purpose ({@link ForkedFlashCache}): without Chronicle
 * Map's options the cache falls back to the on-heap index and says which options are missing;
 * with them the same program gets the off-heap index (so the first test can fail), and Chronicle's
 * analytics stay off even with their jar on the class path; and a JVM killed while its cache is
 * open leaves files that open cold.
 */
@Timeout(120)
class OffHeapIndexJvmTest {
  /** What hotrap-cache's pom gives the test JVM, and ForkedFlashCache may or may not get. */
  private static final List<String> OPTIONS = List.of(
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED");

  @TempDir Path dir;

  /** The output of a forked JVM that exited. */
  private record Run(int exit, Map<String, String> values, String stdout, String stderr) {}

  private ProcessBuilder fork(List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-Xmx256m");
    // A short run: the quick compiler and the serial collector start fastest on a busy machine.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Duser.home=" + dir.resolve("home")); // where Chronicle's analytics would write
    String classPath = System.getProperty("java.class.path");
    String analytics = System.getProperty("hotrap.test.chronicleAnalyticsJar");
    if (analytics != null) {
      classPath += java.io.File.pathSeparator + analytics;
    }
    command.add("-cp");
    command.add(classPath);
    command.add(ForkedFlashCache.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  private Run run(List<String> jvmOptions, String... args) throws Exception {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process p = fork(jvmOptions, args).redirectOutput(out.toFile()).redirectError(err.toFile())
        .start();
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), "the forked JVM did not finish");
    String stdout = Files.readString(out);
    return new Run(p.exitValue(), parse(stdout), stdout, Files.readString(err));
  }

  private static Map<String, String> parse(String stdout) {
    Map<String, String> values = new HashMap<>();
    for (String line : stdout.split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0) {
        values.put(line.substring(0, space), line.substring(space + 1).trim());
      }
    }
    return values;
  }

  @Test
  void withoutChronicleMapsOptionsTheCacheUsesTheHeapAndNamesTheMissingOptions() throws Exception {
    Path cache = dir.resolve("cache");
    Run r = run(List.of(), "restart", cache.toString());
    String output = r.stdout() + r.stderr();
    assertEquals(0, r.exit(), output);
    assertEquals("ON_HEAP", r.values().get("index"), output);
    assertEquals(String.valueOf(ForkedFlashCache.ITEMS), r.values().get("hits"),
        "the checkpoint restarts it warm: " + output);
    assertEquals(1, count(r.stderr(), "cannot run in this JVM"), "one warning: " + output);
    for (int i = 0; i < 4; i++) {
      assertTrue(r.stderr().contains(OPTIONS.get(i)), "names " + OPTIONS.get(i) + ": " + output);
    }
    assertFalse(Files.exists(cache.resolve(ChronicleIndex.FILE_NAME)));
  }

  @Test
  void withThemTheSameProgramUsesTheOffHeapIndexAndChroniclesAnalyticsStayOff() throws Exception {
    Path cache = dir.resolve("cache");
    Run r = run(OPTIONS, "restart", cache.toString());
    String output = r.stdout() + r.stderr();
    assertEquals(0, r.exit(), output);
    assertEquals("OFF_HEAP", r.values().get("index"), output);
    assertEquals(String.valueOf(ForkedFlashCache.ITEMS), r.values().get("hits"), output);
    assertTrue(Files.exists(cache.resolve(ChronicleIndex.FILE_NAME)));
    assertFalse(output.contains("cannot run in this JVM"), output);
    assertEquals("true", r.values().get("analytics-present"),
        "the analytics jar is on the forked class path: " + output);
    assertEquals("false", r.values().get("analytics-enabled"), output);
    try (Stream<Path> home = Files.walk(dir.resolve("home"))) {
      assertEquals(List.of(), home.filter(f -> f.getFileName().toString().contains("chronicle"))
          .toList());
    } catch (java.nio.file.NoSuchFileException e) {
      // nothing was written to the home directory at all
    }
    assertFalse(output.toLowerCase().contains("google"), output);
  }

  @Test
  void aKilledProcessLeavesACacheThatStartsCold() throws Exception {
    Path cache = dir.resolve("cache");
    Process p = fork(OPTIONS, "fill", cache.toString())
        .redirectError(dir.resolve("err.txt").toFile()).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals("ready")) {
        lines.add(line);
      }
      assertEquals("ready", line, lines + Files.readString(dir.resolve("err.txt")));
      p.destroyForcibly(); // SIGKILL: no close, no shutdown hook
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    }
    assertEquals(List.of("index OFF_HEAP"), lines);
    assertTrue(Files.size(cache.resolve(ChronicleIndex.FILE_NAME)) > 0, "a map file was left");
    assertFalse(Files.exists(cache.resolve(Checkpoint.FILE_NAME)));
    try (FlashCache reopened = ForkedFlashCache.open(cache)) {
      FlashCacheStats s = reopened.stats();
      assertEquals(FlashIndexKind.OFF_HEAP, reopened.indexKind());
      assertEquals(0, s.restoredItems());
      assertEquals(0, s.flashItems());
      for (int i = 0; i < ForkedFlashCache.ITEMS; i++) {
        assertEquals(null, reopened.get(Items.key(i)), "key " + i);
      }
      reopened.put(Items.key(1), ForkedFlashCache.value(1));
      assertTrue(java.util.Arrays.equals(ForkedFlashCache.value(1), reopened.get(Items.key(1))));
    }
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
