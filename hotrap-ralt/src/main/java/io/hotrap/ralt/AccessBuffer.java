package io.hotrap.ralt;

import java.util.Arrays;

/**
 * RALT's unsorted in-memory buffer (HotRAP §3.2): accesses are appended in arrival order, and when
 * the buffer is full the background thread aggregates the accesses of each key and sorts the keys,
 * producing the records of a new level-0 run.
 *
 * <p>Keys are copied into one arena, so recording an access allocates nothing. Not thread-safe: the
 * tracker appends under its buffer lock, then hands the whole buffer to the background thread, which
 * owns it until it is {@linkplain #clear() cleared} and returned.
 */
final class AccessBuffer {
  /** Typical key length, used to size the entry arrays; shorter keys grow them. */
  private static final int TYPICAL_KEY = 24;

  private final int capacity;
  private final byte[] arena;
  private int[] keyOff;
  private int[] keyLen;
  private int[] valueLen;
  private long[] time;
  private int arenaUsed;
  /** Bytes the buffered accesses would take on disk as records, before aggregation. */
  private long recordBytes;
  private int count;

  // Aggregation state, reused across drains.
  private int[] table = new int[0];
  private int[] distinct = new int[0];
  private float[] aggScore = new float[0];
  private long[] aggTime = new long[0];
  private long[] aggStableUntil = new long[0];
  private boolean[] aggTagged = new boolean[0];
  private int[] aggValueLen = new int[0];
  private int distinctCount;

  /**
   * A buffer that is full when its accesses, one record each, would take {@code bytes} on disk; so a
   * full buffer never writes more than {@code bytes} of records (plus block framing).
   */
  AccessBuffer(int bytes) {
    capacity = bytes;
    int entries = Math.max(16, bytes / (AccessRecord.OVERHEAD + TYPICAL_KEY));
    arena = new byte[bytes];
    keyOff = new int[entries];
    keyLen = new int[entries];
    valueLen = new int[entries];
    time = new long[entries];
  }

  /** Appends one access; false when the buffer is full (nothing is appended then). */
  /** Bytes the buffered accesses take as records on disk. */
  long recordBytes() {
    return recordBytes;
  }

  boolean add(byte[] key, int valueLength, long accessTime) {
    int size = AccessRecord.encodedSize(key.length);
    if (count > 0 && recordBytes + size > capacity) {
      return false;
    }
    if (count == keyOff.length) {
      int n = count * 2;
      keyOff = Arrays.copyOf(keyOff, n);
      keyLen = Arrays.copyOf(keyLen, n);
      valueLen = Arrays.copyOf(valueLen, n);
      time = Arrays.copyOf(time, n);
    }
    if (arena.length - arenaUsed < key.length) {
      return false; // only a key longer than the whole buffer gets here
    }
    recordBytes += size;
    System.arraycopy(key, 0, arena, arenaUsed, key.length);
    keyOff[count] = arenaUsed;
    keyLen[count] = key.length;
    valueLen[count] = valueLength;
    time[count] = accessTime;
    arenaUsed += key.length;
    count++;
    return true;
  }

