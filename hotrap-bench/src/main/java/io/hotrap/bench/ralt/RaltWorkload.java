package io.hotrap.bench.ralt;

import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.HotspotStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.HotKeyIterator;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import java.nio.file.Path;

/**
 * The setting every RALT measurement shares, after HotRAP §4: 1 KiB records (24-byte key,
 * 1000-byte value), a million keys (≈ 1 GB of data) and a 200 MiB fast disk, so that the hot set
 * of hotspot-5% (≈ 51 MB) sits well inside R_hs = 0.7·FD.
 */
public final class RaltWorkload {

  public static final int KEYS = 1_000_000;
  public static final int VALUE_BYTES = 1000;
  public static final long RECORD_BYTES = Keys.KEY_BYTES + VALUE_BYTES;
  public static final long FAST_DISK_BYTES = 200L << 20;

  private RaltWorkload() {}

  /** RALT's defaults for a fast disk of {@code fastDiskBytes}. */
  public static RaltOptions.Builder options(Path dir, long fastDiskBytes) {
    return RaltOptions.builder().directory(dir).fastDiskBytes(fastDiskBytes);
  }

  /** Records {@code count} accesses of {@code stream}, each with {@code valueBytes}. */
  public static void record(Ralt ralt, byte[][] keys, AccessStream stream, long count,
      int valueBytes) {
    for (long i = 0; i < count; i++) {
      ralt.record(keys[stream.next()], valueBytes);
    }
  }

  /** What RALT's hot set holds against a hotspot's true hot keys. */
  public static final class Recall {
    /** True hot keys that {@link Ralt#hotKeys} returned. */
    public final long found;
    /** Number of true hot keys. */
    public final long trueHot;
    /** Keys returned in all. */
    public final long returned;
    /** Hot bytes of the returned keys. */
    public final long returnedBytes;
    /** Hot bytes of the returned keys that are not truly hot. */
    public final long beyondBytes;
    /** True hot keys for which {@link Ralt#isHot} answered true. */
    public final long isHotTrue;

    private Recall(long found, long trueHot, long returned, long returnedBytes, long beyondBytes,
        long isHotTrue) {
      this.found = found;
      this.trueHot = trueHot;
      this.returned = returned;
      this.returnedBytes = returnedBytes;
      this.beyondBytes = beyondBytes;
      this.isHotTrue = isHotTrue;
    }

    public double recall() {
      return trueHot == 0 ? 0 : (double) found / trueHot;
    }

    public double isHotRecall() {
      return trueHot == 0 ? 0 : (double) isHotTrue / trueHot;
    }
  }

  /** Compares the hot keys of the whole key space with the stream's true hot keys. */
  public static Recall recall(Ralt ralt, byte[][] keys, HotspotStream stream) {
    long found = 0;
    long returned = 0;
    long returnedBytes = 0;
    long beyondBytes = 0;
    try (HotKeyIterator it = ralt.hotKeys(Keys.lowest(), Keys.highest())) {
      for (; it.isValid(); it.next()) {
        returned++;
        returnedBytes += it.hotSize();
        if (stream.isHot((int) Keys.id(it.key()))) {
          found++;
        } else {
          beyondBytes += it.hotSize();
        }
      }
    }
    long isHotTrue = 0;
    for (int id : stream.hotIds()) {
      if (ralt.isHot(keys[id])) {
        isHotTrue++;
      }
    }
    return new Recall(found, stream.hotKeyCount(), returned, returnedBytes, beyondBytes, isHotTrue);
  }

  /** Bytes in a readable unit. */
  public static String bytes(double b) {
    if (b < 10 * 1024) {
      return String.format("%.0f B", b);
    }
    if (b < 10.0 * 1024 * 1024) {
      return String.format("%.1f KiB", b / 1024);
    }
    if (b < 10.0 * 1024 * 1024 * 1024) {
      return String.format("%.1f MiB", b / (1024 * 1024));
    }
    return String.format("%.2f GiB", b / (1024.0 * 1024 * 1024));
  }
}
