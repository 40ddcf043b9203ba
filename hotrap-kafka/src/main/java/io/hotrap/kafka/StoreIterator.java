package io.hotrap.kafka;

import io.hotrap.core.HotRapException;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A store's iterator: the open-state check, the deregistration on close and the translation of
 * HotRapDB's errors, common to both directions. Reads a consistent snapshot of the store taken when
 * it was created. Not thread-safe, as Kafka's iterators are not.
 */
abstract class StoreIterator implements KeyValueIterator<Bytes, byte[]> {
  private final HotRapKeyValueStore store;
  private boolean closed;

  StoreIterator(HotRapKeyValueStore store) {
    this.store = store;
  }

  /** Whether a record is left. */
  abstract boolean hasRecord();

  /** The next record, which exists. */
  abstract KeyValue<Bytes, byte[]> nextRecord();

  /** The next record's key, which exists. */
  abstract Bytes nextKey();

  /** Releases the snapshot and native iterators. */
  abstract void release();

  @Override
  public final boolean hasNext() {
    checkOpen();
    try {
      return hasRecord();
    } catch (HotRapException e) {
      throw failed(e);
    }
  }

  @Override
  public final KeyValue<Bytes, byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no record left in the iterator of store " + store.name());
    }
    try {
      return nextRecord();
    } catch (HotRapException e) {
      throw failed(e);
    }
  }

  @Override
  public final Bytes peekNextKey() {
    if (!hasNext()) {
      throw new NoSuchElementException("no record left in the iterator of store " + store.name());
    }
    try {
      return nextKey();
    } catch (HotRapException e) {
      throw failed(e);
    }
  }

  /** Releases the iterator's resources. Idempotent; closing the store closes it. */
  @Override
  public final void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      release();
    } finally {
      store.forget(this);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new InvalidStateStoreException("the iterator of store " + store.name() + " is closed");
    }
    if (!store.isOpen()) {
      throw new InvalidStateStoreException("store " + store.name() + " is closed");
    }
  }

  private ProcessorStateException failed(HotRapException e) {
    return new ProcessorStateException("iterating store " + store.name() + " failed", e);
  }
}
