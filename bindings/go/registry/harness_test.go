package registry_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repo is the repository's root.
func repo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// start runs a command until the test ends and returns its first line's text after prefix.
func start(t *testing.T, prefix string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, prefix) {
		t.Fatalf("%s: expected %q, got %q (%v)", name, prefix, line, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, prefix))
}

// serve starts samekey serve (SAMEKEY_BIN, else the workspace's debug build) on
// database and returns its URL.
func serve(t *testing.T, database string, args ...string) string {
	bin := os.Getenv("SAMEKEY_BIN")
	if bin == "" {
		bin = filepath.Join(repo(), "target", "debug", "samekey")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no samekey binary at %s: cargo build -p samekey-cli, or set SAMEKEY_BIN", bin)
	}
	return start(t, "listening on ", bin, append([]string{"serve", "--database", database, "--listen", "127.0.0.1:0"}, args...)...)
}

// databases are SQLite, and PostgreSQL when SAMEKEY_TEST_POSTGRES names one.
func databases(t *testing.T) map[string]string {
	found := map[string]string{"sqlite": "sqlite:" + filepath.Join(t.TempDir(), "registry.db")}
	if pg := os.Getenv("SAMEKEY_TEST_POSTGRES"); pg != "" {
		found["postgres"] = pg
	}
	return found
}

// proxy is the HTTP fault proxy (crates/samekey-registry/tests/clients/httpfaults.py).
type proxy struct{ url string }

func startProxy(t *testing.T, target string) proxy {
	script := filepath.Join(repo(), "crates", "samekey-registry", "tests", "clients", "httpfaults.py")
	return proxy{"http://" + start(t, "listening ", "python3", script, "--target", strings.TrimPrefix(target, "http://"))}
}

type logEntry struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	BodyBytes int64  `json:"body_bytes"`
	Forwarded bool   `json:"forwarded"`
	Status    *int   `json:"status"`
}

func (p proxy) call(t *testing.T, path string, body any, out any) {
	t.Helper()
	data, _ := json.Marshal(body)
	method := http.MethodPost
	if body == nil {
		method = http.MethodGet
	}
	req, _ := http.NewRequest(method, p.url+path, bytes.NewReader(data))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

func (p proxy) faults(t *testing.T, faults ...map[string]any) { p.call(t, "/__faults", faults, nil) }
func (p proxy) reset(t *testing.T)                            { p.call(t, "/__reset", map[string]any{}, nil) }
func (p proxy) log(t *testing.T) []logEntry {
	var entries []logEntry
	p.call(t, "/__log", nil, &entries)
	return entries
}

func statuses(entries []logEntry) []int {
	out := []int{}
	for _, e := range entries {
		if e.Status == nil {
			out = append(out, 0)
		} else {
			out = append(out, *e.Status)
		}
	}
	return out
}

// created is the registry's count of revisions it created (its /metrics).
func created(t *testing.T, url string) int {
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	scanner := bufio.NewScanner(resp.Body)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.HasPrefix(line, `samekey_registry_registrations_total{outcome="created"}`) {
			var n float64
			fmt.Sscan(line[strings.LastIndex(line, " ")+1:], &n)
			return int(n)
		}
	}
	t.Fatal("no count of created revisions in /metrics")
	return 0
}

// randomFile writes mib MiB of random bytes (each MiB different) at path.
func randomFile(t *testing.T, path string, mib int) string {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 1<<20)
	rand.Read(block)
	for i := range mib {
		block[0] = byte(i)
		if _, err := f.Write(block); err != nil {
			t.Fatal(err)
		}
	}
	return path
}
