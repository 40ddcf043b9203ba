package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentFileTest {
  private static final int RECORDS = 20_000;
  @TempDir Path dir;
  private final IoStats io = new IoStats(() -> Long.MAX_VALUE);

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes();
  }

  /** Writes RECORDS records; every third one hot, value length i % 1000. */
  private Segment writeSegment(long id) throws IOException {
    SegmentWriter w = new SegmentWriter(id, dir, 4096, 20, io);
    AccessRecord r = new AccessRecord();
    for (int i = 0; i < RECORDS; i++) {
      byte[] k = key(i);
      r.keyBuf = k;
      r.keyOff = 0;
      r.keyLen = k.length;
      r.valueLength = i % 1000;
      r.time = i;
      r.score = i / 7f;
      r.stableUntil = 2L * i;
      r.tagged = i % 2 == 0;
      r.hot = i % 3 == 0;
      w.add(r);
    }
    return w.finish();
  }

  private static long exactHotBytes(int from, int to) {
    long sum = 0;
    for (int i = from; i <= to; i++) {
      if (i % 3 == 0) {
        sum += key(i).length + i % 1000;
      }
    }
    return sum;
  }

  @Test
  void recoveredSegmentHasTheWrittenIndexAndRecords() throws IOException {
    Segment written = writeSegment(1);
    Segment read = Segment.recover(1, written.path, 20, io);
    assertEquals(written.recordCount, read.recordCount);
    assertEquals(written.hotBytes, read.hotBytes);
    assertEquals(written.hotCount, read.hotCount);
    assertEquals(written.blockCount(), read.blockCount());
    assertArrayEquals(key(0), read.firstKey);
    assertArrayEquals(key(RECORDS - 1), read.lastKey);
    assertEquals(exactHotBytes(0, RECORDS - 1), read.hotBytes);

    RunCursor c = new RunCursor(new Run(1, 1, java.util.List.of(read)));
    c.seekToFirst();
    for (int i = 0; i < RECORDS; i++) {
      assertTrue(c.isValid());
      AccessRecord r = c.current;
      assertArrayEquals(key(i), r.keyCopy());
      assertEquals(i % 1000, r.valueLength);
      assertEquals(i, r.time);
      assertEquals(i / 7f, r.score);
      assertEquals(2L * i, r.stableUntil);
      assertEquals(i % 2 == 0, r.tagged);
      assertEquals(i % 3 == 0, r.hot);
      c.next();
    }
    assertTrue(!c.isValid());
  }

  @Test
  void bloomFilterHoldsHotKeysOnly() throws IOException {
    Segment s = writeSegment(2);
    int coldPositives = 0;
    for (int i = 0; i < RECORDS; i++) {
      boolean maybe = s.mightBeHot(KeyHash.hash(key(i)));
      if (i % 3 == 0) {
        assertTrue(maybe, "hot key " + i);
      } else if (maybe) {
        coldPositives++;
      }
    }
    assertTrue(coldPositives < RECORDS / 100, "cold keys reported hot: " + coldPositives);
  }

  @Test
  void hotBytesInRangeBoundsTheExactFigureFromAbove() throws IOException {
    Segment s = writeSegment(3);
    java.util.Random rnd = new java.util.Random(7);
    for (int n = 0; n < 500; n++) {
      int a = rnd.nextInt(RECORDS);
      int b = a + rnd.nextInt(RECORDS - a);
      long exact = exactHotBytes(a, b);
      long estimate = s.hotBytesInRange(key(a), key(b));
      assertTrue(estimate >= exact, "estimate " + estimate + " below exact " + exact);
      // At most the two boundary blocks (4 KiB of ~40-byte records, a third of them hot) more.
      long boundary = 2L * (4096 / 40 / 3 + 1) * (11 + 1000);
      assertTrue(estimate <= exact + boundary, "estimate " + estimate + " exact " + exact);
    }
    assertEquals(0, s.hotBytesInRange("a".getBytes(), "b".getBytes()));
  }

  @Test
  void truncatedFileKeepsItsValidBlocks() throws IOException {
    Segment s = writeSegment(4);
    long size = Files.size(s.path);
    try (RandomAccessFile f = new RandomAccessFile(s.path.toFile(), "rw")) {
      f.setLength(size / 2);
    }
    Segment r = Segment.recover(4, s.path, 20, io);
    assertTrue(r.recordCount > 0 && r.recordCount < RECORDS, "kept " + r.recordCount);
    assertArrayEquals(key(0), r.firstKey);
    assertArrayEquals(key((int) r.recordCount - 1), r.lastKey);
  }

  @Test
  void damagedBlockCutsTheSegmentBeforeIt() throws IOException {
    Segment s = writeSegment(5);
    long size = Files.size(s.path);
    try (RandomAccessFile f = new RandomAccessFile(s.path.toFile(), "rw")) {
      long at = size / 3;
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x5A);
    }
    Segment r = Segment.recover(5, s.path, 20, io);
    assertTrue(r.recordCount > 0 && r.recordCount < RECORDS / 2, "kept " + r.recordCount);
    // The damage is also caught when a segment opened before it happened is read: one block fails.
    int failing = 0;
    for (int i = 0; i < s.blockCount(); i++) {
      try {
        s.readBlock(i);
      } catch (CorruptSegmentException e) {
        failing++;
      }
    }
    assertEquals(1, failing);
  }

  @Test
  void fileWithoutValidHeaderIsDropped() throws IOException {
    Path p = Segment.fileName(dir, 6);
    Files.write(p, "not a segment at all".getBytes());
    assertNull(Segment.recover(6, p, 20, io));
  }

  @Test
  void abortedWriterLeavesNoFile() throws IOException {
    SegmentWriter w = new SegmentWriter(7, dir, 4096, 20, io);
    AccessRecord r = new AccessRecord();
    r.keyBuf = key(1);
    r.keyLen = r.keyBuf.length;
    w.add(r);
    w.abort();
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void indexHoldsTheFirstKeyOfEachBlock() throws IOException {
    Segment s = writeSegment(8);
    for (int i = 0; i < RECORDS; i += 997) {
      int block = s.floorBlock(key(i));
      byte[] data = s.readBlock(block);
      AccessRecord r = new AccessRecord();
      r.decode(data, 8);
      assertTrue(Arrays.compareUnsigned(r.keyCopy(), key(i)) <= 0);
      if (block + 1 < s.blockCount()) {
        AccessRecord next = new AccessRecord();
        next.decode(s.readBlock(block + 1), 8);
        assertTrue(Arrays.compareUnsigned(next.keyCopy(), key(i)) > 0);
      }
    }
  }
}
