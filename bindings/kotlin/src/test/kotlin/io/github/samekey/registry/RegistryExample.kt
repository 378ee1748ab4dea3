package io.github.samekey.registry

import io.github.samekey.KeyRing
import io.github.samekey.Scheme
import java.nio.file.Path
import java.time.Duration

// The README's example, run twice by RegistryTest against a registry.
// ANCHOR: publish
fun publish(url: String, file: Path, token: String? = null): Revision {
    // The ring this client expects the registry to use; every answer is checked against it.
    val registry = Registry(url, token, ring = KeyRing(Scheme.V1), retry = Retry(maxRetries = 4, deadline = Duration.ofSeconds(30)))
    val schema = registry.registerJson("""{"columns": ["id", "name"], "version": 1}""")
    println("schema ${if (schema.created) "created" else "found"} ${schema.key}")
    try {
        val data = registry.registerFile(file, parent = schema.key) // streamed; over 1 MiB, looked up first
        println("data ${if (data.created) "created" else "found"} ${data.key} ${data.size} bytes")
        return data
    } catch (e: RegistryException) {
        if (e.code == "key_mismatch") error("client and registry disagree: ${e.message}") // a different ring or version
        throw e // e.code, e.status, e.detail: e.g. payload_too_large, 413
    }
}
// ANCHOR_END: publish
