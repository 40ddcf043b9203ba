package io.hotrap.bench.workload;

/**
 * The sizes and seed a {@link Workload} is generated from. Immutable; the constructor rejects every
 * value a workload cannot be built from, naming it.
 *
 * @param records records written by the load phase (key ids {@code 0 .. records - 1}); at most
 *     {@link #MAX_RECORDS}, since popularity ranks are scrambled through an {@code int[]}
 * @param valueBytes value size of every generated write, in bytes; the paper's 1 KiB records use
 *     1000 (with the 24-byte key), its small records 176
 * @param runOperations operations of the run phase, summed over all threads
 * @param seed seed of every random choice; the same seed gives the same operations
 * @param zipfS exponent of the {@code zipf} and {@code latest} distributions when the workload
 *     name does not give one; the paper uses 0.99
 */
public record WorkloadParams(
    long records, int valueBytes, long runOperations, long seed, double zipfS) {

  /** The largest key space: the largest {@code int[]} a JVM reliably allocates. */
  public static final long MAX_RECORDS = Integer.MAX_VALUE - 8;

  /** The Zipfian exponent of HotRAP §4 (and YCSB). */
  public static final double DEFAULT_ZIPF_S = 0.99;

  /** Value size of the paper's 1 KiB records (24-byte key + 1000-byte value). */
  public static final int DEFAULT_VALUE_BYTES = 1000;

  public WorkloadParams {
    if (records <= 0 || records > MAX_RECORDS) {
      throw new IllegalArgumentException(
          "records must be in [1, " + MAX_RECORDS + "] but was " + records);
    }
    if (valueBytes < 0) {
      throw new IllegalArgumentException("valueBytes must be >= 0 but was " + valueBytes);
    }
    if (runOperations < 0) {
      throw new IllegalArgumentException("runOperations must be >= 0 but was " + runOperations);
    }
    if (!(zipfS > 0) || Double.isInfinite(zipfS)) {
      throw new IllegalArgumentException("zipfS must be positive and finite but was " + zipfS);
    }
  }

  /**
   * A million 1 KiB records, ten million run operations, seed 1 and s = 0.99: a workload that runs
   * in minutes; benchmarks of the paper's scale set {@code records} and {@code runOperations}.
   */
  public static WorkloadParams defaults() {
    return new WorkloadParams(1_000_000, DEFAULT_VALUE_BYTES, 10_000_000, 1, DEFAULT_ZIPF_S);
  }

  public WorkloadParams withRecords(long records) {
    return new WorkloadParams(records, valueBytes, runOperations, seed, zipfS);
  }

  public WorkloadParams withValueBytes(int valueBytes) {
    return new WorkloadParams(records, valueBytes, runOperations, seed, zipfS);
  }

  public WorkloadParams withRunOperations(long runOperations) {
    return new WorkloadParams(records, valueBytes, runOperations, seed, zipfS);
  }

  public WorkloadParams withSeed(long seed) {
    return new WorkloadParams(records, valueBytes, runOperations, seed, zipfS);
  }

  public WorkloadParams withZipfS(double zipfS) {
    return new WorkloadParams(records, valueBytes, runOperations, seed, zipfS);
  }
}
