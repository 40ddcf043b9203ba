package io.hotrap.bench.workload;

/**
 * One benchmark operation, filled in place by an {@link OperationGenerator} so that a measured loop
 * reuses a single instance. Every call of {@link OperationGenerator#next} overwrites every field.
 *
 * <p>{@link #key} is a fresh array each time, owned by the caller. Not thread-safe: one per thread.
 */
public final class Operation {

  /** What to do with {@link #key}. */
  public enum Type {
    /** Read the key's value. */
    READ,
    /**
     * Write a key that no earlier operation of the workload wrote; in a trace, any put, which is
     * not checked for novelty.
     */
    INSERT,
    /** Overwrite an existing key (one the load phase wrote, for generated workloads). */
    UPDATE
  }

  /** What to do. */
  public Type type;
  /** The key, {@value Keys#KEY_BYTES} bytes ({@link Keys#key(long)}) except for traces. */
  public byte[] key;
  /** Size of the value to write; for reads, the size the record was written with. */
  public int valueBytes;
  /** The phase the operation belongs to, one of {@link Workload#phases()} or {@code "load"}. */
  public String phase;
  /**
   * The key's id: the number {@link Keys#key(long)} encodes, or for a trace the key's index in the
   * order the trace first mentions keys. Lets analyses count keys without decoding them.
   */
  public long keyId;

  @Override
  public String toString() {
    return type + " " + keyId + " (" + valueBytes + " B, " + phase + ")";
  }
}
