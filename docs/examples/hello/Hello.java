import io.github.samekey.Samekey;
import io.github.samekey.Scheme;
import io.github.samekey.Ulid;
import io.github.samekey.UlidDeriver;
import java.time.Instant;

public class Hello {
    public static void main(String[] args) {
        Instant published = Instant.parse("2024-05-01T12:00:00Z");
        try (UlidDeriver posts = new UlidDeriver("posts", Scheme.V1)) {
            Ulid id = posts.derive(published, "hello-world", "en");
            System.out.println(id);
        }
    }
}
