package registry_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/samekey/samekey/bindings/go/registry"
)

// A certificate the client does not trust fails the first attempt for good: a retry
// would meet the same certificate.
func TestAnUntrustedCertificateIsNotRetried(t *testing.T) {
	var connections atomic.Int32
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			connections.Add(1)
		}
	}
	srv.StartTLS()
	defer srv.Close()
	c, err := registry.New(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Register(context.Background(), map[string]int{"rows": 3}, "")
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeConnectionFailed || !strings.Contains(e.Detail, "certificate did not verify") {
		t.Fatalf("got %v, want connection_failed: the certificate did not verify", err)
	}
	if n := connections.Load(); n != 1 {
		t.Fatalf("%d connections: the failure was retried", n)
	}
}
