package io.hotrap.cache.flash;

/**
 * Where the flash tier keeps its index from key to location on flash, chosen with
 * {@link FlashCacheBuilder#indexKind}; {@link FlashCache#indexKind()} tells which one a cache
 * uses. Either way a clean close keeps the cached items for the next open, and an open after a
 * crash starts cold: the index is used again only if a clean close saved it.
 */
public enum FlashIndexKind {
  /**
   * A hash map on the Java heap: about 90 bytes of heap per item on flash besides the key, which
   * the flash tier keeps on the heap either way. A clean close writes it into the checkpoint file;
   * the next open reads it back. The default ({@link FlashCacheBuilder#indexKind} says why).
   */
  ON_HEAP,
  /**
   * A Chronicle Map in the file {@code index.map} of the cache's directory, memory-mapped: no heap
   * per item for the index itself, and a clean close leaves it where it is instead of writing it
   * out. It needs these JVM options (on JDK 17 to 25):
   * <pre>
   * --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
   * --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
   * --add-opens=java.base/java.lang=ALL-UNNAMED
   * --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
   * </pre>
   * and works better with {@code --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED}. Without
   * them, or if Chronicle Map fails in any other way when first used, the cache uses
   * {@link #ON_HEAP} and logs one warning that names what was missing. The first use in a JVM
   * takes a second or two while Chronicle compiles the classes it generates.
   */
  OFF_HEAP
}
