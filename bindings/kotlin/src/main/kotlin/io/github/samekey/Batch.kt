package io.github.samekey

import java.time.Instant
import java.util.concurrent.ForkJoinTask
import java.util.concurrent.RecursiveAction

/**
 * Rows of a batch below this many are derived on the calling thread; a larger batch is cut
 * into parts of at least half this many, up to two per core, run in the common
 * ForkJoinPool with the caller taking the first. `IdBench` (`just jvm::jmh`) measured where the split pays.
 */
internal const val PARALLEL_MIN_ROWS = 4096

/**
 * The ids of `times.size` rows of text fields (row `i` is `columns[c][i]` at `times[i]`)
 * on up to [maxThreads] threads (0: one per core), in row order; on a bad row, that row's
 * error, thrown after the rows before it were derived, as row by row.
 */
internal fun deriveRows(deriver: NativeDeriver, times: List<Instant>, columns: List<List<String>>, maxThreads: Int): List<Ulid> {
    require(maxThreads >= 0) { "maxThreads must be 0 (one thread per core) or more, not $maxThreads" }
    require(columns.all { it.size == times.size }) { "every column needs one value per time (${times.size})" }
    val rows = times.size
    val ids = arrayOfNulls<Ulid>(rows)
    val cores = Runtime.getRuntime().availableProcessors()
    // On every core, two parts a core where they stay large: the pool has a worker fewer
    // than cores, and the thread that finishes first takes what a late worker has not
    // started. A cap keeps one part a thread, so that no more than maxThreads run.
    val wanted = if (maxThreads == 0) 2 * cores else minOf(maxThreads, cores)
    val parts = if (rows < PARALLEL_MIN_ROWS) 1 else maxOf(1, minOf(wanted, rows / (PARALLEL_MIN_ROWS / 2)))
    val per = (rows + parts - 1) / parts
    val tasks = List(parts) { Part(deriver, times, columns, it * per, minOf(rows, (it + 1) * per), ids) }
    if (parts == 1) tasks[0].invoke() else ForkJoinTask.invokeAll(tasks)
    // Parts are in row order, and each stopped at its first failing row: the first
    // failure found is the batch's first failing row.
    tasks.firstNotNullOfOrNull { it.failure }?.let { throw it }
    @Suppress("UNCHECKED_CAST")
    return java.util.ArrayList((ids as Array<Ulid>).asList())
}

/** Rows `from until to`, derived in one native call and written into [ids]. */
private class Part(
    private val deriver: NativeDeriver,
    private val times: List<Instant>,
    private val columns: List<List<String>>,
    private val from: Int,
    private val to: Int,
    private val ids: Array<Ulid?>,
) : RecursiveAction() {
    /** The part's first failing row's error, or null. */
    var failure: Throwable? = null

    override fun compute() {
        try {
            derive()
        } catch (e: Throwable) {
            failure = e
        }
    }

    /**
     * Packs the rows a column at a time (`samekey_wire::jvm`'s format) and derives them
     * in one native call; a field with a lone surrogate fails as it would row by row,
     * after the rows before it (whose own failure comes first).
     */
    private fun derive() {
        val width = columns.size
        val rows = to - from
        if (rows == 0) return
        val scratch = Scratch.take()
        try {
            // Sized for rows like the first, up to 16 MiB characters (a pass over every
            // value cost 5 ns a row); it grows as it must.
            var first = 0L
            for (column in columns) first += column[from].length
            val packer = CharPacker(scratch, rows * width, minOf(maxOf(first, 8L) * rows, 1L shl 24))
            for (column in columns) packer.addAll(column, from, to)
            val ms = scratch.ms(rows)
            for (i in 0 until rows) ms[i] = millis(times[from + i])
            val halves = scratch.halves(rows)
            val lone = deriver.deriveBatch(ms, packer.packed(rows, width), halves)
            if (lone >= 0) {
                val (column, row) = lone / rows to from + lone % rows
                throw loneSurrogate(columns[column][row], "row $row, field $column")
            }
            for (i in 0 until rows) ids[from + i] = Ulid.ofBits(halves[2 * i], halves[2 * i + 1])
        } finally {
            Scratch.keep(scratch)
        }
    }
}
