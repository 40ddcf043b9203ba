package io.hotrap.ralt;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One key's access record — key, value length, last access time, score, stability counter and flags —
 * as a mutable holder and as its fixed on-disk layout. No values are tracked (HotRAP §3.2).
 *
 * <pre>
 * offset      size  field
 * 0           2     key length K, unsigned big-endian (at most 65535)
 * 2           K     key bytes
 * 2+K         4     value length, big-endian int, &gt;= 0
 * 6+K         8     time: the access clock (bytes accessed since the tracker was created) at the
 *                   record's last access; its tick is time / tickPeriodBytes
 * 14+K        4     score as of that tick, IEEE 754 float, big-endian
 * 18+K        8     stableUntil: decay-clock value ({@link Clock}) at which the stability counter
 *                   reaches zero
 * 26+K        1     flags: bit 0 = accessed at least twice while tracked (Algorithm 1's tag t),
 *                   bit 1 = hot when written (counted in the file's hot bytes and Bloom filter),
 *                   bit 2 = shadowed: the key was hot in a deeper run when this record was written,
 *                   so this record is a fresh copy awaiting a merge, not a new key,
 *                   bit 3 = stable hot: hot, and stable (Algorithm 1) when marked hot; or, in a
 *                   newly flushed run, the key was hot in an older run when it came back (its
 *                   bytes are then not counted as hot again)
 * </pre>
 *
 * <p>The counter c of Algorithm 1 is kept as {@code stableUntil}: c decreases by one every base
 * period R₀ of the decay clock, so {@code c = (stableUntil − now) / R₀}, and a record is stable while
 * its tag is set and {@code stableUntil > now}, both on the decay clock. That turns the paper's
 * periodic decrement of every counter into nothing at all. Not thread-safe.
 */
final class AccessRecord {
  static final int MAX_KEY_LENGTH = 0xFFFF;
  static final int OVERHEAD = 27;
  static final int FLAG_TAG = 1;
  static final int FLAG_HOT = 2;
  static final int FLAG_SHADOWED = 4;
  static final int FLAG_STABLE_HOT = 8;

  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle FLOAT =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);

  /** Buffer and range holding the key; the bytes are borrowed, not copied. */
  byte[] keyBuf;
  int keyOff;
  int keyLen;
  int valueLength;
  long time;
  float score;
  long stableUntil;
  boolean tagged;
  boolean hot;
  boolean shadowed;
  boolean stableHot;

  /** Bytes of a record with a key of {@code keyLength} bytes. */
  static int encodedSize(int keyLength) {
    return OVERHEAD + keyLength;
  }

  long hotSize() {
    return (long) keyLen + valueLength;
  }

  int encodedSize() {
    return OVERHEAD + keyLen;
  }

  /** Reads the record at {@code off} of {@code buf}, borrowing its key bytes; returns its size. */
  int decode(byte[] buf, int off) {
    int k = ((buf[off] & 0xFF) << 8) | (buf[off + 1] & 0xFF);
    keyBuf = buf;
    keyOff = off + 2;
    keyLen = k;
    int p = off + 2 + k;
    valueLength = (int) INT.get(buf, p);
    time = (long) LONG.get(buf, p + 4);
    score = (float) FLOAT.get(buf, p + 12);
    stableUntil = (long) LONG.get(buf, p + 16);
    int flags = buf[p + 24];
    tagged = (flags & FLAG_TAG) != 0;
    hot = (flags & FLAG_HOT) != 0;
    shadowed = (flags & FLAG_SHADOWED) != 0;
    stableHot = (flags & FLAG_STABLE_HOT) != 0;
    return OVERHEAD + k;
  }

  /** Writes the record at {@code off} of {@code buf}; returns its size. */
  int encode(byte[] buf, int off) {
    buf[off] = (byte) (keyLen >>> 8);
    buf[off + 1] = (byte) keyLen;
    System.arraycopy(keyBuf, keyOff, buf, off + 2, keyLen);
    int p = off + 2 + keyLen;
    INT.set(buf, p, valueLength);
    LONG.set(buf, p + 4, time);
    FLOAT.set(buf, p + 12, score);
    LONG.set(buf, p + 16, stableUntil);
    buf[p + 24] = (byte) ((tagged ? FLAG_TAG : 0) | (hot ? FLAG_HOT : 0)
        | (shadowed ? FLAG_SHADOWED : 0) | (stableHot ? FLAG_STABLE_HOT : 0));
    return OVERHEAD + keyLen;
  }

  void copyFrom(AccessRecord o) {
    keyBuf = o.keyBuf;
    keyOff = o.keyOff;
    keyLen = o.keyLen;
    valueLength = o.valueLength;
    time = o.time;
    score = o.score;
    stableUntil = o.stableUntil;
    tagged = o.tagged;
    hot = o.hot;
    shadowed = o.shadowed;
    stableHot = o.stableHot;
  }

  /** Whether Algorithm 1 counts this record as stable at decay-clock time {@code decayNow}. */
  boolean isStable(long decayNow) {
    return tagged && stableUntil > decayNow;
  }

  /**
   * Folds {@code newer}, a later record of the same key, into this one: the score merges as the
   * scorer says, the value length and time become the newer ones and the counters add up to at most
   * c_max. The tag is set when the key came back before this record's counter ran out (Algorithm 1:
   * an access while c > 0), or when {@code newer} was already tagged; a key whose counter drained
   * starts over untagged, so two accesses far apart do not make it stable. {@code newer.time} is its
   * last access: for an aggregate of several accesses, the test is against the last, which can only
   * miss a tag, never invent one.
   */
  void mergeNewer(AccessRecord newer, Clock clock) {
    long newerDecay = clock.decayAt(newer.time);
    boolean cameBackInTime = stableUntil > newerDecay;
    long t = Math.max(time, newer.time);
    score = clock.scorer.merge(score, clock.tick(time), newer.score, clock.tick(newer.time),
        clock.logAlpha);
    long d = t == newer.time ? newerDecay : clock.decayAt(t);
    long counter = Math.max(0, stableUntil - d) + Math.max(0, newer.stableUntil - d);
    stableUntil = d + Math.min(counter, clock.maxCounterBytes);
    tagged = newer.tagged || cameBackInTime;
    time = t;
    valueLength = newer.valueLength;
  }

  static int compareKeys(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return java.util.Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  int compareKey(AccessRecord o) {
    return compareKeys(keyBuf, keyOff, keyLen, o.keyBuf, o.keyOff, o.keyLen);
  }

  byte[] keyCopy() {
    return java.util.Arrays.copyOfRange(keyBuf, keyOff, keyOff + keyLen);
  }
}
