package registry_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/samekey/samekey/bindings/go"
	"github.com/samekey/samekey/bindings/go/registry"
)

// publish is the README's example: a dataset's schema as JSON, then a data file on it.
// ANCHOR: publish
func publish(ctx context.Context, url, token, path string) error {
	client, err := registry.New(url, token)
	if err != nil {
		return err
	}
	// The ring this client expects the registry to use; every answer is checked against it.
	client.Ring, _ = samekey.NewKeyRing(samekey.V1)
	client.Retry.MaxRetries = 4 // connection failures, 429, 5xx; never other 4xx
	schema, err := client.Register(ctx, map[string]any{"columns": []string{"id", "name"}, "version": 1}, "")
	if err != nil {
		return err
	}
	fmt.Println("schema", map[bool]string{true: "created", false: "found"}[schema.Created], schema.Key)
	data, err := client.RegisterFile(ctx, path, schema.Key) // streamed; over 1 MiB, looked up first
	var e *registry.Error
	switch {
	case errors.As(err, &e) && e.Code == registry.CodeKeyMismatch:
		return fmt.Errorf("client and registry disagree: %w", err) // a different ring or version
	case err != nil:
		return err // e.Code, e.Status, e.Detail: e.g. payload_too_large, 413
	}
	fmt.Println("data", map[bool]string{true: "created", false: "found"}[data.Created], data.Key, data.Size, "bytes")
	return nil
}

// ANCHOR_END: publish

func TestTheReadmeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repo(), "bindings", "go", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "func publish(")
	if start < 0 {
		t.Fatal("README.md shows no publish example")
	}
	block := text[start : start+strings.Index(text[start:], "\n```")+1]
	source, _ := os.ReadFile("example_test.go")
	if !strings.Contains(string(source), block) {
		t.Fatal("README.md's publish example is not an excerpt of registry/example_test.go")
	}
	url := serve(t, "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	path := filepath.Join(t.TempDir(), "data.csv")
	os.WriteFile(path, random(t, 100), 0o600)
	for range 2 {
		if err := publish(context.Background(), url, "", path); err != nil {
			t.Fatal(err)
		}
	}
	// Both runs' registrations exist: registered again, nothing is created.
	c := client(t, url)
	schema, err := c.Register(context.Background(), map[string]any{"version": 1, "columns": []any{"id", "name"}}, "")
	if err != nil || schema.Created {
		t.Fatalf("%+v %v", schema, err)
	}
	data, err := c.RegisterFile(context.Background(), path, schema.Key)
	if err != nil || data.Created {
		t.Fatalf("%+v %v", data, err)
	}
}
