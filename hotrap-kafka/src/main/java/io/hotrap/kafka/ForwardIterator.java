package io.hotrap.kafka;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapIterator;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/** Ascending keys of {@code [low, highExclusive)}, a thin layer over {@link HotRapIterator}. */
final class ForwardIterator extends StoreIterator {
  private final HotRapIterator it;

  /** @param low the lowest key, or null; @param highExclusive the bound above the keys, or null */
  ForwardIterator(HotRapKeyValueStore store, HotRapDB db, byte[] low, byte[] highExclusive) {
    super(store);
    this.it = db.newIterator(low, highExclusive);
    boolean positioned = false;
    try {
      it.seekToFirst();
      positioned = true;
    } finally {
      if (!positioned) {
        it.close();
      }
    }
  }

  @Override
  boolean hasRecord() {
    return it.isValid();
  }

  @Override
  KeyValue<Bytes, byte[]> nextRecord() {
    KeyValue<Bytes, byte[]> record = KeyValue.pair(Bytes.wrap(it.key()), it.value());
    it.next();
    return record;
  }

  @Override
  Bytes nextKey() {
    return Bytes.wrap(it.key());
  }

  @Override
  void release() {
    it.close();
  }
}
