package io.hotrap.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskProbeTest {
  @TempDir
  Path dir;

  @Test
  void measuresPositiveRandomIopsAndSequentialRate() {
    DiskProbe probe = DiskProbe.builder()
        .fileBytes(8L << 20).seconds(Duration.ofMillis(500)).threads(2).build();

    DiskProbe.Result r = probe.measure(dir);

    assertTrue(r.randomReadIops() > 0, r.toString());
    assertTrue(r.sequentialReadMibPerSecond() > 0, r.toString());
  }

  @Test
  void leavesNoTestFileBehind() throws IOException {
    DiskProbe.builder().fileBytes(1L << 20).seconds(Duration.ofMillis(100)).build().measure(dir);

    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void saysSoWhenItUsedBufferedIo() {
    DiskProbe.Result r = DiskProbe.builder().fileBytes(1L << 20)
        .seconds(Duration.ofMillis(100)).preferDirectIo(false).build().measure(dir);

    assertFalse(r.directIo());
    assertTrue(r.randomReadIops() > 0, r.toString());
  }

  @Test
  void alignsBuffersToTheBlockSize() {
    ByteBuffer b = DiskProbe.aligned(4096, 4096);

    assertEquals(4096, b.capacity());
    assertEquals(0, b.alignmentOffset(0, 4096));
  }

  @Test
  void rejectsSettingsThatCannotMeasureAnything() {
    IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
        () -> DiskProbe.builder().fileBytes(4096));
    assertTrue(small.getMessage().contains("4096"), small.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> DiskProbe.builder().seconds(Duration.ZERO));
    IllegalArgumentException threads = assertThrows(IllegalArgumentException.class,
        () -> DiskProbe.builder().threads(0));
    assertTrue(threads.getMessage().contains("but was 0"), threads.getMessage());
  }

  @Test
  void commandLinePrintsTheFigures() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    DiskProbe.run(List.of("--dir", dir.toString(), "--seconds", "0.2", "--file-mib", "2"), out);

    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.matches("(?s).*random 4 KiB reads: \\d+ IOPS.*"), text);
    assertTrue(text.contains("not on a slow disk"), text);
  }

  @Test
  void commandLineRequiresADirectory() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DiskProbe.run(List.of("--seconds", "1"), System.out));
    assertTrue(e.getMessage().contains("--dir is required"), e.getMessage());
  }
}
