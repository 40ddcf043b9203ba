package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Killed JVMs leave no copy of RocksDB's native library behind: they share one. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class NativeLibraryTest {
  @TempDir Path dir;

  @Test
  void killedProcessesShareOneCopyOfTheLibraryAndLeaveNoOther() throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Files.createDirectories(dir.resolve("store0"));
    Files.createDirectories(dir.resolve("store1"));
    for (int i = 0; i < 2; i++) {
      runAndKill(tmp, dir.resolve("store" + i));
    }
    List<Path> libraries;
    try (Stream<Path> files = Files.walk(tmp)) {
      libraries = files.filter(p -> p.getFileName().toString().contains("rocksdbjni"))
          .collect(Collectors.toList());
    }
    assertEquals(1, libraries.size(), "copies of the library left in java.io.tmpdir: " + libraries);
    assertTrue(libraries.get(0).getParent().getParent().getFileName().toString().startsWith("hotrap-native-"),
        libraries.toString());
  }

  private void runAndKill(Path tmp, Path store) throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process child = new ProcessBuilder(java, "-Xmx128m", "-Djava.io.tmpdir=" + tmp, "-cp", cp,
        KillTrialChild.class.getName(), store.resolve("fast").toString(), store.resolve("slow").toString(),
        store.resolve("ops.log").toString(), "0", "1")
        .redirectError(dir.resolve("child.err").toFile()).start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("R", out.readLine(), "the child did not open its store: "
          + (Files.exists(dir.resolve("child.err")) ? Files.readString(dir.resolve("child.err")) : ""));
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    }
  }
}
