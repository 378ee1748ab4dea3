package registry_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var crossURL = flag.String("samekey.cross", "", "a registry's URL: TestCrossLanguage registers payloads.json there and prints the keys")

// TestCrossLanguage is the Go side of the cross-language test (just registry::test-clients):
// crates/samekey-registry/tests/clients/payloads.json's payloads, in order, one key a line.
func TestCrossLanguage(t *testing.T) {
	if *crossURL == "" {
		t.Skip("run by just registry::test-clients with -samekey.cross=URL")
	}
	raw, err := os.ReadFile(filepath.Join(repo(), "crates", "samekey-registry", "tests", "clients", "payloads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Payloads []struct {
			JSON  *string `json:"json"`
			Value *string `json:"value"`
			Hex   *string `json:"hex"`
		} `json:"payloads"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	c := client(t, *crossURL)
	ctx := context.Background()
	for _, p := range file.Payloads {
		var key string
		switch {
		case p.JSON != nil:
			rev, err := c.RegisterJSON(ctx, []byte(*p.JSON), "")
			if err != nil {
				t.Fatal(err)
			}
			key = rev.Key
		case p.Value != nil:
			var v any
			if err := json.Unmarshal([]byte(*p.Value), &v); err != nil {
				t.Fatal(err)
			}
			rev, err := c.Register(ctx, v, "")
			if err != nil {
				t.Fatal(err)
			}
			key = rev.Key
		default:
			data, _ := hex.DecodeString(*p.Hex)
			rev, err := c.RegisterBytes(ctx, data, "")
			if err != nil {
				t.Fatal(err)
			}
			key = rev.Key
		}
		fmt.Println("key", key)
	}
}
