// FerretDB v1 (a MongoDB-wire engine) on its SQLite backend, for the Go pipeline's tests.
// Embedded rather than `go install`ed: FerretDB's own command refuses to start when built
// from the module proxy, which carries no build/version/version.txt.
//
//	go run . -listen 127.0.0.1:27018 -dir /tmp/ferretdb-data
//
// Prints "ready mongodb://..." once it accepts connections; stops on SIGTERM/SIGINT.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27018", "TCP address")
	dir := flag.String("dir", "", "directory of the SQLite databases (created if missing)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "ferretdb: -dir is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Handler:   "sqlite",
		SQLiteURL: "file:" + *dir + "/",
		Logger:    slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() {
		for ctx.Err() == nil {
			if c, err := net.Dial("tcp", *listen); err == nil {
				c.Close()
				fmt.Println("ready", f.MongoDBURI())
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
