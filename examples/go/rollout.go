// The store's side of changing the key algorithm while writers run, for the pipeline's
// posts collection (the key-rings guide's client-side rollout; ../python/rollout.py is the
// same on PostgreSQL). Each post records its id in one sparse unique field per scheme,
// and the schemes collection names the required and retired schemes.
//
// FerretDB 1.24 has neither validators (collMod) nor transactions, so the store itself
// cannot refuse a write that lacks a required scheme: each writer reads the states before
// it writes (Pipeline.Apply), and Require fills the new scheme's ids twice, a grace period
// apart, for writes that read the states just before the change. On MongoDB, a
// $jsonSchema validator requiring the field closes that window; see the guide.
package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	samekey "github.com/samekey/samekey/bindings/go"
)

// idFields are the posts' id fields, one per scheme.
var idFields = map[samekey.Scheme]string{samekey.V1: "idV1", samekey.V2: "idV2"}

// ErrRollout is a step the store's state does not allow.
var ErrRollout = errors.New("rollout")

type schemeStates struct {
	Required []samekey.Scheme `bson:"required"`
	Retired  []samekey.Scheme `bson:"retired"`
}

func statesOf(posts *mongo.Collection) *mongo.Collection {
	return posts.Database().Collection("schemes")
}

func readStates(ctx context.Context, posts *mongo.Collection) (st schemeStates, err error) {
	err = statesOf(posts).FindOne(ctx, bson.D{{Key: "_id", Value: posts.Name()}}).Decode(&st)
	return
}

// RecordSchemes records, once, that v1 is required and that every post stored before key
// rings (no idScheme) was created under v1. Repeating it changes nothing.
func RecordSchemes(ctx context.Context, posts *mongo.Collection) error {
	// Read first: a store that has its states is not written to at every start.
	if _, err := readStates(ctx, posts); errors.Is(err, mongo.ErrNoDocuments) {
		_, err := statesOf(posts).InsertOne(ctx, bson.D{{Key: "_id", Value: posts.Name()},
			{Key: "required", Value: bson.A{"v1"}}, {Key: "retired", Value: bson.A{}}})
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return err
		}
	} else if err != nil {
		return err
	}
	cur, err := posts.Find(ctx, bson.D{{Key: "idScheme", Value: bson.D{{Key: "$exists", Value: false}}}})
	if err != nil {
		return err
	}
	var old []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &old); err != nil {
		return err
	}
	for _, d := range old {
		set := bson.D{{Key: "idScheme", Value: "v1"}, {Key: "idV1", Value: d.ID}}
		if _, err := posts.UpdateOne(ctx, bson.D{{Key: "_id", Value: d.ID}}, bson.D{{Key: "$set", Value: set}}); err != nil {
			return err
		}
	}
	return nil
}

// refusedByStore: the ring lacks a required scheme or holds a retired one.
func (p *Pipeline) refusedByStore(ctx context.Context, ring *samekey.KeyRing) (bool, error) {
	st, err := readStates(ctx, p.Posts)
	if err != nil {
		return false, err
	}
	for _, s := range st.Required {
		if !slices.Contains(ring.Accepted(), s) {
			return true, nil
		}
	}
	for _, s := range st.Retired {
		if slices.Contains(ring.Accepted(), s) {
			return true, nil
		}
	}
	return false, nil
}

// Require makes every post carry its id in scheme; writers without it are refused from
// then on. grace is how long a write that read the states before the change may take
// (the writers' timeout): the ids are filled in again after it. Returns the posts filled.
func Require(ctx context.Context, posts *mongo.Collection, scheme samekey.Scheme, grace time.Duration) (int, error) {
	field, st, err := stepOn(ctx, posts, scheme)
	if err != nil {
		return 0, err
	}
	if slices.Contains(st.Retired, scheme) {
		return 0, fmt.Errorf("%w: %s is retired: a retired scheme is never required again", ErrRollout, scheme)
	}
	_, err = statesOf(posts).UpdateOne(ctx, bson.D{{Key: "_id", Value: posts.Name()}},
		bson.D{{Key: "$addToSet", Value: bson.D{{Key: "required", Value: string(scheme)}}}})
	if err != nil {
		return 0, err
	}
	filled, err := fill(ctx, posts, scheme, field)
	if err != nil {
		return filled, err
	}
	time.Sleep(grace)
	more, err := fill(ctx, posts, scheme, field)
	return filled + more, err
}

