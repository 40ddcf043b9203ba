package io.hotrap.core;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys user writes touched while one background mover ran (HotRAP §3.4's <em>updated</em>
 * field, filled at write time here because the store owns the write path). Thread-safe: writers add,
 * the mover reads at commit time under the exclusive {@link CommitGate}.
 */
final class UpdatedKeys {
  private final Set<ByteArrayKey> keys = ConcurrentHashMap.newKeySet();

  void add(byte[] key) {
    keys.add(ByteArrayKey.copyOf(key));
  }

  boolean contains(byte[] key) {
    return keys.contains(ByteArrayKey.wrap(key));
  }

  int size() {
    return keys.size();
  }
}
