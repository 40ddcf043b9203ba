package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;

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
    Path bogus = Files.writeString(dir.resolve("libhotrapjni.so"), "not an ELF file");

    List<String> out = runProbe("-D" + NativeHooks.LIBRARY_PATH_PROPERTY + "=" + bogus);

    assertEquals("available=false", out.get(0), () -> String.join("\n", out));
    assertTrue(out.get(1).startsWith("reason=loading libhotrapjni.so failed: "), out.get(1));
  }

  @Test
  void fromAJarTheLibraryIsExtractedOnceAndSharedByLaterJvms() throws Exception {
    NativeAssumptions.assumeNativeHooks();
    Path jar = dir.resolve("hotrap-jni.jar");
    writeJar(codeSource(NativeHooks.class), jar);
    String classPath =
        String.join(
            File.pathSeparator,
            jar.toString(),
            codeSource(RocksDB.class).toString(),
            codeSource(NativeHooksProbe.class).toString());
    Path tmp = Files.createDirectories(dir.resolve("tmp"));

    for (int run = 0; run < 2; run++) {
      List<String> out = runProbeWith(classPath, "-Djava.io.tmpdir=" + tmp);
      assertEquals(List.of("available=true", "reason=null", "set=created, size 0"), out);
    }

    List<Path> copies;
    try (Stream<Path> files = Files.walk(tmp)) {
      copies =
          files
              .filter(p -> p.getFileName().toString().startsWith(NativeHooks.LIBRARY_FILE))
              .toList();
    }
    assertEquals(1, copies.size(), () -> "copies: " + copies);
    assertTrue(copies.get(0).getParent().getParent().getFileName().toString().startsWith("hotrap-jni-"));
  }

  private static Path codeSource(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static void writeJar(Path classes, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        String name = classes.relativize(file).toString().replace(File.separatorChar, '/');
        out.putNextEntry(new JarEntry(name));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
  }

  /** Runs {@link NativeHooksProbe} in a child JVM with this JVM's class path. */
  private static List<String> runProbe(String jvmArg) throws IOException, InterruptedException {
    return runProbeWith(System.getProperty("java.class.path"), jvmArg);
  }

  /** Runs {@link NativeHooksProbe} in a child JVM; returns its output. */
  private static List<String> runProbeWith(String classPath, String... jvmArgs)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(List.of(jvmArgs));
    command.add("-cp");
    command.add(classPath);
    command.add(NativeHooksProbe.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
    String stdout = new String(process.getInputStream().readAllBytes(), UTF_8);
    String stderr = new String(process.getErrorStream().readAllBytes(), UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "probe JVM did not exit");
    assertEquals(0, process.exitValue(), () -> "probe JVM failed:\n" + stdout + stderr);
    return stdout.lines().toList();
  }
}
