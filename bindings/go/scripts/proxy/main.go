// Command go-proxy writes a module folder into a directory laid out as the Go module proxy
// serves it (https://go.dev/ref/mod#goproxy-protocol), so that GOPROXY=file://<dir> installs
// it: <dir>/<module>/@v/list, <version>.info, <version>.mod and <version>.zip. The zip is
// made by golang.org/x/mod/zip, which applies the same rules as the go command and the
// public proxy (file names, sizes, no vendor or nested modules).
//
//	go run . -dir <module folder> -version v1.2.3 -out <proxy dir>
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module folder (holding go.mod)")
	version := flag.String("version", "", "the version to publish, e.g. v0.3.0")
	out := flag.String("out", "", "the proxy directory to write into")
	flag.Parse()
	if *dir == "" || *version == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := publish(*dir, *version, *out); err != nil {
		log.Fatal("go-proxy: ", err)
	}
}

func publish(dir, version, out string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	m := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zip.CreateFromDir(&z, m, dir); err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	for name, data := range map[string][]byte{version + ".zip": z.Bytes(), version + ".mod": gomod, version + ".info": info} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	list := filepath.Join(at, "list")
	known, _ := os.ReadFile(list)
	versions := strings.Fields(string(known))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	fmt.Printf("%s@%s: %d bytes zipped\n", path, version, z.Len())
	return os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}
