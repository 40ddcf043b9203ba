package io.hotrap.cache.flash;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the off-heap index ({@link ChronicleIndex}) can run in this JVM: found out once, by the
 * first cache built with {@link FlashIndexKind#OFF_HEAP}, and remembered. When it cannot, that
 * cache and every later one use the on-heap index instead, and one warning names the reason and,
 * for missing JVM options, the options.
 *
 * <p><b>Why it may not run.</b> Chronicle Map 2026.1 generates and compiles classes at first use
 * and reaches into JDK internals. On JDK 17 and 25 it fails at its first use unless the JVM was
 * started with each of {@link #REQUIRED} (measured: leaving out any one of them fails on both):
 * <pre>
 * --add-exports=java.base/sun.nio.ch=ALL-UNNAMED                 maps its file (FileChannelImpl)
 * --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED  compiles generated classes
 * --add-opens=java.base/java.lang=ALL-UNNAMED                     defines them (ClassLoader)
 * --add-opens=java.base/java.lang.reflect=ALL-UNNAMED             reads its builder's fields
 * </pre>
 * With {@link #RECOMMENDED} besides, {@code --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED},
 * it frees its direct buffers at once instead of warning and leaving them to the garbage
 * collector. On JDK 24 and later it also warns, harmlessly, unless given
 * {@code --enable-native-access=ALL-UNNAMED} and {@code --sun-misc-unsafe-memory-access=allow}
 * (the second is not an option JDK 17 knows, so it cannot be given to both).
 *
 * <p><b>The probe.</b> It first checks the required options with the module API, before any
 * Chronicle class is initialized: a class whose static initializer failed stays unusable for the
 * life of the JVM, so a JVM without the options never runs Chronicle's initializers at all. Then it
 * runs {@link ChronicleIndex#selfTest}; any {@link Throwable} there also means the off-heap index
 * is unavailable.
 *
 * <p><b>Chronicle's side effects.</b> Before anything of Chronicle's is loaded, the probe sets the
 * system properties {@value #ANALYTICS_PROPERTY} and {@value #ANNOUNCER_PROPERTY} to {@code true}
 * unless they were set: Chronicle would otherwise try to send usage analytics to
 * www.google-analytics.com and write {@code ~/.chronicle.analytics.client.id} (hotrap-cache also
 * leaves the analytics jar out of its dependencies), and print a banner asking for an e-mail
 * address. A library must do neither.
 *
 * <p>Thread-safe: the first caller probes, the others wait for its answer.
 */
final class ChronicleSupport {
  /** Chronicle's switch for its usage analytics (read by {@code AnalyticsFacade.isEnabled}). */
  static final String ANALYTICS_PROPERTY = "chronicle.analytics.disable";
  /** Chronicle's switch for its start-up banner (read by {@code InternalAnnouncer}). */
  static final String ANNOUNCER_PROPERTY = "chronicle.announcer.disable";

  /** An access to a JDK package that a Chronicle class needs. */
  record Access(String module, String pkg, boolean open, String consumer) {
    /** The JVM option that grants it to {@code to}. */
    String option(Module to) {
      return "--add-" + (open ? "opens" : "exports") + "=" + module + "/" + pkg + "="
          + (to.isNamed() ? to.getName() : "ALL-UNNAMED");
    }

    /** Whether the running JVM grants it to {@code to}. */
    boolean granted(Module to) {
      Optional<Module> m = ModuleLayer.boot().findModule(module);
      return m.isPresent() && (open ? m.get().isOpen(pkg, to) : m.get().isExported(pkg, to));
    }
  }

  /** What Chronicle Map cannot run without (see the class javadoc). */
  static final List<Access> REQUIRED = List.of(
      new Access("java.base", "sun.nio.ch", false, "net.openhft.chronicle.core.OS"),
      new Access("jdk.compiler", "com.sun.tools.javac.file", false,
          "net.openhft.compiler.CompilerUtils"),
      new Access("java.base", "java.lang", true, "net.openhft.compiler.CompilerUtils"),
      new Access("java.base", "java.lang.reflect", true, "net.openhft.chronicle.core.Jvm"));
  /** What Chronicle Map runs without, but with a warning and slower release of memory. */
  static final Access RECOMMENDED =
      new Access("java.base", "jdk.internal.ref", false, "net.openhft.chronicle.core.Jvm");

  /**
   * The probe's answer.
   *
   * @param reason why the off-heap index cannot run, or {@code null} if it can
   */
  record Probe(String reason) {
    boolean available() {
      return reason == null;
    }
  }

  private static final System.Logger LOG = System.getLogger(ChronicleSupport.class.getName());
  private static Probe probe;

  private ChronicleSupport() {}

  /** Whether the off-heap index can run; probes on the first call and logs a refusal once. */
  static synchronized Probe probe() {
    if (probe == null) {
      long start = System.nanoTime();
      probe = probe(ChronicleSupport.class.getClassLoader(), ChronicleIndex::selfTest);
      if (probe.available()) {
        LOG.log(System.Logger.Level.DEBUG, () -> String.format(
            "flash cache: Chronicle Map runs in this JVM (probed in %d ms)",
            (System.nanoTime() - start) / 1_000_000));
      } else {
        LOG.log(System.Logger.Level.WARNING, "flash cache: the off-heap index (Chronicle Map) "
            + "cannot run in this JVM: " + probe.reason() + ". Caches built with "
            + "FlashIndexKind.OFF_HEAP use the on-heap index, saved by the checkpoint file, "
            + "instead.");
      }
    }
    return probe;
  }

  /** The probe itself, with what it loads classes with and what it runs as the self-test. */
  static Probe probe(ClassLoader loader, Runnable selfTest) {
    setUnlessSet(ANALYTICS_PROPERTY, "true");
    setUnlessSet(ANNOUNCER_PROPERTY, "true");
    List<String> missing = new ArrayList<>();
    for (Access a : REQUIRED) {
      Module consumer;
      try {
        consumer = Class.forName(a.consumer(), false, loader).getModule();
      } catch (ClassNotFoundException | LinkageError e) {
        return new Probe("Chronicle Map is not on the class path (" + e + ")");
      }
      if (!a.granted(consumer)) {
        missing.add(a.option(consumer));
      }
    }
    if (!missing.isEmpty()) {
      return new Probe("it needs the JVM options " + String.join(" ", missing));
    }
    try {
      selfTest.run();
    } catch (Throwable t) { // whatever it is: ExceptionInInitializerError, AssertionError...
      return new Probe("its self-test failed with " + t);
    }
    return new Probe(null);
  }

  private static void setUnlessSet(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }
}
