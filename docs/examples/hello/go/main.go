package main

import (
	"fmt"
	"log"
	"time"

	samekey "github.com/samekey/samekey/bindings/go"
)

func main() {
	published := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	id, err := samekey.DeriveULIDAt(published, samekey.Options{Namespace: "posts"}, samekey.Fields("hello-world", "en")...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(id)
}
