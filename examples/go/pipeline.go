// The blog-ingestion pipeline on a MongoDB-wire engine (FerretDB here) with the official
// Go driver and retryWrites=false: one JSONL post per line, upserted by _id derived from
// (slug, lang) and publishedAt. Usage:
//
//	go run . MONGODB_URI INPUT.jsonl [OUTPUT.tsv]
//
// OUTPUT gets one line per post: id, slug, lang, source hash, action; the Node and Python
// pipelines write the same file for the same input.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"encoding/json"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	samekey "github.com/samekey/samekey/bindings/go"
)

const namespace = "posts"

var errConflict = errors.New("a concurrent writer stored this post first")

type post struct {
	Slug        string `json:"slug"`
	Lang        string `json:"lang"`
	PublishedAt string `json:"publishedAt"`
	Body        string `json:"body"`
}

// Pipeline ingests posts into one collection.
type Pipeline struct {
	Posts   *mongo.Collection
	Timeout time.Duration // per attempt at one post: the wait for an acknowledgement
	Retries int
	Log     io.Writer
}

// ANCHOR: connect
// Connect opens the collection posts of database and its unique (slug, lang) index.
func Connect(ctx context.Context, uri, database string) (*mongo.Client, *mongo.Collection, error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetRetryWrites(false))
	if err != nil {
		return nil, nil, err
	}
	posts := client.Database(database).Collection("posts")
	_, err = posts.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys:    bson.D{{Key: "slug", Value: 1}, {Key: "lang", Value: 1}},
		Options: options.Index().SetUnique(true),
	})
	return client, posts, err
}

// ANCHOR_END: connect

// Ingest writes one source line; returns the id, the source hash and what happened.
func (p *Pipeline) Ingest(ctx context.Context, line string) (id, sourceHash, action string, err error) {
	var in post
	if err = json.Unmarshal([]byte(line), &in); err != nil {
		return
	}
	ms, err := samekey.ParseRFC3339(in.PublishedAt)
	if err != nil {
		return
	}
	fields := samekey.Fields(in.Slug, in.Lang)
	ulid, err := samekey.DeriveULID(ms, samekey.Options{Namespace: namespace}, fields...)
	if err != nil {
		return
	}
	id = ulid.String()
	if sourceHash, err = samekey.ContentHashJSONText(samekey.V1, []byte(line)); err != nil {
		return
	}
	var stored struct {
		ID         string `bson:"_id"`
		SourceHash string `bson:"sourceHash"`
	}
	found := true
	err = p.Posts.FindOne(ctx, bson.D{{Key: "slug", Value: in.Slug}, {Key: "lang", Value: in.Lang}}).Decode(&stored)
	if errors.Is(err, mongo.ErrNoDocuments) {
		found, err = false, nil
	} else if err != nil {
		return
	}
	if found && stored.ID != id {
		// An identity field changed: writing would orphan the stored document.
		storedID, perr := samekey.ParseULID(stored.ID)
		if perr != nil {
			return id, sourceHash, "", perr
		}
		_, verr := samekey.Verify(storedID, time.UnixMilli(ms), samekey.Options{Namespace: namespace}, []samekey.Scheme{samekey.V1}, fields...)
		var se *samekey.Error
		if errors.As(verr, &se) {
			return id, sourceHash, "refused:" + se.Code, nil
		}
	}
	if found {
		needed, nerr := samekey.NeedsWrite(stored.SourceHash, sourceHash)
		if nerr != nil {
			return id, sourceHash, "", nerr
		}
		if !needed {
			return id, sourceHash, "unchanged", nil
		}
	}
	// ANCHOR: upsert
	// Upsert by _id, only where the stored hash differs: a document with this _id and
	// this hash makes the upsert's insert a duplicate key: someone wrote it meanwhile.
	res, err := p.Posts.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "sourceHash", Value: bson.D{{Key: "$ne", Value: sourceHash}}}},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: "slug", Value: in.Slug}, {Key: "lang", Value: in.Lang}, {Key: "publishedAt", Value: in.PublishedAt},
			{Key: "body", Value: in.Body}, {Key: "sourceHash", Value: sourceHash}, {Key: "updatedAt", Value: time.Now().UTC()},
		}}},
		options.UpdateOne().SetUpsert(true))
	// ANCHOR_END: upsert
	switch {
	case mongo.IsDuplicateKeyError(err):
		// Another writer stored this _id or this (slug, lang) first: Run looks again.
		return id, sourceHash, "", errConflict
	case err != nil:
		return
	case res.UpsertedCount == 1:
		return id, sourceHash, "inserted", nil
	case res.ModifiedCount == 1:
		return id, sourceHash, "updated", nil
	}
	return id, sourceHash, "unchanged", nil
}

// Run ingests every line, retrying a post whose acknowledgement did not arrive in time.
func (p *Pipeline) Run(ctx context.Context, input io.Reader) ([]string, error) {
	var out []string
	scanner := bufio.NewScanner(input)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		var in post
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			return out, err
		}
		var id, hash, action string
		var err error
		for attempt := 1; ; attempt++ {
			actx, cancel := context.WithTimeout(ctx, p.Timeout)
			id, hash, action, err = p.Ingest(actx, line)
			cancel()
			if err == nil {
				break
			}
			var se *samekey.Error
			if errors.Is(err, errConflict) && attempt < p.Retries {
				continue
			}
			if errors.As(err, &se) || attempt >= p.Retries {
				return out, fmt.Errorf("post %s/%s: %w", in.Slug, in.Lang, err)
			}
			if p.Log != nil {
				fmt.Fprintf(p.Log, "pipeline: attempt %d failed (%v); retrying\n", attempt, err)
			}
		}
		out = append(out, strings.Join([]string{id, in.Slug, in.Lang, hash, action}, "\t"))
	}
	return out, scanner.Err()
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . MONGODB_URI INPUT.jsonl [OUTPUT.tsv]")
		os.Exit(2)
	}
	ctx := context.Background()
	client, posts, err := Connect(ctx, os.Args[1], "blog")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer client.Disconnect(ctx)
	f, err := os.Open(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	p := &Pipeline{Posts: posts, Timeout: 2 * time.Second, Retries: 5, Log: os.Stderr}
	out, err := p.Run(ctx, f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	text := strings.Join(out, "\n") + "\n"
	if len(os.Args) > 3 {
		if err := os.WriteFile(os.Args[3], []byte(text), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Print(text)
}
