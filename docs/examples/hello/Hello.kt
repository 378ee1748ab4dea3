import io.github.samekey.deriveUlid
import java.time.Instant

fun main() {
    val published = Instant.parse("2024-05-01T12:00:00Z")
    val id = deriveUlid(published, "hello-world", "en", namespace = "posts")
    println(id)
}
