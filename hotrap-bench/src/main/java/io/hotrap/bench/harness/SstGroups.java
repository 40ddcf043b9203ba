package io.hotrap.bench.harness;

import io.hotrap.cache.flash.FlashCache;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;

/**
 * Which SST file a record read from RocksDB probably came from, and which files compaction has
 * deleted: the <em>group</em> of a record-level flash cache that stands in for SAS-Cache's
 * block-level one (DESIGN.md §14).
 *
 * <p><b>The approximation.</b> A block-level cache knows each block's file from its cache key. A
 * record read through {@code get} does not say which file served it, so the group is guessed from
 * the live files' key ranges: the file of the deepest level whose range holds the key. Under
 * leveled compaction about 90% of the data sits in the last level, and a key updated lately also
 * has an older version there, so the guess names the file that holds the key's bottom version;
 * for a key whose newest version sits higher up it names a file that compaction rewrites later
 * than the real one would be. Keys no file range holds (only in a memtable) get
 * {@link FlashCache#NO_GROUP}. The ranges are refreshed after every flush and compaction, on
 * RocksDB's listener thread; in between, a read may still be grouped with a file that compaction
 * just deleted, which is how a block-level cache also comes to insert blocks of deleted files.
 *
 * <p><b>Dead files.</b> The input files of a finished compaction are deleted (no user snapshots
 * are taken here, so none keeps them). File numbers are never reused, so the set of dead numbers
 * is exact and only grows.
 *
 * <p>Thread-safe: lookups read an immutable snapshot of the ranges.
 */
final class SstGroups {
  /** One level's files sorted by smallest key; for L0, newest first and possibly overlapping. */
  private record Level(byte[][] smallest, byte[][] largest, long[] numbers, boolean overlapping) {}

  private volatile Level[] levels = new Level[0];
  private final Set<Long> dead = ConcurrentHashMap.newKeySet();

  /** Re-reads the live files' key ranges from {@code db}. */
  void refresh(RocksDB db) {
    List<LiveFileMetaData> files = db.getLiveFilesMetaData();
    int maxLevel = 0;
    for (LiveFileMetaData f : files) {
      maxLevel = Math.max(maxLevel, f.level());
    }
    List<List<LiveFileMetaData>> byLevel = new ArrayList<>();
    for (int i = 0; i <= maxLevel; i++) {
      byLevel.add(new ArrayList<>());
    }
    for (LiveFileMetaData f : files) {
      byLevel.get(f.level()).add(f);
    }
    Level[] next = new Level[maxLevel + 1];
    for (int l = 0; l <= maxLevel; l++) {
      List<LiveFileMetaData> fs = byLevel.get(l);
      if (l == 0) {
        fs.sort(Comparator.comparingLong((LiveFileMetaData f) -> number(f)).reversed());
      } else {
        fs.sort((a, b) -> Arrays.compareUnsigned(a.smallestKey(), b.smallestKey()));
      }
      byte[][] lo = new byte[fs.size()][];
      byte[][] hi = new byte[fs.size()][];
      long[] nums = new long[fs.size()];
      for (int i = 0; i < fs.size(); i++) {
        lo[i] = fs.get(i).smallestKey();
        hi[i] = fs.get(i).largestKey();
        nums[i] = number(fs.get(i));
      }
      next[l] = new Level(lo, hi, nums, l == 0);
    }
    levels = next;
  }

  /** The file number of the deepest live file whose key range holds {@code key}, else NO_GROUP. */
  long groupOf(byte[] key) {
    Level[] ls = levels;
    for (int l = ls.length - 1; l >= 0; l--) {
      Level level = ls[l];
      if (level.overlapping) {
        for (int i = 0; i < level.numbers.length; i++) {
          if (inRange(key, level.smallest[i], level.largest[i])) {
            return level.numbers[i];
          }
        }
        continue;
      }
      // The last file whose smallest key is <= key.
      int lo = 0;
      int hi = level.numbers.length - 1;
      int found = -1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (Arrays.compareUnsigned(level.smallest[mid], key) <= 0) {
          found = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (found >= 0 && Arrays.compareUnsigned(key, level.largest[found]) <= 0) {
        return level.numbers[found];
      }
    }
    return FlashCache.NO_GROUP;
  }

  /** Records that compaction deleted the files {@code paths}; returns their numbers. */
  long[] markDeleted(List<String> paths) {
    long[] numbers = new long[paths.size()];
    for (int i = 0; i < paths.size(); i++) {
      numbers[i] = number(paths.get(i));
      dead.add(numbers[i]);
    }
    return numbers;
  }

  /** Whether compaction deleted file {@code group}; NO_GROUP is never dead. */
  boolean isDead(long group) {
    return group != FlashCache.NO_GROUP && dead.contains(group);
  }

  private static boolean inRange(byte[] key, byte[] lo, byte[] hi) {
    return Arrays.compareUnsigned(lo, key) <= 0 && Arrays.compareUnsigned(key, hi) <= 0;
  }

  private static long number(LiveFileMetaData f) {
    return number(f.fileName());
  }

  /** {@code /path/000123.sst} to 123. */
  static long number(String path) {
    int end = path.lastIndexOf(".sst");
    int start = path.lastIndexOf('/') + 1;
    return Long.parseLong(path.substring(start, end < 0 ? path.length() : end));
  }
}
