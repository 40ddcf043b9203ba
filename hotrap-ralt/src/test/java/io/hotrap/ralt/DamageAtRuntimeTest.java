package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file damaged while the tracker runs is dropped by the next merge that reads it. */
class DamageAtRuntimeTest {
  @TempDir Path dir;

  private static byte[] key(String prefix, int i) {
    return String.format("%s%08d", prefix, i).getBytes();
  }

  private List<Path> segmentFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".ralt")).sorted()
          .collect(Collectors.toList());
    }
  }

  @Test
  void mergeDropsADamagedFileAndTrackingGoesOn() throws IOException {
    // One buffer holds each phase's 4,000 accesses and one file holds a run, so the shape does not
    // depend on how fast the background thread drains: phase one leaves exactly one level-1 file,
    // and phase two's level-0 run is merged with it. With a buffer smaller than a phase, a slow
    // thread could leave a level-1 and a level-2 run behind.
    RaltOptions options = RaltOptions.builder().directory(dir).fastDiskBytes(64L << 20)
        .bufferBytes(1 << 20).segmentBytes(4L << 20).level0RunLimit(1).build();
    try (Ralt ralt = Ralt.open(options)) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 2000; i++) {
          ralt.record(key("old", i), 100);
        }
      }
      ralt.awaitQuiescence();
      assertTrue(ralt.isHot(key("old", 7)), "keys accessed twice are stable, hence hot");
      List<Path> files = segmentFiles();
      assertEquals(1, files.size(), "one merged file: " + files);
      Path damaged = files.get(0);
      try (RandomAccessFile f = new RandomAccessFile(damaged.toFile(), "rw")) {
        f.seek(f.length() / 2);
        f.write(new byte[64]);
      }

      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 2000; i++) {
          ralt.record(key("new", i), 100);
        }
      }
      ralt.awaitQuiescence(); // the level-0 merge reads the damaged file

      assertFalse(Files.exists(damaged), "damaged file dropped");
      assertTrue(ralt.isHot(key("new", 1999)));
      long hotNew = 0;
      try (HotKeyIterator it = ralt.hotKeys(key("new", 0), key("new", 99999999))) {
        for (; it.isValid(); it.next()) {
          hotNew++;
        }
      }
      assertEquals(2000, hotNew);
      assertEquals(ralt.stats().physicalBytes(), segmentFiles().stream().mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          throw new RuntimeException(e);
        }
      }).sum(), "physical bytes match the files on disk");
    }
  }
}
