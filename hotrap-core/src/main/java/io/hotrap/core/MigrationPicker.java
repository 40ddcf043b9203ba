package io.hotrap.core;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Chooses which file of the fast tier's bottommost level a migration moves (HotRAP §3.5).
 *
 * <p>Each file scores {@code (size − hotSize) / (size + overlapBytesInSlow)}: the bytes a migration
 * would free on the fast tier per byte it would rewrite, where {@code hotSize} is RALT's estimate of
 * the hot bytes in the file's key range (those stay) and {@code overlapBytesInSlow} the slow tier's
 * bytes in that range (a later slow-tier compaction rewrites them). The best file wins; when no file
 * has a positive benefit (everything is hot) the oldest file is taken so the budget still holds.
 * Stateless and thread-safe.
 */
final class MigrationPicker {

  /** A live SST file as the picker sees it. */
  static final class FileInfo {
    final String path;
    final long fileNumber;
    final long size;
    final byte[] smallest;
    final byte[] largest;

    FileInfo(String path, long fileNumber, long size, byte[] smallest, byte[] largest) {
      this.path = path;
      this.fileNumber = fileNumber;
      this.size = size;
      this.smallest = smallest;
      this.largest = largest;
    }

    boolean overlaps(byte[] low, byte[] high) {
      return Arrays.compareUnsigned(smallest, high) <= 0 && Arrays.compareUnsigned(low, largest) <= 0;
    }

    @Override
    public String toString() {
      return path + " (" + size + " bytes)";
    }
  }

  /** The chosen file and its score. */
  static final class Pick {
    final FileInfo file;
    final double score;
    final long hotSize;
    final boolean byAge;

    Pick(FileInfo file, double score, long hotSize, boolean byAge) {
      this.file = file;
      this.score = score;
      this.hotSize = hotSize;
      this.byAge = byAge;
    }
  }

  private MigrationPicker() {}

  /** HotRAP §3.5's score of one file. */
  static double score(long size, long hotSize, long overlapBytesInSlow) {
    long denominator = size + overlapBytesInSlow;
    return denominator <= 0 ? 0 : (double) (size - hotSize) / denominator;
  }

  /**
   * Picks among {@code candidates} (the fast tier's bottommost files not being compacted).
   *
   * @param slowFiles every live file of the slow tier
   * @param hotSizeInRange RALT's hot bytes in an inclusive key range
   * @return the pick, or null when there are no candidates
   */
  static Pick pick(List<FileInfo> candidates, List<FileInfo> slowFiles,
      BiFunction<byte[], byte[], Long> hotSizeInRange) {
    Pick best = null;
    FileInfo oldest = null;
    long oldestHot = 0;
    for (FileInfo f : candidates) {
      long overlap = 0;
      for (FileInfo s : slowFiles) {
        if (s.overlaps(f.smallest, f.largest)) {
          overlap += s.size;
        }
      }
      long hot = Math.max(0, hotSizeInRange.apply(f.smallest, f.largest));
      double score = score(f.size, hot, overlap);
      if (best == null || score > best.score) {
        best = new Pick(f, score, hot, false);
      }
      if (oldest == null || f.fileNumber < oldest.fileNumber) {
        oldest = f;
        oldestHot = hot;
      }
    }
    if (best == null) {
      return null;
    }
    if (best.score <= 0) {
      return new Pick(oldest, score(oldest.size, oldestHot, 0), oldestHot, true);
    }
    return best;
  }

  /** The number in a RocksDB SST file name such as {@code /000123.sst}. */
  static long fileNumber(String fileName) {
    long n = 0;
    boolean any = false;
    for (int i = 0; i < fileName.length(); i++) {
      char c = fileName.charAt(i);
      if (c >= '0' && c <= '9') {
        n = n * 10 + (c - '0');
        any = true;
      } else if (any) {
        break;
      }
    }
    return any ? n : Long.MAX_VALUE;
  }
}
