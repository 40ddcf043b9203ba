package io.hotrap.ralt;

/** RALT skeleton: the public surface only, implementation in progress. */
public final class Ralt implements AutoCloseable {
  private Ralt() {}

  public static Ralt open(RaltOptions options) {
    throw new UnsupportedOperationException("in progress");
  }

  public void record(byte[] key, int valueLength) {
    throw new UnsupportedOperationException("in progress");
  }

  public boolean isHot(byte[] key) {
    throw new UnsupportedOperationException("in progress");
  }

  public long hotSizeInRange(byte[] lowInclusive, byte[] highInclusive) {
    throw new UnsupportedOperationException("in progress");
  }

  public HotKeyIterator hotKeys(byte[] lowInclusive, byte[] highInclusive) {
    throw new UnsupportedOperationException("in progress");
  }

  public RaltStats stats() {
    throw new UnsupportedOperationException("in progress");
  }

  /** Hands off buffered accesses and waits until merges and evictions they trigger are done. */
  public void awaitQuiescence() {
    throw new UnsupportedOperationException("in progress");
  }

  @Override
  public void close() {}
}
