package io.hotrap.jni;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-memory {@link SecondaryCacheBackend} that counts what it is asked, remembers the groups and
 * threads of its inserts, and can be told to throw.
 */
final class MapBackend implements SecondaryCacheBackend {
  final ConcurrentHashMap<ByteBuffer, byte[]> blocks = new ConcurrentHashMap<>();
  final Set<Long> groups = ConcurrentHashMap.newKeySet();
  final Set<String> insertThreads = ConcurrentHashMap.newKeySet();
  final AtomicLong inserts = new AtomicLong();
  final AtomicLong lookups = new AtomicLong();
  final AtomicLong hits = new AtomicLong();
  final AtomicLong badGroups = new AtomicLong();
  volatile boolean failLookups;
  volatile boolean failInserts;

  @Override
  public byte[] lookup(byte[] key) {
    lookups.incrementAndGet();
    if (failLookups) {
      throw new IllegalStateException("lookup failure injected by the test");
    }
    byte[] value = blocks.get(ByteBuffer.wrap(key));
    if (value != null) {
      hits.incrementAndGet();
    }
    return value;
  }

  @Override
  public void insert(byte[] key, byte[] value, long group) {
    inserts.incrementAndGet();
    insertThreads.add(Thread.currentThread().getName());
    if (group != SstFileGroups.ofKey(key)) {
      badGroups.incrementAndGet();
    }
    if (failInserts) {
      throw new IllegalStateException("insert failure injected by the test");
    }
    groups.add(group);
    blocks.put(ByteBuffer.wrap(key), value);
  }

  /** Drops every block of {@code group}, as a flash cache's group invalidation does. */
  void invalidateGroup(long group) {
    blocks.keySet().removeIf(key -> SstFileGroups.ofKey(bytes(key)) == group);
  }

  private static byte[] bytes(ByteBuffer key) {
    byte[] b = new byte[key.remaining()];
    key.duplicate().get(b);
    return b;
  }

  @Override
  public void erase(byte[] key) {
    blocks.remove(ByteBuffer.wrap(key));
  }
}