func fill(ctx context.Context, posts *mongo.Collection, scheme samekey.Scheme, field string) (int, error) {
	cur, err := posts.Find(ctx, bson.D{{Key: field, Value: bson.D{{Key: "$exists", Value: false}}}})
	if err != nil {
		return 0, err
	}
	var missing []struct {
		ID          string `bson:"_id"`
		IDScheme    string `bson:"idScheme"`
		Slug        string `bson:"slug"`
		Lang        string `bson:"lang"`
		PublishedAt string `bson:"publishedAt"`
	}
	if err := cur.All(ctx, &missing); err != nil {
		return 0, err
	}
	for _, d := range missing {
		ms, err := samekey.ParseRFC3339(d.PublishedAt)
		if err != nil {
			return 0, err
		}
		fields := samekey.Fields(d.Slug, d.Lang)
		// The post's own fields must still derive the id it was created under.
		own, err := samekey.NewKeyRing(samekey.Scheme(d.IDScheme))
		if err != nil {
			return 0, err
		}
		stored, err := samekey.ParseULID(d.ID)
		if err != nil {
			return 0, err
		}
		if _, err := own.VerifyULID(stored, ms, namespace, nil, fields...); err != nil {
			return 0, fmt.Errorf("%w: post %s: its fields do not derive its %s id (%v)", ErrRollout, d.ID, d.IDScheme, err)
		}
		id, err := samekey.DeriveULID(ms, samekey.Options{Scheme: scheme, Namespace: namespace}, fields...)
		if err != nil {
			return 0, err
		}
		_, err = posts.UpdateOne(ctx, bson.D{{Key: "_id", Value: d.ID}, {Key: field, Value: bson.D{{Key: "$exists", Value: false}}}},
			bson.D{{Key: "$set", Value: bson.D{{Key: field, Value: id.String()}}}})
		if err != nil {
			return 0, err
		}
	}
	return len(missing), nil
}

// Retire stops scheme for good: writers holding it are refused and its ids are removed,
// so a collision in it can never make two posts one. Needs another required scheme.
func Retire(ctx context.Context, posts *mongo.Collection, scheme samekey.Scheme) (int64, error) {
	field, st, err := stepOn(ctx, posts, scheme)
	if err != nil {
		return 0, err
	}
	if !slices.ContainsFunc(st.Required, func(s samekey.Scheme) bool { return s != scheme }) {
		return 0, fmt.Errorf("%w: %s is the last required scheme: require another one first", ErrRollout, scheme)
	}
	_, err = statesOf(posts).UpdateOne(ctx, bson.D{{Key: "_id", Value: posts.Name()}}, bson.D{
		{Key: "$pull", Value: bson.D{{Key: "required", Value: string(scheme)}}},
		{Key: "$addToSet", Value: bson.D{{Key: "retired", Value: string(scheme)}}},
	})
	if err != nil {
		return 0, err
	}
	res, err := posts.UpdateMany(ctx, bson.D{{Key: field, Value: bson.D{{Key: "$exists", Value: true}}}},
		bson.D{{Key: "$unset", Value: bson.D{{Key: field, Value: ""}}}})
	if err != nil {
		return 0, err
	}
	return res.ModifiedCount, nil
}

// Status is one line per scheme: its state, posts created under it, posts carrying its
// id, and posts without one.
func Status(ctx context.Context, posts *mongo.Collection) ([]string, error) {
	st, err := readStates(ctx, posts)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, scheme := range []samekey.Scheme{samekey.V1, samekey.V2} {
		state := "optional"
		if slices.Contains(st.Required, scheme) {
			state = "required"
		} else if slices.Contains(st.Retired, scheme) {
			state = "retired"
		}
		var n [3]int64
		for i, filter := range []bson.D{
			{{Key: "idScheme", Value: string(scheme)}},
			{{Key: idFields[scheme], Value: bson.D{{Key: "$exists", Value: true}}}},
			{{Key: idFields[scheme], Value: bson.D{{Key: "$exists", Value: false}}}},
		} {
			if n[i], err = posts.CountDocuments(ctx, filter); err != nil {
				return nil, err
			}
		}
		lines = append(lines, fmt.Sprintf("%s\t%s\tcreated %d\trecorded %d\tmissing %d", scheme, state, n[0], n[1], n[2]))
	}
	return lines, nil
}

// stepOn is what a step on scheme starts from: its id field and the store's states.
func stepOn(ctx context.Context, posts *mongo.Collection, scheme samekey.Scheme) (string, schemeStates, error) {
	field, err := fieldOf(scheme)
	if err != nil {
		return "", schemeStates{}, err
	}
	st, err := readStates(ctx, posts)
	return field, st, err
}

func fieldOf(scheme samekey.Scheme) (string, error) {
	if field, ok := idFields[scheme]; ok {
		return field, nil
	}
	return "", fmt.Errorf("%w: %q is not a scheme the posts collection has a field for (v1, v2)", ErrRollout, scheme)
}

// ringOf parses SAMEKEY_RING ("v2,v1", primary first); empty is v1 alone.
func ringOf(text string) (*samekey.KeyRing, error) {
	if text == "" {
		return nil, nil
	}
	var schemes []samekey.Scheme
	for _, s := range strings.Split(text, ",") {
		schemes = append(schemes, samekey.Scheme(strings.TrimSpace(s)))
	}
	return samekey.KeyRingOf(schemes)
}
