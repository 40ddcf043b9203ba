package io.hotrap.ycsb;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import java.util.Map;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The one {@link HotRapDB} of this JVM and the key locks of its writers, shared by every
 * {@link HotRapYcsbClient}. YCSB creates one client per thread and calls {@code init()} and
 * {@code cleanup()} on each; the first {@link #acquire} opens the store, each acquire counts a
 * reference, and the {@link #release} that drops the count to zero closes it. A later acquire
 * opens it again.
 *
 * <p>All clients of one JVM must use the same {@code hotrap.*} properties: an acquire with others
 * while the store is open fails rather than silently sharing a store configured differently.
 * Acquire and release are serialized on the class, so a store is never closed while another
 * thread is opening it.
 */
final class SharedStore {
  /**
   * Lock stripes of the binding's read-modify-write: far more than YCSB client threads, so
   * unrelated keys rarely share one.
   */
  static final int KEY_LOCK_STRIPES = 1024;

  private static SharedStore open;
  private static int references;

  private final HotRapDB db;
  private final Map<String, String> settings;
  private final KeyLocks locks = new KeyLocks(KEY_LOCK_STRIPES);

  private SharedStore(HotRapDB db, Map<String, String> settings) {
    this.db = db;
    this.settings = settings;
  }

  /**
   * The store {@code props} describe, opened if no client holds it.
   *
   * @throws DBException if a property is missing or invalid (naming it), the store is open with
   *     other settings, or it fails to open
   */
  static synchronized SharedStore acquire(Properties props) throws DBException {
    Map<String, String> settings = HotRapProperties.select(props);
    if (open == null) {
      HotRapOptions options = HotRapProperties.toOptions(props);
      try {
        open = new SharedStore(HotRapDB.open(options), settings);
      } catch (RuntimeException e) {
        throw new DBException("cannot open HotRapDB at " + options.fastPath() + " and "
            + options.slowPath() + ": " + e.getMessage(), e);
      }
    } else if (!open.settings.equals(settings)) {
      throw new DBException("HotRapDB is already open in this JVM with " + open.settings
          + "; this client asks for " + settings);
    }
    references++;
    return open;
  }

  /** Drops one reference; the last one closes the store. Call once per {@link #acquire}. */
  void release() {
    synchronized (SharedStore.class) {
      if (open != this || references == 0) {
        throw new IllegalStateException("release without a matching acquire");
      }
      if (--references == 0) {
        open = null;
        db.close();
      }
    }
  }

  HotRapDB db() {
    return db;
  }

  KeyLocks locks() {
    return locks;
  }

  /** Clients holding the store now; for tests. */
  static synchronized int references() {
    return references;
  }
}
