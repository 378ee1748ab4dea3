package io.github.samekey.registry

import io.github.samekey.KeyRing
import io.github.samekey.Scheme
import io.github.samekey.canonicalJson
import io.github.samekey.samekeyVersion
import java.io.IOException
import java.security.cert.CertificateException
import java.io.InputStream
import java.net.URI
import java.net.URLEncoder
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.net.http.HttpResponse.BodyHandlers
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.time.ZonedDateTime
import java.time.format.DateTimeFormatter
import java.util.concurrent.ThreadLocalRandom
import java.util.function.Supplier

/**
 * A client of a samekey registry (`samekey serve`) at [baseUrl], on
 * `java.net.http.HttpClient`, for Kotlin and Java.
 *
 * Retrying is safe by construction: a registration's key derives from its content and
 * parent, so the retry of a request whose answer was lost finds what the first attempt
 * created. The client derives that key itself with [ring] (the ring it expects the
 * registry to use) before sending: a payload above [skipUploadAbove] bytes the registry
 * already has is not uploaded again, and an answer under any other key throws
 * [RegistryException] `key_mismatch` instead of being accepted.
 *
 * ```
 * val registry = Registry("http://127.0.0.1:8080", token = "...")
 * val schema = registry.registerJson("""{"columns":["id","name"]}""")
 * val data = registry.registerFile(Path.of("data.csv"), parent = schema.key)
 * ```
 */
