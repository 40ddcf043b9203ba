package io.hotrap.ycsb;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
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
 *
 * <p>Failures are reported once ({@link StartFailure}): YCSB starts all its client threads at once,
 * and each would otherwise validate the same bad property, or try to open the same store that
 * would not open, and print its own stack trace. The properties are validated by the first acquire
 * only; an acquire with settings that failed validation gets that failure again, quietly. A store
 * that failed to open answers the acquires that were waiting on the lock meanwhile with the same
 * failure; a later acquire tries to open it again, since a store in use may be free by then.
 */
final class SharedStore {
  private static final Logger LOG = Logger.getLogger(SharedStore.class.getName());
  /**
   * Lock stripes of the binding's read-modify-write: far more than YCSB client threads, so
   * unrelated keys rarely share one.
   */
  static final int KEY_LOCK_STRIPES = 1024;

  private static SharedStore open;
  private static int references;
  /** The last failure to start, or null; guarded by the class lock. */
  private static StartFailure lastFailure;
  /** Failures to start so far: read before waiting for the lock, to tell who waited on one. */
  private static final AtomicLong FAILURES = new AtomicLong();

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
   * @throws StartFailure.StartException if a property is missing or invalid (naming it), the
   *     store is open with other settings, or it fails to open; printing it prints one line, or
   *     nothing if another client's exception for the same failure printed it
   */
  static SharedStore acquire(Properties props) throws DBException {
    long failuresSeen = FAILURES.get(); // before waiting: failures recorded later happened meanwhile
    Map<String, String> settings = HotRapProperties.select(props);
    synchronized (SharedStore.class) {
      if (open == null) {
        open = new SharedStore(openStore(props, settings, failuresSeen), settings);
      } else if (!open.settings.equals(settings)) {
        throw new StartFailure(settings, new DBException("HotRapDB is already open in this JVM with "
            + open.settings + "; this client asks for " + settings), false, 0).newException();
      }
      references++;
      return open;
    }
  }

  /**
   * Validates {@code props} and opens the store, or throws the recorded failure that answers this
   * acquire. Called with the class lock held.
   */
  private static HotRapDB openStore(Properties props, Map<String, String> settings,
      long failuresSeen) throws DBException {
    if (lastFailure != null && lastFailure.answers(settings, failuresSeen)) {
      throw lastFailure.newException();
    }
    HotRapOptions options;
    try {
      options = HotRapProperties.toOptions(props);
    } catch (DBException e) {
      throw fail(settings, e, true);
    }
    try {
      return HotRapDB.open(options);
    } catch (RuntimeException e) {
      throw fail(settings, new DBException("cannot open HotRapDB at " + options.fastPath() + " and "
          + options.slowPath() + ": " + e.getMessage(), e), false);
    }
  }

  /** Records a failure to start and returns this client's exception for it; lock held. */
  private static DBException fail(Map<String, String> settings, DBException cause,
      boolean permanent) {
    lastFailure = new StartFailure(settings, cause, permanent, FAILURES.incrementAndGet());
    return lastFailure.newException();
  }

  /** Drops one reference; the last one closes the store. Call once per {@link #acquire}. */
  void release() {
    synchronized (SharedStore.class) {
      if (open != this || references == 0) {
        throw new IllegalStateException("release without a matching acquire");
      }
      if (--references == 0) {
        open = null;
        // What the store did over the run (tiers, promotion, migration, separation), beside
        // YCSB's own report: YCSB has no place for a binding's figures.
        LOG.info(() -> "HotRapDB at " + db.options().fastPath() + " closing: " + db.stats());
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
