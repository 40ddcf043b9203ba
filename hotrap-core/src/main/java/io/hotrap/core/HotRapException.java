package io.hotrap.core;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * A storage error from RocksDB or the store's own files. Carries RocksDB's {@link Status} when
 * RocksDB reported the error, so callers can tell, say, {@code IOError} from {@code Corruption}.
 */
public final class HotRapException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Status status;

  HotRapException(String message, RocksDBException cause) {
    super(message + ": " + cause.getMessage(), cause);
    this.status = cause.getStatus();
  }

  HotRapException(String message) {
    super(message);
    this.status = null;
  }

  HotRapException(String message, Throwable cause) {
    super(message, cause);
    this.status = cause instanceof RocksDBException ? ((RocksDBException) cause).getStatus() : null;
  }

  /** RocksDB's status of the failed operation, or null when the error did not come from RocksDB. */
  public Status status() {
    return status;
  }
}
