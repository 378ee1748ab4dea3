// Changing the key algorithm while writers run, on FerretDB: the key-rings guide's
// client-side rollout step by step, with writers of the rings each step has side by side
// racing on the same posts. The (slug, lang) index is dropped first, so that what keeps
// one post per identity is what any collection has: the per-scheme id fields.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	samekey "github.com/samekey/samekey/bindings/go"
)

var (
	before   = []samekey.Scheme{samekey.V1}
	expand   = []samekey.Scheme{samekey.V1, samekey.V2}
	switched = []samekey.Scheme{samekey.V2, samekey.V1}
	contract = []samekey.Scheme{samekey.V2}
)

const timeoutPerPost = 2 * time.Second

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func clientOptions(uri string) *options.ClientOptions {
	return options.Client().ApplyURI(uri).SetRetryWrites(false)
}

func postLine(slug, day string) string {
	return fmt.Sprintf(`{"slug":%q,"lang":"en","publishedAt":"2024-07-%sT09:00:00Z","body":%q}`, slug, day, slug)
}

var (
	newPost   = postLine("rollout", "01")
	laterPost = postLine("contract", "02")
	thirdPost = postLine("retired", "03")
)

func sourcePosts(t *testing.T) []string {
	data, err := os.ReadFile("../data/posts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// rolloutDB is a fresh database without the (slug, lang) index.
func rolloutDB(t *testing.T) *mongo.Collection {
	posts := collection(t, uri, freshDB())
	if err := posts.Indexes().DropOne(context.Background(), "slug_1_lang_1"); err != nil {
		t.Fatal(err)
	}
	return posts
}

func mustRing(t *testing.T, schemes []samekey.Scheme) *samekey.KeyRing {
	ring, err := samekey.KeyRingOf(schemes)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// write runs a writer of ring over lines; returns each post's "id action".
func write(t *testing.T, posts *mongo.Collection, lines []string, ring []samekey.Scheme) map[string]string {
	t.Helper()
	p := &Pipeline{Posts: posts, Ring: mustRing(t, ring), Timeout: timeoutPerPost, Retries: 5, Log: os.Stderr}
	out, err := p.Run(context.Background(), strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range out {
		f := strings.Split(l, "\t")
		got[f[1]+"/"+f[2]] = f[0] + " " + f[4]
	}
	return got
}

func race(t *testing.T, posts *mongo.Collection, lines []string, rings ...[]samekey.Scheme) []map[string]string {
	out := make([]map[string]string, len(rings))
	var wg sync.WaitGroup
	for i, ring := range rings {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = write(t, posts, lines, ring) }()
	}
	wg.Wait()
	return out
}

type storedPost struct {
	ID       string `bson:"_id"`
	IDScheme string `bson:"idScheme"`
	Slug     string `bson:"slug"`
	Lang     string `bson:"lang"`
	IDV1     string `bson:"idV1"`
	IDV2     string `bson:"idV2"`
}

func stored(t *testing.T, posts *mongo.Collection) []storedPost {
	cur, err := posts.Find(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var all []storedPost
	if err := cur.All(context.Background(), &all); err != nil {
		t.Fatal(err)
	}
	return all
}

// onePostPerIdentity: no twin, and every writer was told the id the post was created under.
func onePostPerIdentity(t *testing.T, posts *mongo.Collection, runs []map[string]string) {
	t.Helper()
	created := map[string]string{}
	for _, p := range stored(t, posts) {
		name := p.Slug + "/" + p.Lang
		if _, twin := created[name]; twin {
			t.Fatalf("twins of %s: %+v", name, stored(t, posts))
		}
		created[name] = p.ID
	}
	for _, run := range runs {
		for name, answer := range run {
			id, action, _ := strings.Cut(answer, " ")
			if !strings.HasPrefix(action, "refused:") && id != created[name] {
				t.Errorf("%s: told %s, created %s", name, id, created[name])
			}
		}
	}
}

func ulidOf(t *testing.T, line string, scheme samekey.Scheme) string {
	var in post
	if err := jsonUnmarshal(line, &in); err != nil {
		t.Fatal(err)
	}
	ms, _ := samekey.ParseRFC3339(in.PublishedAt)
	id, err := samekey.DeriveULID(ms, samekey.Options{Scheme: scheme, Namespace: namespace}, samekey.Fields(in.Slug, in.Lang)...)
	if err != nil {
		t.Fatal(err)
	}
	return id.String()
}

// ANCHOR: steps
func TestRolloutStepByStepWithThePreviousStepsWritersStillRunning(t *testing.T) {
	ctx := context.Background()
	posts := rolloutDB(t)
	all := sourcePosts(t)
	write(t, posts, all, before)
	// 1. Expand: ring (v1, v2) beside the old writers.
	onePostPerIdentity(t, posts, race(t, posts, append(all, newPost), before, expand, expand))
	// 2. Require v2: every post gets its v2 id; a writer without v2 is refused from now on.
	if _, err := Require(ctx, posts, samekey.V2, timeoutPerPost); err != nil {
		t.Fatal(err)
	}
	for _, p := range stored(t, posts) {
		if p.IDV2 == "" {
			t.Fatalf("no v2 id: %+v", p)
		}
	}
	if got := write(t, posts, []string{laterPost}, before)["contract/en"]; !strings.HasSuffix(got, " refused:scheme_required") {
		t.Fatalf("a v1 writer after require v2: %s", got)
	}
	// 3. Switch: ring (v2, v1) creates under v2, racing ring (v1, v2).
	onePostPerIdentity(t, posts, race(t, posts, append(all, laterPost), expand, switched, switched))
	// 4. Retire v1: its ids are removed; a writer still recording them is refused.
	if _, err := Retire(ctx, posts, samekey.V1); err != nil {
		t.Fatal(err)
	}
	if got := write(t, posts, []string{thirdPost}, switched)["retired/en"]; !strings.HasSuffix(got, " refused:scheme_required") {
		t.Fatalf("a (v2, v1) writer after retire v1: %s", got)
	}
	// 5. Contract: ring (v2) alone.
	runs := race(t, posts, append(all, newPost, laterPost, thirdPost), contract, contract)
	onePostPerIdentity(t, posts, runs)
	if got, want := strings.Fields(runs[0]["retired/en"])[0], ulidOf(t, thirdPost, samekey.V2); got != want {
		t.Fatalf("retired/en: %s, want its v2 id %s", got, want)
	}
	lines, err := Status(ctx, posts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(lines[0], "v1\tretired\t") || !strings.HasSuffix(lines[1], "\tmissing 0") {
		t.Fatalf("status: %q", lines)
	}
}

// ANCHOR_END: steps

func TestWhatASkippedStepDoes(t *testing.T) {
	ctx := context.Background()
	posts := rolloutDB(t)
	write(t, posts, sourcePosts(t), before)
	if got := write(t, posts, []string{newPost}, contract)["rollout/en"]; !strings.HasSuffix(got, " refused:scheme_required") {
		t.Fatalf("ring (v2) while v1 is required: %s", got)
	}
	if _, err := Retire(ctx, posts, samekey.V1); !errors.Is(err, ErrRollout) || !strings.Contains(err.Error(), "last required") {
		t.Fatalf("retire the last required scheme: %v", err)
	}
	if _, err := Require(ctx, posts, samekey.V2, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Retire(ctx, posts, samekey.V1); err != nil {
		t.Fatal(err)
	}
	if _, err := Require(ctx, posts, samekey.V1, 0); !errors.Is(err, ErrRollout) {
		t.Fatalf("require a retired scheme: %v", err)
	}
}

func TestAWriterMeetingAPostOfASchemeItDoesNotKnow(t *testing.T) {
	ctx := context.Background()
	posts := rolloutDB(t)
	if _, err := Require(ctx, posts, samekey.V2, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Retire(ctx, posts, samekey.V1); err != nil {
		t.Fatal(err)
	}
	write(t, posts, []string{newPost}, contract)
	want := ulidOf(t, newPost, samekey.V2) + " refused:scheme_not_accepted"
	if got := write(t, posts, []string{newPost}, before)["rollout/en"]; got != want {
		t.Fatalf("a v1 writer meeting a v2-only post: %s, want %s", got, want)
	}
	moved := strings.Replace(newPost, "2024-07-01", "2024-07-05", 1)
	if got := write(t, posts, []string{moved}, contract)["rollout/en"]; !strings.HasSuffix(got, " refused:identity_mismatch") {
		t.Fatalf("a moved publishedAt: %s", got)
	}
}

// bothLookThenBothInsert forces the interleaving that made twins: every writer reads
// (finds nothing) before any writes.
func bothLookThenBothInsert(t *testing.T, posts *mongo.Collection, rings ...[]samekey.Scheme) []string {
	ctx := context.Background()
	var writers []*Pipeline
	var plans []plan
	for _, ring := range rings {
		p := &Pipeline{Posts: posts, Ring: mustRing(t, ring)}
		pl, err := p.Look(ctx, newPost)
		if err != nil || !pl.insert {
			t.Fatalf("look: %v %+v", err, pl)
		}
		writers, plans = append(writers, p), append(plans, pl)
	}
	var actions []string
	for i, p := range writers {
		action, err := p.Apply(ctx, plans[i])
		if errors.Is(err, errConflict) {
			action = "conflict"
		} else if err != nil {
			t.Fatal(err)
		}
		actions = append(actions, action)
	}
	return actions
}

func TestWritersThatAllLookedFirstStillMakeOnePost(t *testing.T) {
	for _, rings := range [][][]samekey.Scheme{{before, switched}, {switched, before}, {expand, switched, before}} {
		t.Run(fmt.Sprint(rings), func(t *testing.T) {
			posts := rolloutDB(t)
			actions := bothLookThenBothInsert(t, posts, rings...)
			if actions[0] != "inserted" || strings.Count(strings.Join(actions, " "), "conflict") != len(rings)-1 {
				t.Fatalf("actions: %q", actions)
			}
			// The writers that conflicted look again and find the first one's post.
			for _, ring := range rings[1:] {
				want := ulidOf(t, newPost, rings[0][0]) + " unchanged"
				if got := write(t, posts, []string{newPost}, ring)["rollout/en"]; got != want {
					t.Fatalf("ring %v looking again: %s, want %s", ring, got, want)
				}
			}
			if n := len(stored(t, posts)); n != 1 {
				t.Fatalf("%d posts for one identity", n)
			}
		})
	}
}

func TestWithoutThePerSchemeUniqueIndexesTheSameInterleavingMakesATwin(t *testing.T) {
	posts := rolloutDB(t)
	for _, name := range []string{"idV1_1", "idV2_1"} {
		if err := posts.Indexes().DropOne(context.Background(), name); err != nil {
			t.Fatal(err)
		}
	}
	bothLookThenBothInsert(t, posts, before, switched)
	var schemes []string
	for _, p := range stored(t, posts) {
		schemes = append(schemes, p.IDScheme)
	}
	sort.Strings(schemes)
	if strings.Join(schemes, ",") != "v1,v2" {
		t.Fatalf("want the twin (v1 and v2 posts), got %q", schemes)
	}
}

func TestACollectionOfTheRecipeBeforeRingsIsMigrated(t *testing.T) {
	ctx := context.Background()
	db := freshDB()
	client, err := mongo.Connect(clientOptions(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(ctx)
	old := client.Database(db).Collection("posts")
	all := sourcePosts(t)
	for _, line := range all {
		var in post
		if err := jsonUnmarshal(line, &in); err != nil {
			t.Fatal(err)
		}
		hash, _ := samekey.ContentHashJSONText(samekey.V1, []byte(line))
		// What samekey 0.3's pipeline.go wrote: the v1 id as _id and nothing else.
		if _, err := old.InsertOne(ctx, bson.D{{Key: "_id", Value: ulidOf(t, line, samekey.V1)}, {Key: "slug", Value: in.Slug},
			{Key: "lang", Value: in.Lang}, {Key: "publishedAt", Value: in.PublishedAt}, {Key: "body", Value: in.Body},
			{Key: "sourceHash", Value: hash}}); err != nil {
			t.Fatal(err)
		}
	}
	posts := collection(t, uri, db)
	for name, answer := range write(t, posts, all, expand) {
		if !strings.HasSuffix(answer, " unchanged") {
			t.Fatalf("%s after the migration: %s", name, answer)
		}
	}
	lines, err := Status(ctx, posts)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("v1\trequired\tcreated %d\trecorded %d\tmissing 0", len(all), len(all)); lines[0] != want {
		t.Fatalf("status %q, want %q", lines[0], want)
	}
}
