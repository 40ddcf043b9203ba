package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Close and reopen keeps RALT's records, hot keys and clock; a damaged, truncated or missing file
 * is detected on open and RALT goes on from what is intact, or empty, never with an exception.
 *
 * <p>One tracker state is built once (a hotspot-5% stream, closed cleanly); every test works on
 * its own copy of that directory. Its size is chosen so the records span dozens of segment files:
 * damaging one of them costs only the slice of the key space it holds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RaltRecoveryTest {

  private static final int KEYS = 200_000;
  private static final int VALUE_BYTES = 1000;
  private static final long ACCESSES = 1_500_000;
  private static final long FAST_DISK_BYTES = 40L << 20;
  private static final long SEED = 6;
  /** Share of the hot keys that must stay hot when one segment file of many is damaged. */
  private static final double HOT_SHARE_AFTER_ONE_DAMAGED_SEGMENT = 0.8;

  private Path template;
  private byte[][] keys;
  private AccessStreams.Hotspot stream;
  private int[] sample;
  private boolean[] sampleWasHot;
  private HotKeySnapshot hotBeforeClose;
  private RaltStats statsBeforeClose;

  @BeforeAll
  void buildAndCloseATracker(@TempDir Path template) {
    this.template = template;
    keys = AccessStreams.keys(KEYS);
    stream = AccessStreams.hotspot(KEYS, 0.05, 0.95, SEED);
    try (Ralt ralt = Ralt.open(options(template))) {
      for (long i = 0; i < ACCESSES; i++) {
        ralt.record(keys[stream.next()], VALUE_BYTES);
      }
      ralt.awaitQuiescence();
      hotBeforeClose = HotKeySnapshot.all(ralt);
      statsBeforeClose = ralt.stats();
      // Every true hot key, then as many keys drawn at random.
      int[] hotIds = stream.hotIds();
      sample = new int[hotIds.length * 2];
      System.arraycopy(hotIds, 0, sample, 0, hotIds.length);
      SplittableRandom r = new SplittableRandom(SEED);
      for (int i = hotIds.length; i < sample.length; i++) {
        sample[i] = r.nextInt(KEYS);
      }
      sampleWasHot = new boolean[sample.length];
      for (int i = 0; i < sample.length; i++) {
        sampleWasHot[i] = ralt.isHot(keys[sample[i]]);
      }
    }
    assertTrue(hotBeforeClose.size() > stream.hotKeyCount() / 2,
        "setup: too few hot keys to test recovery: " + hotBeforeClose.size());
    assertTrue(Files.isRegularFile(template.resolve("MANIFEST")), "setup: no MANIFEST");
    assertTrue(segments(template).size() >= 8,
        "setup: the records should span many segment files but they are " + segments(template));
  }

  @Test
  void reopenKeepsHotKeysIsHotAnswersAndTheClock(@TempDir Path dir) {
    copy(template, dir);
    try (Ralt ralt = Ralt.open(options(dir))) {
      RaltStats stats = ralt.stats();
      assertEquals(statsBeforeClose.tick(), stats.tick(), "tick");
      assertEquals(statsBeforeClose.accessedBytes(), stats.accessedBytes(), "accessed bytes");

      HotKeySnapshot hot = HotKeySnapshot.all(ralt);
      assertEquals(hotBeforeClose.size(), hot.size(), "number of hot keys");
      for (int i = 0; i < hot.size(); i++) {
        assertArrayEquals(hotBeforeClose.keys.get(i), hot.keys.get(i), "hot key #" + i);
        assertEquals(hotBeforeClose.hotSizes[i], hot.hotSizes[i], "hot size of key #" + i);
      }
      for (int i = 0; i < sample.length; i++) {
        assertEquals(sampleWasHot[i], ralt.isHot(keys[sample[i]]), "isHot of key id " + sample[i]);
      }
    }
  }

  @Test
  void reopenAfterBytesFlippedInsideASegmentKeepsTheOtherSegmentsHotKeys(@TempDir Path dir)
      throws IOException {
    copy(template, dir);
    Path victim = largestSegment(dir);
    long size = Files.size(victim);
    flipBytes(victim, size / 2, 64);

    assertReopensWithMostHotKeys(dir, "64 bytes flipped in the middle of " + victim.getFileName());
  }

  @Test
  void reopenAfterASegmentWasTruncatedKeepsTheOtherSegmentsHotKeys(@TempDir Path dir)
      throws IOException {
    copy(template, dir);
    Path victim = largestSegment(dir);
    try (FileChannel ch = FileChannel.open(victim, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() / 2);
    }

    assertReopensWithMostHotKeys(dir, victim.getFileName() + " truncated to half");
  }

  @Test
  void reopenAfterASegmentWasDeletedKeepsTheOtherSegmentsHotKeys(@TempDir Path dir)
      throws IOException {
    copy(template, dir);
    Path victim = largestSegment(dir);
    Files.delete(victim);

    assertReopensWithMostHotKeys(dir, victim.getFileName() + " deleted");
  }

  @Test
  void reopenAfterTheManifestWasCorruptedStartsEmpty(@TempDir Path dir) throws IOException {
    copy(template, dir);
    Path manifest = dir.resolve("MANIFEST");
    flipBytes(manifest, Files.size(manifest) / 2, 8);

    assertReopensEmpty(dir, "MANIFEST with 8 bytes flipped");
  }

  @Test
  void reopenAfterTheManifestWasTruncatedStartsEmpty(@TempDir Path dir) throws IOException {
    copy(template, dir);
    Path manifest = dir.resolve("MANIFEST");
    try (FileChannel ch = FileChannel.open(manifest, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() / 2);
    }

    assertReopensEmpty(dir, "MANIFEST truncated to half");
  }

  @Test
  void reopenAfterTheDirectoryWasDeletedStartsEmpty(@TempDir Path parent) {
    Path dir = parent.resolve("ralt");
    copy(template, dir);
    deleteRecursively(dir);
    assertFalse(Files.exists(dir));

    assertReopensEmpty(dir, "directory deleted");
  }

  private void assertReopensWithMostHotKeys(Path dir, String damage) {
    try (Ralt ralt = Ralt.open(options(dir))) {
      int stillHot = 0;
      for (byte[] k : hotBeforeClose.keys) {
        if (ralt.isHot(k)) {
          stillHot++;
        }
      }
      double share = (double) stillHot / hotBeforeClose.size();
      assertTrue(share >= HOT_SHARE_AFTER_ONE_DAMAGED_SEGMENT, String.format(
          "%s: %d of %d hot keys still hot (%.3f < %.2f); %s", damage, stillHot,
          hotBeforeClose.size(), share, HOT_SHARE_AFTER_ONE_DAMAGED_SEGMENT, ralt.stats()));
      HotKeySnapshot hot = HotKeySnapshot.all(ralt);
      assertTrue(hot.size() >= HOT_SHARE_AFTER_ONE_DAMAGED_SEGMENT * hotBeforeClose.size(),
          damage + ": hotKeys returned " + hot.size() + " of " + hotBeforeClose.size());
      assertKeepsWorking(ralt, damage);
    }
  }

  private void assertReopensEmpty(Path dir, String damage) {
    try (Ralt ralt = Ralt.open(options(dir))) {
      assertEquals(0, ralt.stats().trackedRecords(), damage + ": tracked records");
      assertEquals(0, HotKeySnapshot.all(ralt).size(), damage + ": hot keys");
      for (byte[] k : hotBeforeClose.keys) {
        assertFalse(ralt.isHot(k), damage + ": a key is hot in an empty tracker");
      }
      assertKeepsWorking(ralt, damage);
    }
  }

  /** Records a fresh stream, waits for its merges, and reads every kind of answer. */
  private void assertKeepsWorking(Ralt ralt, String damage) {
    AccessStreams.Hotspot more = AccessStreams.hotspot(KEYS, 0.05, 0.95, SEED + 1);
    long accesses = 300_000;
    for (long i = 0; i < accesses; i++) {
      ralt.record(keys[more.next()], VALUE_BYTES);
    }
    ralt.awaitQuiescence();
    assertEquals(accesses, ralt.stats().accesses(), damage + ": accesses recorded after reopen");
    HotKeySnapshot hot = HotKeySnapshot.all(ralt);
    int violation = hot.firstOrderViolation();
    assertEquals(-1, violation, () -> damage + ": " + hot.describeViolation(violation));
    long hotBytes = ralt.hotSizeInRange(AccessStreams.lowestKey(), AccessStreams.highestKey());
    assertTrue(hotBytes >= hot.totalHotSize(),
        damage + ": hotSizeInRange " + hotBytes + " below the hot keys' " + hot.totalHotSize());
    for (int id : more.hotIds()) {
      ralt.isHot(keys[id]);
    }
  }

  private static RaltOptions options(Path dir) {
    return RaltOptions.builder().directory(dir).fastDiskBytes(FAST_DISK_BYTES).build();
  }

  private static List<Path> segments(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> segments = new ArrayList<>();
      files.filter(p -> {
        String name = p.getFileName().toString();
        return name.startsWith("seg-") && name.endsWith(".ralt");
      }).forEach(segments::add);
      return segments;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The largest segment file, the first by name among equals, so the choice is repeatable. */
  private static Path largestSegment(Path dir) {
    return segments(dir).stream()
        .max(Comparator.<Path>comparingLong(p -> {
          try {
            return Files.size(p);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }).thenComparing(Comparator.<Path>reverseOrder()))
        .orElseThrow();
  }

  private static void flipBytes(Path file, long position, int count) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = Math.max(0, Math.min(position, ch.size() - count));
      ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, ch.size()));
      ch.read(buf, at);
      for (int i = 0; i < buf.limit(); i++) {
        buf.put(i, (byte) ~buf.get(i));
      }
      buf.rewind();
      ch.write(buf, at);
    }
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
