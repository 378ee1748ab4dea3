// The registry's certificate is signed by your own CA: trust that CA's certificate.
//
//	SAMEKEY_URL=https://registry.internal:8443 SAMEKEY_TOKEN=… SAMEKEY_CA=ca.pem go run .
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/samekey/samekey/bindings/go/registry"
)

func main() {
	pem, err := os.ReadFile(os.Getenv("SAMEKEY_CA"))
	if err != nil {
		log.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		log.Fatal("no PEM certificate in SAMEKEY_CA")
	}
	client, err := registry.New(os.Getenv("SAMEKEY_URL"), os.Getenv("SAMEKEY_TOKEN"))
	if err != nil {
		log.Fatal(err)
	}
	// The client's own transport (its timeouts) with the CA as the only root.
	transport := client.HTTP.Transport.(*http.Transport).Clone()
	transport.TLSClientConfig = &tls.Config{RootCAs: roots}
	client.HTTP = &http.Client{Transport: transport}
	revision, err := client.Register(context.Background(), map[string]int{"rows": 3}, "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("trusted the private CA:", revision.Key)
}