public class Registry @JvmOverloads constructor(
    baseUrl: String,
    private val token: String? = null,
    public val ring: KeyRing = KeyRing(Scheme.V1),
    private val retry: Retry = Retry(),
    /** Each attempt's wait for an answer's head. */
    private val timeout: Duration = Duration.ofSeconds(30),
    /** Payloads larger than this are looked up first (null: never). */
    private val skipUploadAbove: Long? = 1L shl 20,
    private val http: HttpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build(),
) {
    private val base: String = baseUrl.trimEnd('/')

    /** The ring's schemes, primary first, asked once (a call into the core's generated layer). */
    private val accepted: List<Scheme> = ring.accepted

    init {
        require(base.startsWith("http://") || base.startsWith("https://")) { "the registry's base URL must start with http:// or https://, not $baseUrl" }
        require(token == null || (token.isNotEmpty() && '\r' !in token && '\n' !in token)) { "a token must be non-empty and on one line" }
    }

    /** Registers JSON text, sent as written: any spelling of the same JSON is the same revision. */
    @JvmOverloads
    public fun registerJson(text: String, parent: String? = null): Revision =
        register(Memory(accepted, JSON, canonicalJson(text).toByteArray(Charsets.UTF_8), text.toByteArray(Charsets.UTF_8)), parent)

    /** Registers bytes (application/octet-stream). */
    @JvmOverloads
    public fun registerBytes(data: ByteArray, parent: String? = null): Revision = register(Memory(accepted, BYTES, data), parent)

    /**
     * Registers a file, streamed (again on a retry) in bounded memory: above
     * [skipUploadAbove] bytes hashed first and looked up, otherwise hashed while sent.
     */
    @JvmOverloads
    public fun registerFile(path: Path, parent: String? = null): Revision =
        register(Reopenable(accepted, { Files.newInputStream(path) }, Files.size(path), skipUploadAbove), parent)

    /**
     * Registers the bytes [open] gives, anew on each call, sent again on a retry: hashed
     * first and looked up when larger than [skipUploadAbove] (or when that is null, hashed
     * while sent).
     */
    @JvmOverloads
    public fun registerStream(open: Supplier<InputStream>, parent: String? = null): Revision =
        register(Reopenable(accepted, open, null, skipUploadAbove), parent)

    /**
     * Registers a one-shot stream: hashed while it is sent, so always uploaded, and not
     * retried once a byte of it was read (`not_rewindable`). The stream is not closed.
     */
    @JvmOverloads
    public fun registerStream(input: InputStream, parent: String? = null): Revision = register(OneShot(accepted, input), parent)

    /** The revision [key] names (any of its keys). */
    public fun revision(key: String): Revision = answer(send(get(revisionPath(key)), BodyHandlers.ofString()))

    /** The revision and its ancestors, nearest first (at most [limit], 1 to 1000). */
    @JvmOverloads
    public fun history(key: String, limit: Int? = null): List<Revision> {
        val response = send(get(revisionPath(key) + "/history" + (limit?.let { "?limit=$it" } ?: "")), BodyHandlers.ofString())
        val body = json(response) as? Map<*, *> ?: throw unexpected("a history answer that is not an object", response.statusCode())
        val list = body["revisions"] as? List<*> ?: throw unexpected("a history answer without its revisions", response.statusCode())
        return list.map { Revision.of(it, false) }
    }

    /** The stored bytes of [key] (canonical JSON for JSON), streamed: read it, then close it. */
    public fun data(key: String): InputStream {
        val response = send(get(revisionPath(key) + "/data"), BodyHandlers.ofInputStream())
        if (response.statusCode() != 200) {
            val text = response.body().use { String(it.readAllBytes(), Charsets.UTF_8) }
            throw problem(response.statusCode(), text)
        }
        return response.body()
    }

    private fun register(p: Payload, parent: String?): Revision =
        try {
            lookUpOrSend(p, parent)
        } finally {
            p.abandon()
        }

    private fun lookUpOrSend(p: Payload, parent: String?): Revision {
        val hashes = p.hashes
        if (skipUploadAbove != null && hashes != null && p.size != null && p.size!! > skipUploadAbove) {
            val response = send(get(revisionPath(expectedKey(accepted, hashes, parent))), BodyHandlers.ofString())
            if (response.statusCode() == 200) return check(accepted, p, parent, answer(response))
            if (response.statusCode() != 404) throw problem(response.statusCode(), response.body())
        }
        val query = parent?.let { "?parent=" + URLEncoder.encode(it, Charsets.UTF_8).replace("%3A", ":") } ?: ""
        val response = send({ builder("/v1/revisions$query").header("Content-Type", p.mediaType).POST(p.publisher()).build() }, BodyHandlers.ofString(), p)
        val rev = answer(response)
        p.done()
        return check(accepted, p, parent, rev)
    }

    private fun builder(path: String): HttpRequest.Builder {
        val b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
            .header("Accept", JSON).header("User-Agent", USER_AGENT)
        if (token != null) b.header("Authorization", "Bearer $token")
        return b
    }

    private fun get(path: String): () -> HttpRequest = { builder(path).GET().build() }

    /** Sends, retried as [retry] says; [request] makes each attempt's request. */
    private fun <T> send(request: () -> HttpRequest, handler: HttpResponse.BodyHandler<T>, payload: Payload? = null): HttpResponse<T> {
        val start = System.nanoTime()
        var retries = 0
        val elapsed = { Duration.ofNanos(System.nanoTime() - start) }
        while (true) {
            val response: HttpResponse<T>? = try {
                http.send(request(), handler)
            } catch (e: IOException) {
                if (generateSequence<Throwable>(e) { it.cause }.take(16).any { it is CertificateException }) {
                    throw RegistryException(RegistryException.CONNECTION_FAILED, "the server's certificate did not verify (${e.message}); not retried, since it will not verify on a retry either: trust its CA in the HttpClient you pass (its SSLContext)", cause = e)
                }
                if (payload != null && !payload.unread()) {
                    throw RegistryException(RegistryException.NOT_REWINDABLE, "the request failed after the stream was partly sent (${e.message}); register a file or a Supplier that opens the stream anew to have it retried", cause = e)
                }
                val wait = delay(retries, null, elapsed())
                if (wait == null) {
                    val code = if (elapsed() >= retry.deadline) RegistryException.DEADLINE_EXCEEDED else RegistryException.CONNECTION_FAILED
                    throw RegistryException(code, "${e.javaClass.simpleName}: ${e.message} (after $retries retries)", cause = e)
                }
                Thread.sleep(wait.toMillis())
                retries++
                continue
            } catch (e: InterruptedException) {
                Thread.currentThread().interrupt()
                throw e
            }
            if (response!!.statusCode() !in retry.statuses || (payload != null && !payload.rewindable)) return response
            val wait = delay(retries, retryAfter(response.headers().firstValue("Retry-After").orElse(null)), elapsed()) ?: return response
            (response.body() as? InputStream)?.close()
            Thread.sleep(wait.toMillis())
            retries++
        }
    }

    private fun delay(retries: Int, asked: Duration?, elapsed: Duration): Duration? {
        if (retries >= retry.maxRetries) return null
        val wait = asked ?: run {
            val ceiling = minOf(retry.maxDelay.toNanos(), retry.initialDelay.toNanos() shl minOf(retries, 30))
            Duration.ofNanos((ThreadLocalRandom.current().nextDouble() * ceiling).toLong())
        }
        return if (elapsed + wait >= retry.deadline) null else wait
    }

    private fun retryAfter(value: String?): Duration? {
        if (value == null) return null
        value.trim().toLongOrNull()?.let { return Duration.ofSeconds(it) }
        return try {
            val at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()
            Duration.between(java.time.Instant.now(), at).takeUnless { it.isNegative } ?: Duration.ZERO
        } catch (e: Exception) {
            null
        }
    }

    private fun json(response: HttpResponse<String>): Any? {
        if (response.statusCode() != 200 && response.statusCode() != 201) throw problem(response.statusCode(), response.body())
        return try {
            Json.parse(response.body())
        } catch (e: IllegalArgumentException) {
            throw unexpected("HTTP ${response.statusCode()} with a body that is not JSON: ${e.message}", response.statusCode())
        }
    }

    private fun answer(response: HttpResponse<String>): Revision = Revision.of(json(response), response.statusCode() == 201)

    private fun problem(status: Int, body: String): RegistryException {
        val problem = try {
            Json.parse(body) as? Map<*, *>
        } catch (e: IllegalArgumentException) {
            null
        }
        val code = problem?.get("code") as? String ?: return unexpected("HTTP $status without a problem document: ${body.take(200)}", status)
        val detail = problem["detail"] as? String ?: problem["title"] as? String ?: code
        return RegistryException(code, "$status $code: $detail", status, detail)
    }

    private companion object {
        /** Asked once: the version is a call into the core's generated layer. */
        val USER_AGENT = "samekey-jvm/$samekeyVersion"

        fun revisionPath(key: String): String = "/v1/revisions/" + URLEncoder.encode(key, Charsets.UTF_8).replace("%3A", ":")
    }
}
