package io.hotrap.bench.jmh;

import io.hotrap.wal.Codec;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Compression and decompression of one block of a packed tier-log segment by each {@link Codec},
 * single thread; the score is blocks per second, and setup prints the block's size (just under
 * {@value #BLOCK_BYTES} bytes, whole records only) and each codec's ratio (compressed over raw
 * bytes), so MB/s is the score times the block size.
 *
 * <p>The block is records shaped like the log's own (a 21-byte header with a random checksum,
 * then key and value) from the paper's evaluation (WAL-assisted tiering §4.1, §4.5): 16-byte keys
 * and 1 KiB values at db_bench's compressibility 0.5, i.e. 512 random printable characters
 * repeated once. The paper measured ratios of 0.550 for LZ4 and 0.438 for zstd on such data.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class SegmentCodecBenchmark {

  /** The log's default block size. */
  static final int BLOCK_BYTES = 1 << 20;
  static final int KEY_BYTES = 16;
  static final int VALUE_BYTES = 1024;
  static final double COMPRESSIBILITY = 0.5;
  private static final int HEADER_BYTES = 21;

  @Param({"LZ4", "ZSTD"})
  public String codec;

  private Codec selected;
  private byte[] block;
  private byte[] compressed;
  private int compressedLength;
  private byte[] restored;

  @Setup(Level.Trial)
  public void buildBlock() throws Exception {
    selected = Codec.valueOf(codec);
    block = records(BLOCK_BYTES, 42);
    compressed = new byte[selected.maxCompressedLength(block.length)];
    compressedLength = selected.compress(block, 0, block.length, compressed, 0);
    restored = new byte[block.length];
    selected.decompress(compressed, 0, compressedLength, restored, 0, block.length);
    if (!java.util.Arrays.equals(block, restored)) {
      throw new IllegalStateException(codec + " does not round-trip");
    }
    System.out.printf(Locale.ROOT, "%n%s ratio %.3f (%d of %d bytes)%n", codec,
        (double) compressedLength / block.length, compressedLength, block.length);
  }

  /** As many whole records as fit in {@code bytes}. */
  static byte[] records(int bytes, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] out = new byte[bytes];
    int at = 0;
    long seq = 1_000_000;
    int recordBytes = HEADER_BYTES + KEY_BYTES + VALUE_BYTES;
    while (at + recordBytes <= bytes) {
      putInt(out, at, recordBytes - 8);
      putInt(out, at + 4, random.nextInt()); // the checksum: incompressible
      out[at + 8] = 1;
      putInt(out, at + 9, (int) (seq >>> 32));
      putInt(out, at + 13, (int) seq++);
      putInt(out, at + 17, KEY_BYTES);
      byte[] key = String.format(Locale.ROOT, "%016d", random.nextLong(10_000_000_000L))
          .getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(key, 0, out, at + HEADER_BYTES, KEY_BYTES);
      int valueAt = at + HEADER_BYTES + KEY_BYTES;
      int raw = (int) (VALUE_BYTES * COMPRESSIBILITY);
      for (int i = 0; i < raw; i++) {
        out[valueAt + i] = (byte) (' ' + random.nextInt(95)); // db_bench's RandomString
      }
      for (int i = raw; i < VALUE_BYTES; i++) {
        out[valueAt + i] = out[valueAt + i - raw];
      }
      at += recordBytes;
    }
    return java.util.Arrays.copyOf(out, at);
  }

  private static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }

  @Benchmark
  public int compress() {
    return selected.compress(block, 0, block.length, compressed, 0);
  }

  @Benchmark
  public byte[] decompress() throws Exception {
    selected.decompress(compressed, 0, compressedLength, restored, 0, block.length);
    return restored;
  }
}
