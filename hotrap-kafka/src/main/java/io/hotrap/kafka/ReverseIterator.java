package io.hotrap.kafka;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapIterator;
import io.hotrap.core.HotRapSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * Descending keys of {@code [low, highExclusive)}, built from {@link HotRapIterator}, which only
 * moves forward.
 *
 * <p>All reads happen at one snapshot, so the key set cannot change between them. A first pass
 * walks the range reading keys only (no values, and no access is logged to RALT) and keeps every
 * {@value #CHUNK}-th key: the first key of each chunk of {@value #CHUNK} records. Then the chunks
 * are read last to first, each with one seek and {@value #CHUNK} steps forward, and returned
 * reversed. Memory is one chunk of records plus one key per chunk; time is two passes over the
 * range, the first one before the first record is returned. The forward merge of both tiers
 * stays the only scan code, where a reverse merge would be a second one to keep right.
 */
final class ReverseIterator extends StoreIterator {
  /** Records per chunk: few enough to keep in memory, enough to make the seek per chunk cheap. */
  static final int CHUNK = 256;

  private final HotRapSnapshot snapshot;
  private final HotRapIterator it;
  private final List<byte[]> chunkStarts = new ArrayList<>();
  private final ArrayDeque<KeyValue<Bytes, byte[]>> chunk = new ArrayDeque<>(CHUNK);
  private int lastChunkSize;
  private int nextChunk;

  /** @param low the lowest key, or null; @param highExclusive the bound above the keys, or null */
  ReverseIterator(HotRapKeyValueStore store, HotRapDB db, byte[] low, byte[] highExclusive) {
    super(store);
    this.snapshot = db.getSnapshot();
    HotRapIterator iterator = null;
    boolean success = false;
    try {
      iterator = db.newIterator(snapshot, low, highExclusive);
      int inChunk = 0;
      for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
        if (inChunk == CHUNK || chunkStarts.isEmpty()) {
          chunkStarts.add(iterator.key());
          inChunk = 0;
        }
        inChunk++;
      }
      lastChunkSize = inChunk;
      nextChunk = chunkStarts.size() - 1;
      success = true;
    } finally {
      if (!success) {
        if (iterator != null) {
          iterator.close();
        }
        snapshot.close();
      }
    }
    this.it = iterator;
  }

  /** Loads the next chunk down when the current one is used up; false when none is left. */
  private boolean fill() {
    if (chunk.isEmpty() && nextChunk >= 0) {
      int size = nextChunk == chunkStarts.size() - 1 ? lastChunkSize : CHUNK;
      it.seek(chunkStarts.get(nextChunk));
      for (int i = 0; i < size; i++) {
        if (!it.isValid()) {
          throw new IllegalStateException("a chunk of the reverse scan ended early at a snapshot");
        }
        chunk.addLast(KeyValue.pair(Bytes.wrap(it.key()), it.value()));
        it.next();
      }
      chunkStarts.set(nextChunk, null);
      nextChunk--;
    }
    return !chunk.isEmpty();
  }

  @Override
  boolean hasRecord() {
    return fill();
  }

  @Override
  KeyValue<Bytes, byte[]> nextRecord() {
    return chunk.pollLast();
  }

  @Override
  Bytes nextKey() {
    return chunk.peekLast().key;
  }

  @Override
  void release() {
    chunk.clear();
    it.close();
    snapshot.close();
  }
}
