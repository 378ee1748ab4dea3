package io.github.samekey.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.samekey.KeyRing;
import io.github.samekey.Samekey;
import io.github.samekey.SamekeyException;
import io.github.samekey.Scheme;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The registry client as a Java program calls it: overloads, getters, the exception's code. */
class JavaRegistryTest {
    @Test
    void registersAndReadsFromJava() throws Exception {
        String bin = System.getenv().getOrDefault("SAMEKEY_BIN", new File("../../target/debug/samekey").getPath());
        Path db = Files.createTempDirectory("samekey-java-registry").resolve("r.db");
        Process server = new ProcessBuilder(bin, "serve", "--database", "sqlite:" + db, "--listen", "127.0.0.1:0")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String line = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
            String url = line.replace("listening on ", "").trim();
            Registry registry = new Registry(url, null, new KeyRing(Scheme.V1), new Retry(4, Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(30)));
            String json = "{\"id\":\"" + UUID.randomUUID() + "\"}";
            Revision root = registry.registerJson(json);
            assertTrue(root.getCreated());
            assertEquals(Samekey.revisionKey(Samekey.contentHashJson(json)), root.getKey());
            byte[] data = json.getBytes(StandardCharsets.UTF_8);
            Revision child = registry.registerBytes(data, root.getKey());
            Path file = Files.createTempFile("samekey", ".bin");
            Files.write(file, data);
            Revision again = registry.registerFile(file, root.getKey());
            assertEquals(child.getKey(), again.getKey());
            assertFalse(again.getCreated());
            List<Revision> history = registry.history(child.getKey());
            assertEquals(root.getKey(), history.get(1).getKey());
            String missing = Samekey.revisionKey(Samekey.contentHash(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8)));
            RegistryException e = assertThrows(RegistryException.class, () -> registry.registerJson("{}", missing));
            assertEquals("unknown_parent", e.getCode());
            assertEquals(422, e.getStatus());
            assertTrue(e instanceof SamekeyException);
        } finally {
            server.destroy();
        }
    }
}