  int size() {
    return count;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** Access clock of the last access appended, or -1 if empty. */
  long lastTime() {
    return count == 0 ? -1 : time[count - 1];
  }

  void clear() {
    count = 0;
    arenaUsed = 0;
    recordBytes = 0;
    distinctCount = 0;
  }

  /**
   * Aggregates the accesses of each key — in arrival order, so each merge folds a newer access into
   * the older record — and sorts the distinct keys in unsigned order. Then {@link #distinctCount()}
   * and {@link #load(int, AccessRecord)} read the result.
   */
  void aggregateAndSort(Clock clock) {
    int cap = Integer.highestOneBit(Math.max(4, count * 2 - 1)) << 1;
    if (table.length < cap) {
      table = new int[cap];
    }
    Arrays.fill(table, 0, cap, -1);
    if (distinct.length < count) {
      int n = keyOff.length;
      distinct = new int[n];
      aggScore = new float[n];
      aggTime = new long[n];
      aggStableUntil = new long[n];
      aggTagged = new boolean[n];
      aggValueLen = new int[n];
    }
    int mask = cap - 1;
    int d = 0;
    AccessRecord older = new AccessRecord();
    AccessRecord newer = new AccessRecord();
    for (int i = 0; i < count; i++) {
      int slot = (int) KeyHash.hash(arena, keyOff[i], keyLen[i]) & mask;
      while (true) {
        int j = table[slot];
        if (j < 0) {
          table[slot] = d;
          distinct[d] = i;
          clock.initAccess(newer, time[i]);
          aggScore[d] = newer.score;
          aggTime[d] = newer.time;
          aggStableUntil[d] = newer.stableUntil;
          aggTagged[d] = false;
          aggValueLen[d] = valueLen[i];
          d++;
          break;
        }
        int e = distinct[j];
        if (keyLen[e] == keyLen[i]
            && Arrays.equals(arena, keyOff[e], keyOff[e] + keyLen[e], arena, keyOff[i],
                keyOff[i] + keyLen[i])) {
          older.score = aggScore[j];
          older.time = aggTime[j];
          older.stableUntil = aggStableUntil[j];
          older.tagged = aggTagged[j];
          older.valueLength = aggValueLen[j];
          clock.initAccess(newer, time[i]);
          newer.valueLength = valueLen[i];
          older.mergeNewer(newer, clock);
          aggScore[j] = older.score;
          aggTime[j] = older.time;
          aggStableUntil[j] = older.stableUntil;
          aggTagged[j] = older.tagged;
          aggValueLen[j] = older.valueLength;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    distinctCount = d;
    sortByKey(d);
  }

  private int[] order = new int[0];
  private long[] packed = new long[0];

  /**
   * Sorts the distinct keys. Each key is reduced to the 44 bits that follow the prefix all keys of
   * the buffer share, packed with its 20-bit index into one long, and the longs are sorted as
   * primitives; only keys whose 44 bits tie are compared in full. Keys of real workloads share long
   * prefixes ("user0000…"), which is why the shared prefix is skipped first.
   */
  private void sortByKey(int n) {
    if (order.length < n) {
      order = new int[keyOff.length];
    }
    if (n > (1 << INDEX_BITS)) {
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      mergeSort(order, new int[n], 0, n);
      return;
    }
    int shared = sharedPrefix(n);
    if (packed.length < n) {
      packed = new long[keyOff.length];
    }
    for (int i = 0; i < n; i++) {
      int e = distinct[i];
      long bits = 0;
      int off = keyOff[e] + shared;
      int len = keyLen[e] - shared;
      for (int b = 0; b < 6; b++) {
        bits = (bits << 8) | (b < len ? (arena[off + b] & 0xFF) : 0);
      }
      // 48 bits read, the top 44 kept; flipping the sign bit makes signed order unsigned order.
      packed[i] = ((bits >>> 4) << INDEX_BITS | i) ^ Long.MIN_VALUE;
    }
    Arrays.sort(packed, 0, n);
    long mask = (1L << INDEX_BITS) - 1;
    for (int i = 0; i < n; i++) {
      order[i] = (int) (packed[i] & mask);
    }
    // Keys whose 44 bits tie: finish with an insertion sort of each tied group.
    int groupStart = 0;
    for (int i = 1; i <= n; i++) {
      if (i == n || (packed[i] >>> INDEX_BITS) != (packed[groupStart] >>> INDEX_BITS)) {
        if (i - groupStart > 1) {
          insertionSort(order, groupStart, i);
        }
        groupStart = i;
      }
    }
  }

  private static final int INDEX_BITS = 20;

  private int sharedPrefix(int n) {
    if (n == 0) {
      return 0;
    }
    int first = distinct[0];
    int shared = keyLen[first];
    for (int i = 1; i < n && shared > 0; i++) {
      int e = distinct[i];
      int m = Arrays.mismatch(arena, keyOff[first], keyOff[first] + shared, arena, keyOff[e],
          keyOff[e] + Math.min(shared, keyLen[e]));
      if (m >= 0) {
        shared = m;
      } else {
        shared = Math.min(shared, keyLen[e]);
      }
    }
    return shared;
  }

  private void insertionSort(int[] a, int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      int v = a[i];
      int j = i - 1;
      while (j >= lo && compareAgg(a[j], v) > 0) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = v;
    }
  }

  private void mergeSort(int[] a, int[] tmp, int lo, int hi) {
    if (hi - lo <= 16) {
      insertionSort(a, lo, hi);
      return;
    }
    int mid = (lo + hi) >>> 1;
    mergeSort(a, tmp, lo, mid);
    mergeSort(a, tmp, mid, hi);
    if (compareAgg(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, lo, tmp, lo, hi - lo);
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
      if (j >= hi || (i < mid && compareAgg(tmp[i], tmp[j]) <= 0)) {
        a[k] = tmp[i++];
      } else {
        a[k] = tmp[j++];
      }
    }
  }

  private int compareAgg(int x, int y) {
    int ex = distinct[x];
    int ey = distinct[y];
    return AccessRecord.compareKeys(arena, keyOff[ex], keyLen[ex], arena, keyOff[ey], keyLen[ey]);
  }

  int distinctCount() {
    return distinctCount;
  }

  /** Fills {@code r} with the {@code i}-th aggregated record in key order (key bytes borrowed). */
  void load(int i, AccessRecord r) {
    int j = order[i];
    int e = distinct[j];
    r.keyBuf = arena;
    r.keyOff = keyOff[e];
    r.keyLen = keyLen[e];
    r.valueLength = aggValueLen[j];
    r.time = aggTime[j];
    r.score = aggScore[j];
    r.stableUntil = aggStableUntil[j];
    r.tagged = aggTagged[j];
    r.hot = false;
  }

  /** Heap bytes this buffer holds. */
  long memoryBytes() {
    return arena.length + keyOff.length * 20L + table.length * 4L + distinct.length * 33L
        + order.length * 4L + packed.length * 8L;
  }
}
