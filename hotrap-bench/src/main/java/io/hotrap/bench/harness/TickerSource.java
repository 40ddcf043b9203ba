package io.hotrap.bench.harness;

import org.rocksdb.TickerType;

/** A bench system over one RocksDB instance whose statistics can be read by ticker. */
interface TickerSource {

  /** RocksDB's statistics ticker {@code ticker}, counted since the system was opened. */
  long ticker(TickerType ticker);
}
