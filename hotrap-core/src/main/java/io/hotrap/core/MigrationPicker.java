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
    /** The slow tier's bytes in the file's key range. */
    final long overlapBytes;

    Pick(FileInfo file, double score, long hotSize, boolean byAge) {
      this(file, score, hotSize, byAge, 0);
    }

    Pick(FileInfo file, double score, long hotSize, boolean byAge, long overlapBytes) {
      this.file = file;
      this.score = score;
      this.hotSize = hotSize;
      this.byAge = byAge;
      this.overlapBytes = overlapBytes;
    }

    /** The bytes migrating the file is expected to free on the fast tier. */
    long freed(boolean ignoreHotness) {
      return ignoreHotness ? file.size : Math.max(0, file.size - hotSize);
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
      long overlap = slow.overlapBytes(f.smallest, f.largest);
      double score = score(f.size, hot, overlap);
      if (score > 0) {
        positive.add(new Pick(f, score, hot, false, overlap));
      } else {
        rest.add(new Pick(f, score(f.size, hot, 0), hot, true, overlap));
      }
    }
    positive.sort(Comparator.comparingDouble((Pick p) -> -p.score)
        .thenComparingLong(p -> p.file.fileNumber));
    rest.sort(Comparator.comparingLong(p -> p.file.fileNumber));
    positive.addAll(rest);
    return positive;
  }

  /**
   * Reorders a round's ranked picks so that the files it migrates first lie next to one another in
   * key order: of the runs of adjacent files of the first pick's level that are expected to free
   * {@code excess} bytes, the one with the best score as a whole ({@link #score} of the summed
   * sizes, hot sizes and overlaps; ties: the first in key order), then the other picks in their
   * ranked order. Where no run frees that much, the ranking is returned as it is.
   *
   * <p>Why: the round ends with one range compaction over the span of the files it migrated
   * (TierMigrator step 6), which rewrites every fast-tier file in that span. Files scattered over
   * the key space (any spread of cold data, such as a uniform load) make that span the whole tier,
   * rewritten once per round; a run of adjacent files limits it to their share of each level.
   */
  static List<Pick> adjacent(List<Pick> ranked, long excess, boolean ignoreHotness) {
    if (ranked.isEmpty()) {
      return ranked;
    }
    int level = ranked.get(0).file.level;
    List<Pick> row = new ArrayList<>();
    for (Pick p : ranked) {
      if (p.file.level == level) {
        row.add(p);
      }
    }
    row.sort((a, b) -> Arrays.compareUnsigned(a.file.smallest, b.file.smallest));
    int bestStart = -1;
    int bestEnd = -1;
    double bestScore = Double.NEGATIVE_INFINITY;
    long freed = 0;
    long size = 0;
    long hot = 0;
    long overlap = 0;
    int end = 0;
    for (int start = 0; start < row.size(); start++) {
      while (end < row.size() && freed < excess) {
        Pick p = row.get(end++);
        freed += p.freed(ignoreHotness);
        size += p.file.size;
        hot += ignoreHotness ? 0 : Math.min(p.file.size, p.hotSize);
        overlap += p.overlapBytes;
      }
      if (freed < excess) {
        break;
      }
      double s = score(size, hot, overlap);
      if (s > bestScore) {
        bestScore = s;
        bestStart = start;
        bestEnd = end;
      }
      Pick first = row.get(start);
      freed -= first.freed(ignoreHotness);
      size -= first.file.size;
      hot -= ignoreHotness ? 0 : Math.min(first.file.size, first.hotSize);
      overlap -= first.overlapBytes;
    }
    if (bestStart < 0) {
      return ranked;
    }
    List<Pick> run = row.subList(bestStart, bestEnd);
    java.util.Set<Pick> taken = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    taken.addAll(run);
    List<Pick> ordered = new ArrayList<>(ranked.size());
    ordered.addAll(run);
    for (Pick p : ranked) {
      if (!taken.contains(p)) {
        ordered.add(p);
      }
    }
    return ordered;
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
