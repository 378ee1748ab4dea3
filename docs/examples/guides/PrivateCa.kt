// The registry's certificate is signed by your own CA: trust that CA's certificate.
//   SAMEKEY_URL=https://registry.internal:8443 SAMEKEY_TOKEN=… SAMEKEY_CA=ca.pem java … PrivateCaKt
import io.github.samekey.registry.Registry
import java.io.File
import java.net.http.HttpClient
import java.security.KeyStore
import java.security.cert.CertificateFactory
import javax.net.ssl.SSLContext
import javax.net.ssl.TrustManagerFactory

fun main() {
    val ca = File(System.getenv("SAMEKEY_CA")).inputStream().use { CertificateFactory.getInstance("X.509").generateCertificate(it) }
    val roots = KeyStore.getInstance(KeyStore.getDefaultType()).apply { load(null, null); setCertificateEntry("ca", ca) }
    val trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm()).apply { init(roots) }
    val tls = SSLContext.getInstance("TLS").apply { init(null, trust.trustManagers, null) }
    val registry = Registry(System.getenv("SAMEKEY_URL"), token = System.getenv("SAMEKEY_TOKEN"), http = HttpClient.newBuilder().sslContext(tls).build())
    println("trusted the private CA: " + registry.registerJson("""{"rows": 3}""").key)
}
