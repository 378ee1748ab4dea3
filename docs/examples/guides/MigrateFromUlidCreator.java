import com.github.f4b6a3.ulid.UlidCreator;
import io.github.samekey.KeyRing;
import io.github.samekey.Scheme;
import io.github.samekey.Ulid;
import java.time.Instant;
import java.util.List;

public class MigrateFromUlidCreator {
    public static void main(String[] args) {
        Instant published = Instant.parse("2024-05-01T12:00:00Z");
        // What the application stored so far: ulid-creator's hash ULID of "slug:lang".
        String stored = UlidCreator.getHashUlid(published.toEpochMilli(), "hello-world:en")
                .toString();
        System.out.println("ulid-creator: " + stored);

        // samekey derives v1 ids from now on, in the namespace "posts" (the home page's id),
        // and recognises ulid-creator's as v0, which takes no namespace.
        KeyRing ring = new KeyRing(Scheme.V1, List.of(Scheme.V0));
        String[] fields = {"hello-world", "en"};
        System.out.println("new id: " + ring.deriveUlid(published, fields, "posts"));
        Scheme matched = ring.verify(Ulid.parse(stored), published, fields);
        System.out.println("stored id is: " + matched);
    }
}
