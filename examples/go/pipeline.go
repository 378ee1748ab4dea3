// The blog-ingestion pipeline on a MongoDB-wire engine (FerretDB here) with the official
// Go driver and retryWrites=false: one JSONL post per line, upserted by _id derived from
// (slug, lang) and publishedAt. Usage:
//
//	[SAMEKEY_RING=v2,v1] go run . MONGODB_URI INPUT.jsonl [OUTPUT.tsv]
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

// Pipeline ingests posts into one collection with one key ring.
type Pipeline struct {
	Posts   *mongo.Collection
	Ring    *samekey.KeyRing // nil: v1 alone
	Timeout time.Duration    // per attempt at one post: the wait for an acknowledgement
	Retries int
	Log     io.Writer
}

// ANCHOR: connect
// Connect opens the collection posts of database: its unique (slug, lang) index, one
// sparse unique index per scheme's id field, and the scheme states (rollout.go).
func Connect(ctx context.Context, uri, database string) (*mongo.Client, *mongo.Collection, error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetRetryWrites(false))
	if err != nil {
		return nil, nil, err
	}
	posts := client.Database(database).Collection("posts")
	indexes := []mongo.IndexModel{{
		Keys:    bson.D{{Key: "slug", Value: 1}, {Key: "lang", Value: 1}},
		Options: options.Index().SetUnique(true),
	}}
	for _, field := range idFields {
		// Sparse: a post without this scheme's id is not in the index at all.
		indexes = append(indexes, mongo.IndexModel{
			Keys: bson.D{{Key: field, Value: 1}}, Options: options.Index().SetUnique(true).SetSparse(true),
		})
	}
	for _, index := range indexes { // one at a time: FerretDB 1.24 panics on several at once
		if _, err = posts.Indexes().CreateOne(ctx, index); err != nil {
			return client, posts, err
		}
	}
	return client, posts, RecordSchemes(ctx, posts)
}

// ANCHOR_END: connect

// plan is what Look found and Apply does: insert, update, or answer with action.
type plan struct {
	in               post
	ids              map[samekey.Scheme]string
	id, hash, action string
	insert, update   bool
}

func (p *Pipeline) ring() (*samekey.KeyRing, error) {
	if p.Ring != nil {
		return p.Ring, nil
	}
	return samekey.NewKeyRing(samekey.V1)
}

// Look reads what the store holds for one source line and decides what to write.
func (p *Pipeline) Look(ctx context.Context, line string) (pl plan, err error) {
	ring, err := p.ring()
	if err != nil {
		return
	}
	if err = json.Unmarshal([]byte(line), &pl.in); err != nil {
		return
	}
	ms, err := samekey.ParseRFC3339(pl.in.PublishedAt)
	if err != nil {
		return
	}
	fields := samekey.Fields(pl.in.Slug, pl.in.Lang)
	candidates, err := ring.CandidateULIDs(ms, namespace, nil, fields...)
	if err != nil {
		return
	}
	pl.ids = map[samekey.Scheme]string{}
	for _, c := range candidates {
		if _, ok := idFields[c.Scheme]; !ok {
			return pl, fmt.Errorf("the posts collection has no id field for %s", c.Scheme)
		}
		pl.ids[c.Scheme] = c.ULID.String()
	}
	pl.id = pl.ids[ring.Accepted()[0]]
	if pl.hash, err = samekey.ContentHashJSONText(samekey.V1, []byte(line)); err != nil {
		return
	}
	or := bson.A{bson.D{{Key: "slug", Value: pl.in.Slug}, {Key: "lang", Value: pl.in.Lang}}}
	for scheme, id := range pl.ids {
		or = append(or, bson.D{{Key: idFields[scheme], Value: id}})
	}
	var stored bson.M
	err = p.Posts.FindOne(ctx, bson.D{{Key: "$or", Value: or}}).Decode(&stored)
	if errors.Is(err, mongo.ErrNoDocuments) {
		pl.insert = true
		return pl, nil
	} else if err != nil {
		return
	}
	var known []samekey.Scheme
	for _, s := range ring.Accepted() {
		if _, ok := stored[idFields[s]].(string); ok {
			known = append(known, s)
		}
	}
	if len(known) == 0 {
		// Created by a ring sharing no scheme with ours: we cannot tell whether it is this post.
		pl.id, pl.action = stored["_id"].(string), "refused:scheme_not_accepted"
		return pl, nil
	}
	for _, s := range known {
		// Every recorded id of our ring must be ours (an edited identity field, or a collision).
		recorded, perr := samekey.ParseULID(stored[idFields[s]].(string))
		if perr != nil {
			return pl, perr
		}
		got, verr := ring.VerifyULID(recorded, ms, namespace, nil, fields...)
		var se *samekey.Error
		if errors.As(verr, &se) {
			pl.action = "refused:" + se.Code
			return pl, nil
		} else if verr != nil {
			return pl, verr
		} else if got != s {
			pl.action = "refused:identity_mismatch"
			return pl, nil
		}
	}
	pl.id = stored["_id"].(string)
	storedHash, _ := stored["sourceHash"].(string)
	needed, err := samekey.NeedsWrite(storedHash, pl.hash)
	if err != nil {
		return
	}
	if !needed {
		pl.action = "unchanged"
	}
	pl.update = needed
	return pl, nil
}

