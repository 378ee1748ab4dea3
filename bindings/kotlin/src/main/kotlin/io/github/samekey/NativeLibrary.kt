package io.github.samekey

import java.nio.file.Files
import java.nio.file.StandardCopyOption

/**
 * The native library, loaded once for both ways in: the hand-written JNI of the hot paths
 * ([Jni]) and the uniffi layer (JNA), which is pointed at the same file so that a process
 * holds one copy. The JAR carries one library per platform under JNA's resource prefixes
 * (`linux-x86-64/libsamekey_uniffi.so`, ...); `-Dsamekey.library.path=FILE` loads FILE
 * instead (a platform the JAR does not carry, or a locally built core).
 */
internal object NativeLibrary {
    private const val NAME = "samekey_uniffi"

    /** What the released JAR carries. */
    private val PLATFORMS = listOf(
        "linux-x86-64", "linux-aarch64", "linux-musl-x86-64", "linux-musl-aarch64",
        "darwin-x86-64", "darwin-aarch64", "win32-x86-64",
    )

    /** The loaded file. */
    @JvmField
    val path: String = load()

    /**
     * JNA's name for this machine's platform (its resource prefix), with `linux-musl-`
     * for a JVM on musl (Alpine), whose library JNA's prefixes do not tell apart.
     */
    internal fun platform(): String {
        val os = System.getProperty("os.name").lowercase()
        val arch = System.getProperty("os.arch").lowercase()
        val system = when {
            os.startsWith("linux") -> "linux"
            os.startsWith("mac") || os.startsWith("darwin") -> "darwin"
            os.startsWith("windows") -> "win32"
            else -> os.replace(" ", "")
        }
        val cpu = when (arch) {
            "amd64", "x86_64", "x86-64" -> "x86-64"
            "aarch64", "arm64" -> "aarch64"
            else -> arch
        }
        return if (system == "linux" && musl()) "linux-musl-$cpu" else "$system-$cpu"
    }

    /** Whether this process runs on musl: its C library is mapped from a musl file. */
    private fun musl(): Boolean = try {
        java.io.File("/proc/self/maps").useLines { lines -> lines.any { "ld-musl-" in it || "libc.musl-" in it } }
    } catch (e: java.io.IOException) {
        false
    }

    private fun load(): String {
        val file = System.getProperty("samekey.library.path") ?: extract()
        System.load(file)
        // The generated uniffi layer loads through JNA: the same file, already mapped.
        val override = "uniffi.component.$NAME.libraryOverride"
        if (System.getProperty(override) == null) System.setProperty(override, file)
        return file
    }

    private fun extract(): String {
        val platform = platform()
        val name = System.mapLibraryName(NAME)
        val resource = NativeLibrary::class.java.getResourceAsStream("/$platform/$name")
            ?: throw UnsatisfiedLinkError(
                "samekey has no native library for $platform (os.name=${System.getProperty("os.name")}, " +
                    "os.arch=${System.getProperty("os.arch")}); this JAR carries ${PLATFORMS.joinToString()}. " +
                    "Build the core for it and pass -Dsamekey.library.path=/path/to/$name",
            )
        // One file per process: two JVMs never write the same file, and none is replaced
        // under a JVM that mapped it.
        val target = Files.createTempFile("samekey-", "-$name")
        target.toFile().deleteOnExit()
        resource.use { Files.copy(it, target, StandardCopyOption.REPLACE_EXISTING) }
        return target.toAbsolutePath().toString()
    }
}
