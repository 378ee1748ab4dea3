package registry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/samekey/samekey/bindings/go/registry"
)

const memoryFileMiB = 384

// A file larger than the process may hold is sent in bounded memory, hashed while sent
// and hashed first: each registration runs in a child process (this test binary, as
// TestMemoryChild), whose peak RSS is the client's alone.
func TestFileInBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	path := randomFile(t, filepath.Join(dir, "big.bin"), memoryFileMiB)
	url := serve(t, "sqlite:"+filepath.Join(dir, "r.db"), "--body-limit", strconv.Itoa((memoryFileMiB+1)<<20))
	for _, skip := range []int64{-1, 1 << 20} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "SAMEKEY_MEMORY_URL="+url, "SAMEKEY_MEMORY_FILE="+path, fmt.Sprintf("SAMEKEY_MEMORY_SKIP=%d", skip))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the child: %v\n%s", err, out)
		}
		var rev registry.Revision
		if err := json.Unmarshal(lastLine(out), &rev); err != nil {
			t.Fatalf("the child printed %q: %v", out, err)
		}
		peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10 // KiB on Linux
		t.Logf("%d MiB, SkipUploadAbove %d: peak RSS %d MiB", memoryFileMiB, skip, peak)
		if rev.Size != memoryFileMiB<<20 || peak >= memoryFileMiB/2 {
			t.Fatalf("size %d, peak RSS %d MiB for a %d MiB file", rev.Size, peak, memoryFileMiB)
		}
	}
}

func TestMemoryChild(t *testing.T) {
	url := os.Getenv("SAMEKEY_MEMORY_URL")
	if url == "" {
		t.Skip("run by TestFileInBoundedMemory")
	}
	c, err := registry.New(url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.SkipUploadAbove, _ = strconv.ParseInt(os.Getenv("SAMEKEY_MEMORY_SKIP"), 10, 64)
	rev, err := c.RegisterFile(context.Background(), os.Getenv("SAMEKEY_MEMORY_FILE"), "")
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(rev)
	fmt.Printf("\n%s\n", line)
}

// lastLine is the child's JSON line (the test framework prints its own around it).
func lastLine(out []byte) []byte {
	lines := bytes.Split(out, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if bytes.HasPrefix(lines[i], []byte("{")) {
			return lines[i]
		}
	}
	return nil
}