// Apply carries out Look's plan; errConflict when another writer stored the post in between.
func (p *Pipeline) Apply(ctx context.Context, pl plan) (action string, err error) {
	if !pl.insert && !pl.update {
		return pl.action, nil
	}
	ring, err := p.ring()
	if err != nil {
		return
	}
	// FerretDB has no validators: the scheme states are read before each write (rollout.go).
	if refused, err := p.refusedByStore(ctx, ring); err != nil || refused {
		return "refused:scheme_required", err
	}
	set := bson.D{{Key: "body", Value: pl.in.Body}, {Key: "sourceHash", Value: pl.hash}, {Key: "updatedAt", Value: time.Now().UTC()}}
	// ANCHOR: upsert
	if pl.insert {
		doc := bson.D{{Key: "_id", Value: pl.id}, {Key: "idScheme", Value: string(ring.Accepted()[0])},
			{Key: "slug", Value: pl.in.Slug}, {Key: "lang", Value: pl.in.Lang}, {Key: "publishedAt", Value: pl.in.PublishedAt}}
		for _, s := range ring.Accepted() {
			doc = append(doc, bson.E{Key: idFields[s], Value: pl.ids[s]})
		}
		_, err = p.Posts.InsertOne(ctx, append(doc, set...))
		if mongo.IsDuplicateKeyError(err) {
			// Another writer stored one of its ids, or its (slug, lang), first: look again.
			return "", errConflict
		}
		return "inserted", err
	}
	// Only where the stored hash differs: another writer may have written it meanwhile.
	for _, s := range ring.Accepted() {
		set = append(set, bson.E{Key: idFields[s], Value: pl.ids[s]})
	}
	res, err := p.Posts.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: pl.id}, {Key: "sourceHash", Value: bson.D{{Key: "$ne", Value: pl.hash}}}},
		bson.D{{Key: "$set", Value: set}})
	// ANCHOR_END: upsert
	if err != nil {
		return
	}
	if res.ModifiedCount == 1 {
		return "updated", nil
	}
	return "unchanged", nil
}

// Ingest writes one source line; returns the id, the source hash and what happened.
func (p *Pipeline) Ingest(ctx context.Context, line string) (id, sourceHash, action string, err error) {
	pl, err := p.Look(ctx, line)
	if err != nil {
		return
	}
	action, err = p.Apply(ctx, pl)
	return pl.id, pl.hash, action, err
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
		// ANCHOR: retry
		for attempt := 1; ; attempt++ {
			actx, cancel := context.WithTimeout(ctx, p.Timeout)
			id, hash, action, err = p.Ingest(actx, line)
			cancel()
			if err == nil {
				break
			}
			var se *samekey.Error
			if errors.Is(err, errConflict) && attempt < p.Retries {
				continue // another writer stored this post first: Ingest looks again and finds it
			}
			if errors.As(err, &se) || attempt >= p.Retries {
				return out, fmt.Errorf("post %s/%s: %w", in.Slug, in.Lang, err)
			}
			if p.Log != nil {
				fmt.Fprintf(p.Log, "pipeline: attempt %d failed (%v); retrying\n", attempt, err)
			}
		}
		// ANCHOR_END: retry
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
	ring, err := ringOf(os.Getenv("SAMEKEY_RING"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	p := &Pipeline{Posts: posts, Ring: ring, Timeout: 2 * time.Second, Retries: 5, Log: os.Stderr}
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
