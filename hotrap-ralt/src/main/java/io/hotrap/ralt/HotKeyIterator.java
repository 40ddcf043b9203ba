package io.hotrap.ralt;

/**
 * The hot keys of a key range (or all its tracked keys, {@link Ralt#trackedKeys}) in unsigned-byte
 * order, in the style of a RocksIterator: it starts positioned on the first key, {@link #next()}
 * advances, and {@link #isValid()} turns false after the last one.
 *
 * <p>An open iterator pins the files it reads; close it promptly. Not thread-safe: use one iterator
 * from one thread at a time.
 */
public interface HotKeyIterator extends AutoCloseable {

  /** Whether the iterator is positioned on a hot key. */
  boolean isValid();

  /**
   * Moves to the next hot key.
   *
   * @throws IllegalStateException if the iterator is not valid or was closed
   */
  void next();

  /**
   * The current key; the caller owns the returned array.
   *
   * @throws IllegalStateException if the iterator is not valid or was closed
   */
  byte[] key();

  /**
   * Compares the current key with {@code other} in unsigned-byte order, without copying it: negative
   * if the current key sorts first, zero if equal.
   *
   * @throws NullPointerException if {@code other} is null
   * @throws IllegalStateException if the iterator is not valid or was closed
   */
  int compareKey(byte[] other);

  /**
   * Whether the current key is in the hot set: always for {@link Ralt#hotKeys}; for
   * {@link Ralt#trackedKeys}, whether any of its records is marked hot.
   *
   * @throws IllegalStateException if the iterator is not valid or was closed
   */
  boolean hot();

  /**
   * The current key's hot size: key length plus the value length last recorded for it.
   *
   * @throws IllegalStateException if the iterator is not valid or was closed
   */
  long hotSize();

  /** Releases the files the iterator pins. Idempotent. */
  @Override
  void close();
}
