package io.hotrap.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Puts and deletes that {@link HotRapDB#write(HotRapWriteBatch)} applies atomically, in order.
 * A put writes the fast tier; a delete writes tombstones to both tiers (DESIGN.md §4). The batch
 * copies keys and values when they are added, so the caller may reuse its arrays. Not thread-safe;
 * reusable after {@link #clear()}.
 */
public final class HotRapWriteBatch {

  /** One operation: a put when {@code value} is non-null, a delete otherwise. */
  static final class Op {
    final byte[] key;
    final byte[] value;

    Op(byte[] key, byte[] value) {
      this.key = key;
      this.value = value;
    }
  }

  private final List<Op> ops = new ArrayList<>();
  private long bytes;

  public HotRapWriteBatch() {}

  /** Adds a put. @throws NullPointerException naming {@code key} or {@code value} */
  public HotRapWriteBatch put(byte[] key, byte[] value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    ops.add(new Op(key.clone(), value.clone()));
    bytes += key.length + value.length;
    return this;
  }

  /** Adds a delete. @throws NullPointerException naming {@code key} */
  public HotRapWriteBatch delete(byte[] key) {
    Objects.requireNonNull(key, "key");
    ops.add(new Op(key.clone(), null));
    bytes += key.length;
    return this;
  }

  /** Number of operations. */
  public int count() {
    return ops.size();
  }

  /** Bytes of the keys and values added. */
  public long dataBytes() {
    return bytes;
  }

  public void clear() {
    ops.clear();
    bytes = 0;
  }

  List<Op> ops() {
    return Collections.unmodifiableList(ops);
  }
}
