package registry_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/samekey/samekey/bindings/go/registry"
)

var benchURL = flag.String("samekey.bench", "", "a registry's URL: run TestClientSpeed against it")

// TestClientSpeed (just registry::bench-clients) compares the client with bare net/http
// on the same kept-alive transport, interleaved rounds, medians: a small JSON
// registration, and a large file upload whose peak RSS (of this process) is printed.
func TestClientSpeed(t *testing.T) {
	if *benchURL == "" {
		t.Skip("a benchmark: go test -run TestClientSpeed -samekey.bench=URL")
	}
	url, rounds, n := *benchURL, 9, 2000
	ctx := context.Background()
	value := map[string]any{"title": "Hello", "tags": []any{"a", "b"}, "n": 3}
	body := []byte(`{"n":3,"tags":["a","b"],"title":"Hello"}`)
	httpClient := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	c, _ := registry.New(url, "")
	c.HTTP = httpClient
	if _, err := c.Register(ctx, value, ""); err != nil {
		t.Fatal(err)
	}
	var bare, client []time.Duration
	for range rounds {
		start := time.Now()
		for range n {
			resp, err := httpClient.Post(url+"/v1/revisions", "application/json", bytes.NewReader(body))
			if err != nil || resp.StatusCode != 200 {
				t.Fatal(err, resp)
			}
			resp.Body.Close()
		}
		bare = append(bare, time.Since(start)/time.Duration(n))
		start = time.Now()
		for range n {
			if _, err := c.Register(ctx, value, ""); err != nil {
				t.Fatal(err)
			}
		}
		client = append(client, time.Since(start)/time.Duration(n))
	}
	b, k := median(bare), median(client)
	mib := 256
	path := randomFile(t, filepath.Join(t.TempDir(), "big.bin"), mib)
	// New data each run (every run stores it; the lookup finds nothing): its last bytes.
	renew := func() {
		f, _ := os.OpenFile(path, os.O_WRONLY, 0)
		tail := make([]byte, 16)
		rand.Read(tail)
		f.WriteAt(tail, int64(mib)<<20-16)
		f.Close()
	}
	lookup := *c // the default: hashed, looked up, then sent
	c.SkipUploadAbove = -1
	var bareBig, clientBig, lookupBig []time.Duration
	for range 3 {
		renew()
		start := time.Now()
		f, _ := os.Open(path)
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/revisions", f)
		req.ContentLength = int64(mib) << 20
		req.Header.Set("Content-Type", "application/octet-stream")
		resp, err := httpClient.Do(req)
		if err != nil || resp.StatusCode >= 300 {
			t.Fatal(err, resp)
		}
		resp.Body.Close()
		bareBig = append(bareBig, time.Since(start))
		for _, way := range []struct {
			c     *registry.Client
			times *[]time.Duration
		}{{c, &clientBig}, {&lookup, &lookupBig}} {
			renew()
			start = time.Now()
			if _, err := way.c.RegisterFile(ctx, path, ""); err != nil {
				t.Fatal(err)
			}
			*way.times = append(*way.times, time.Since(start))
		}
	}
	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	bb, kb, lb := median(bareBig), median(clientBig), median(lookupBig)
	fmt.Printf("| Go (net/http) | bare | registry.Client | ratio (bare / client) |\n|---|---:|---:|---:|\n")
	fmt.Printf("| small JSON registration, kept-alive, median of %d rounds of %d | %.0f µs | %.0f µs | %.2fx |\n", rounds, n, us(b), us(k), float64(b)/float64(k))
	fmt.Printf("| %d MiB file, hashed while sent (SkipUploadAbove -1; peak RSS of the process: %d MiB) | %.0f MiB/s | %.0f MiB/s | %.2fx |\n", mib, usage.Maxrss>>10,
		float64(mib)/bb.Seconds(), float64(mib)/kb.Seconds(), float64(bb)/float64(kb))
	fmt.Printf("| %d MiB, hashed, looked up (not there), then sent (the default) | %.0f MiB/s | %.0f MiB/s | %.2fx |\n", mib,
		float64(mib)/bb.Seconds(), float64(mib)/lb.Seconds(), float64(bb)/float64(lb))
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
