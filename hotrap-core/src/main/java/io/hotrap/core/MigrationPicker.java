package io.hotrap.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Chooses which files of the fast tier's bottommost level a migration moves, and in which order
 * (HotRAP §3.5).
 *
 * <p>Each file scores {@code (size − hotSize) / (size + overlapBytesInSlow)}: the bytes a migration
 * would free on the fast tier per byte it would rewrite, where {@code hotSize} is RALT's estimate of
 * the hot bytes in the file's key range (those stay) and {@code overlapBytesInSlow} the slow tier's
 * bytes in that range (a later slow-tier compaction rewrites them). Files with a positive score come
 * first, best first; then the files with none (everything hot), oldest first, so the budget still
 * holds.
 *
 * <p>Cost: a round ranks its candidates once. The slow tier's overlap comes from a {@link SlowIndex}
 * (binary search over each sorted level, prefix sums of file sizes), so ranking n fast files against
 * m slow files costs O(m log m + n log m) plus one RALT range query per candidate, instead of the
 * O(n × m) per pick, and one pick per migrated file, of a rescan. Stateless and thread-safe.
 */
final class MigrationPicker {

  /** A live SST file as the picker sees it. */
  static final class FileInfo {
    final String path;
    final long fileNumber;
    final long size;
    final byte[] smallest;
    final byte[] largest;
    /** The file's level in its column family; -1 where unknown. */
    final int level;

    FileInfo(String path, long fileNumber, long size, byte[] smallest, byte[] largest) {
      this(path, fileNumber, size, smallest, largest, -1);
    }

    FileInfo(String path, long fileNumber, long size, byte[] smallest, byte[] largest, int level) {
      this.path = path;
      this.fileNumber = fileNumber;
      this.size = size;
      this.smallest = smallest;
      this.largest = largest;
      this.level = level;
    }

    boolean overlaps(byte[] low, byte[] high) {
      return Arrays.compareUnsigned(smallest, high) <= 0 && Arrays.compareUnsigned(low, largest) <= 0;
    }

    @Override
    public String toString() {
      return path + " (" + size + " bytes)";
    }
  }

  /** A ranked file and its score. */
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

  /**
   * The slow tier's files arranged for range-overlap sums: level 0 (files may overlap) is scanned,
   * every other level (sorted, disjoint) is binary-searched with prefix sums of its file sizes.
   */
  static final class SlowIndex {
    private final List<FileInfo> unsorted = new ArrayList<>();
    private final List<FileInfo[]> sortedLevels = new ArrayList<>();
    private final List<long[]> prefixSums = new ArrayList<>();

    /**
     * @param levels the slow tier's files by level, level 0 first; files of levels above 0 must not
     *     overlap (RocksDB's leveled invariant); their order within a level does not matter
     */
    SlowIndex(List<List<FileInfo>> levels) {
      for (int i = 0; i < levels.size(); i++) {
        if (i == 0) {
          unsorted.addAll(levels.get(0));
          continue;
        }
        FileInfo[] files = levels.get(i).toArray(new FileInfo[0]);
        if (files.length == 0) {
          continue;
        }
        Arrays.sort(files, (a, b) -> Arrays.compareUnsigned(a.smallest, b.smallest));
        long[] prefix = new long[files.length + 1];
        for (int j = 0; j < files.length; j++) {
          prefix[j + 1] = prefix[j] + files[j].size;
        }
        sortedLevels.add(files);
        prefixSums.add(prefix);
      }
    }

    /** Every file in one list, treated as possibly overlapping (tests and small inputs). */
    static SlowIndex unsorted(List<FileInfo> files) {
      return new SlowIndex(List.of(files));
    }

    /** Bytes of the slow files whose key range meets {@code [low, high]}. */
    long overlapBytes(byte[] low, byte[] high) {
      long sum = 0;
      for (FileInfo f : unsorted) {
        if (f.overlaps(low, high)) {
          sum += f.size;
        }
      }
      for (int i = 0; i < sortedLevels.size(); i++) {
        FileInfo[] files = sortedLevels.get(i);
        // First file that ends at or after low; files before it end below the range.
        int lo = 0;
        int hi = files.length;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (Arrays.compareUnsigned(files[mid].largest, low) < 0) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        int first = lo;
        // First file that starts after high; it and the files after it lie above the range.
        hi = files.length;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (Arrays.compareUnsigned(files[mid].smallest, high) <= 0) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        long[] prefix = prefixSums.get(i);
        sum += prefix[lo] - prefix[first];
      }
      return sum;
    }
  }

  private MigrationPicker() {}

  /** HotRAP §3.5's score of one file. */
  static double score(long size, long hotSize, long overlapBytesInSlow) {
    long denominator = size + overlapBytesInSlow;
    return denominator <= 0 ? 0 : (double) (size - hotSize) / denominator;
  }

  /**
   * Ranks {@code candidates} (files of one fast level not being compacted): positive scores first,
   * best first (ties: older file first); then the rest, oldest first.
   *
   * @param slow the slow tier's files
   * @param hotSizeInRange RALT's hot bytes in an inclusive key range
   */
  static List<Pick> rank(List<FileInfo> candidates, SlowIndex slow,
      BiFunction<byte[], byte[], Long> hotSizeInRange) {
    List<Pick> positive = new ArrayList<>();
    List<Pick> rest = new ArrayList<>();
    for (FileInfo f : candidates) {
      long hot = Math.max(0, hotSizeInRange.apply(f.smallest, f.largest));
      double score = score(f.size, hot, slow.overlapBytes(f.smallest, f.largest));
      if (score > 0) {
        positive.add(new Pick(f, score, hot, false));
      } else {
        rest.add(new Pick(f, score(f.size, hot, 0), hot, true));
      }
    }
    positive.sort(Comparator.comparingDouble((Pick p) -> -p.score)
        .thenComparingLong(p -> p.file.fileNumber));
    rest.sort(Comparator.comparingLong(p -> p.file.fileNumber));
    positive.addAll(rest);
    return positive;
  }

  /**
   * The first of {@link #rank}: the best candidate, or the oldest when none has a positive score.
   *
   * @return the pick, or null when there are no candidates
   */
  static Pick pick(List<FileInfo> candidates, List<FileInfo> slowFiles,
      BiFunction<byte[], byte[], Long> hotSizeInRange) {
    List<Pick> ranked = rank(candidates, SlowIndex.unsorted(slowFiles), hotSizeInRange);
    return ranked.isEmpty() ? null : ranked.get(0);
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
