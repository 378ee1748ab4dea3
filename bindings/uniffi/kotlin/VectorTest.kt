// Every shared vector through the generated Kotlin API (SAMEKEY_VECTORS overrides the
// file); prints "N passed, M failed" and exits non-zero on any failure.
import java.io.File
import org.json.JSONArray
import org.json.JSONObject
import samekey.*

fun hex(b: ByteArray): String = b.joinToString("") { "%02x".format(it) }

fun unhex(s: String): ByteArray = ByteArray(s.length / 2) { s.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

fun fields(v: JSONObject): List<ByteArray> {
    val arr = v.getJSONArray("fields")
    return (0 until arr.length()).map { i ->
        val f = arr.get(i)
        if (f is String) f.toByteArray(Charsets.UTF_8) else unhex((f as JSONObject).getString("hex"))
    }
}

fun secret(v: JSONObject): ByteArray? = if (v.has("secret_hex")) unhex(v.getString("secret_hex")) else null

fun ring(v: JSONObject): KeyRing {
    val a = v.getJSONArray("accepted")
    val names = (0 until a.length()).map { a.getString(it) }
    return KeyRing(names[0], names.drop(1))
}

fun run(v: JSONObject): Map<String, Any> = when (v.getString("op")) {
    "ulid" -> {
        val id = deriveUlid(v.getString("scheme"), v.getLong("timestamp_ms"), v.getString("namespace"), fields(v), secret(v))
        val m = ulidMessage(v.getString("scheme"), v.getString("namespace"), fields(v))
        mapOf("ulid" to id.ulid, "uuid" to id.uuid, "message_hex" to hex(m))
    }
    "content" -> mapOf("hash" to contentHash(v.getString("scheme"), unhex(v.getString("data_hex"))))
    "content_json" -> mapOf(
        "canonical" to canonicalJsonText(v.getString("json")),
        "hash" to contentHashJsonText(v.getString("scheme"), v.getString("json")),
    )
    "revision" -> {
        val parent = if (v.isNull("parent")) null else v.getString("parent")
        val key = revisionKey(v.getString("scheme"), v.getString("content_hash"), parent, secret(v))
        mapOf("key" to key, "message_hex" to hex(revisionMessage(v.getString("scheme"), v.getString("content_hash"), parent)))
    }
    "timestamp" -> mapOf("timestamp_ms" to parseRfc3339(v.getString("rfc3339")))
    "ulid_parse" -> parseUlid(v.getString("text")).let { mapOf("ulid" to it.ulid, "uuid" to it.uuid, "timestamp_ms" to it.timestampMs) }
    "key_parse" -> {
        val k = parseKey(v.getString("text"))
        val scheme = if (v.has("accepted")) ring(v).schemeOfKey(v.getString("text")) else k.scheme
        mapOf("kind" to k.kind, "scheme" to scheme, "canonical" to k.canonical)
    }
    "verify" -> mapOf(
        "scheme" to ring(v).verifyUlid(v.getString("ulid"), v.getLong("timestamp_ms"), v.getString("namespace"), fields(v), secret(v)),
    )
    else -> error("unknown op ${v.getString("op")}")
}

/** The expectation as plain Kotlin values (numbers as Long), comparable with run()'s. */
fun expected(o: JSONObject): Map<String, Any> = o.keySet().associateWith { k ->
    when (val x = o.get(k)) {
        is Int -> x.toLong()
        is Long -> x
        else -> x
    }
}

fun main() {
    val path = System.getenv("SAMEKEY_VECTORS") ?: "../../../test-vectors/samekey.json"
    val doc = JSONObject(File(path).readText())
    require(doc.getString("schema") == "samekey-test-vectors/1")
    val vectors: JSONArray = doc.getJSONArray("vectors")
    var passed = 0
    var failed = 0
    val ids = HashSet<String>()
    for (i in 0 until vectors.length()) {
        val v = vectors.getJSONObject(i)
        require(ids.add(v.getString("id"))) { "duplicate vector id ${v.getString("id")}" }
        val got: Map<String, Any> = try {
            run(v)
        } catch (e: SamekeyException.Failure) {
            mapOf("error" to e.codeText)
        }
        val want = expected(v.getJSONObject("expect"))
        if (got == want) passed++ else {
            failed++
            System.err.println("FAIL ${v.getString("id")}: expected $want, got $got")
        }
    }
    // The typed code is the same as its text (one check per distinct code seen).
    try {
        parseUlid("8ZZZZZZZZZZZZZZZZZZZZZZZZZ")
    } catch (e: SamekeyException.Failure) {
        if (e.code != ErrorCode.INVALID_ULID) { failed++; System.err.println("FAIL typed code: ${e.code}") } else passed++
    }
    println("$passed passed, $failed failed")
    if (failed > 0) kotlin.system.exitProcess(1)
}
