package io.github.samekey

/**
 * Run in a JVM of its own by [GcPauseTest]: the longest gap an allocating thread sees,
 * alone and while this thread hashes an array of `args[0]` MiB, printed as
 * `alone_ms=… hash_ms=… during_ms=…`. A hash that held the array in one JNI critical
 * region would keep the collector (and every allocating thread) waiting until it ended.
 */
object GcPauseProbe {
    @Volatile private var stop = false

    @Volatile private var longest = 0L

    private fun allocator() = Thread {
        val keep = arrayOfNulls<ByteArray>(1024)
        var i = 0
        var last = System.nanoTime()
        while (!stop) {
            keep[i++ and 1023] = ByteArray(4096)
            val now = System.nanoTime()
            if (now - last > longest) longest = now - last
            last = now
        }
    }

    /** The longest gap of an allocating thread while [work] runs. */
    private fun longestGapDuring(work: () -> Unit): Long {
        stop = false
        longest = 0L
        val thread = allocator().also { it.start() }
        Thread.sleep(200) // past its start
        longest = 0L
        work()
        stop = true
        thread.join()
        return longest
    }

    @JvmStatic
    fun main(args: Array<String>) {
        val data = ByteArray(args[0].toInt() shl 20) { (it * 31).toByte() }
        contentHash(ByteArray(1 shl 20)) // the library loaded, its code warm
        longestGapDuring { Thread.sleep(1000) } // the loop compiled
        var hashNanos = 0L
        val during = longestGapDuring {
            val start = System.nanoTime()
            contentHash(data)
            hashNanos = System.nanoTime() - start
        }
        val alone = longestGapDuring { Thread.sleep(hashNanos / 1_000_000 + 1) }
        println("alone_ms=%.1f hash_ms=%.1f during_ms=%.1f".format(alone / 1e6, hashNanos / 1e6, during / 1e6))
    }
}
