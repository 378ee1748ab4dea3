package samekey

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The pure-Go peer: the ~30 lines a Go developer would write instead of this package.
// crypto/sha256 over the 64-byte tag block and the framing, encoding/base32 with the
// Crockford alphabet.
var crockfordBase32 = base32.NewEncoding("0123456789ABCDEFGHJKMNPQRSTVWXYZ").WithPadding(base32.NoPadding)

func pureGo(ms int64, fields ...[]byte) string {
	var tag [64]byte
	copy(tag[:], "samekey/v1/ulid")
	h := sha256.New()
	h.Write(tag[:])
	buf := make([]byte, 0, 64)
	buf = binary.BigEndian.AppendUint32(buf, 0) // empty namespace
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(fields)))
	for _, f := range fields {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(f)))
		buf = append(buf, f...)
	}
	h.Write(buf)
	var id [20]byte // 16 id bytes shifted so that 130 bits fill 26 characters
	var raw [16]byte
	var t [8]byte
	binary.BigEndian.PutUint64(t[:], uint64(ms))
	copy(raw[:6], t[2:])
	copy(raw[6:], h.Sum(nil)[:10])
	// Prepend two zero bits: shift the 128 bits right by 2 within 130 bits → left-align.
	var carry byte
	for i := 0; i < 16; i++ {
		id[i] = carry | raw[i]>>2
		carry = raw[i] << 6
	}
	id[16] = carry
	return crockfordBase32.EncodeToString(id[:17])[:26]
}

func benchInputs(n int) ([]int64, [][][]byte) {
	times := make([]int64, n)
	rows := make([][][]byte, n)
	for i := range rows {
		times[i] = 1714564800000 + int64(i)
		rows[i] = Fields(fmt.Sprintf("my-first-post-%06d", i), "en")
	}
	return times, rows
}

func TestPureGoEquivalentIsEquivalent(t *testing.T) {
	times, rows := benchInputs(100)
	for i := range rows {
		want, _ := DeriveULID(times[i], Options{}, rows[i]...)
		if got := pureGo(times[i], rows[i]...); got != want.String() {
			t.Fatalf("%s != %s", got, want)
		}
	}
}

var (
	speedRounds = flag.Int("samekey.rounds", 0, "rounds of the speed table (just bench-go); 0 leaves it out")
	sink        int // results land here so that the compiler cannot drop the work
)

// TestSpeedTable prints ns per id for each way to make one, against the pure-Go peer in
// the same run: rounds interleave the contenders, and the table gives each one's median.
func TestSpeedTable(t *testing.T) {
	if *speedRounds == 0 {
		t.Skip("the speed table runs with -samekey.rounds=N (just bench-go)")
	}
	const batch = 1024
	const perRound = 256 * batch
	times, rows := benchInputs(batch)
	d, _ := NewDeriver(Options{})
	id, _ := DeriveULID(times[0], Options{}, rows[0]...)
	text := id.String()
	type contender struct {
		name string
		peer bool // compared with the pure-Go peer
		run  func()
	}
	each := func(f func(i int)) func() {
		return func() {
			for i := 0; i < perRound; i++ {
				f(i % batch)
			}
		}
	}
	contenders := []contender{
		{"pure Go (crypto/sha256 + encoding/base32)", false, each(func(i int) { sink += len(pureGo(times[i], rows[i]...)) })},
		{"DeriveULID + String()", true, each(func(i int) {
			u, _ := DeriveULID(times[i], Options{}, rows[i]...)
			sink += len(u.String())
		})},
		{"Deriver.Derive + String()", true, each(func(i int) {
			u, _ := d.Derive(times[i], rows[i]...)
			sink += len(u.String())
		})},
		{"Deriver.DeriveManyText (1024 rows a call)", true, func() {
			for n := 0; n < perRound; n += batch {
				out, _ := d.DeriveManyText(times, rows)
				sink += len(out[batch-1])
			}
		}},
		{"Deriver.DeriveMany (1024 rows a call, 16-byte ids)", true, func() {
			for n := 0; n < perRound; n += batch {
				out, _ := d.DeriveMany(times, rows)
				sink += int(out[batch-1][15])
			}
		}},
		{"step: an empty cgo call", false, each(func(int) { sink += emptyCall() })},
		{"step: pack the request (Go)", false, each(func(i int) {
			var stack [packStack]byte
			p, _ := pack(stack[:0], []byte{1}, "", nil, rows[i])
			sink += len(p)
		})},
		{"step: DeriveULID (pack, one cgo call, the core)", false, each(func(i int) {
			u, _ := DeriveULID(times[i], Options{}, rows[i]...)
			sink += int(u[15])
		})},
		{"step: ULID.String() (Go)", false, each(func(int) { sink += len(id.String()) })},
		{"step: ParseULID (one cgo call)", false, each(func(int) {
			u, _ := ParseULID(text)
			sink += int(u[15])
		})},
	}
	samples := make([][]float64, len(contenders))
	for r := 0; r < *speedRounds; r++ {
		for c, ct := range contenders {
			start := time.Now()
			ct.run()
			samples[c] = append(samples[c], float64(time.Since(start).Nanoseconds())/perRound)
		}
	}
	median := func(s []float64) float64 { s = slices.Clone(s); slices.Sort(s); return s[len(s)/2] }
	peer := median(samples[0])
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d rounds of %d ids each, medians (ratio = pure-Go ns / ns: above 1 is faster than pure Go)\n\n", *speedRounds, perRound)
	fmt.Fprintf(&b, "| %-50s | %8s | %14s |\n|%s|%s|%s|\n", "way to make an id", "ns / id", "x pure Go", strings.Repeat("-", 52), strings.Repeat("-", 10), strings.Repeat("-", 16))
	for c, ct := range contenders {
		m := median(samples[c])
		ratio := ""
		if ct.peer {
			ratio = fmt.Sprintf("%.2fx", peer/m)
		}
		fmt.Fprintf(&b, "| %-50s | %8.1f | %14s |\n", ct.name, m, ratio)
	}
	t.Log(b.String())
}

// Go's own benchmarks, for profiling one path (go test -bench . -cpuprofile ...).
func BenchmarkDeriveULID(b *testing.B) {
	times, rows := benchInputs(1024)
	for i := 0; i < b.N; i++ {
		u, _ := DeriveULID(times[i%1024], Options{}, rows[i%1024]...)
		sink += len(u.String())
	}
}

func BenchmarkDeriveManyText(b *testing.B) {
	times, rows := benchInputs(1024)
	d, _ := NewDeriver(Options{})
	for i := 0; i < b.N; i++ {
		out, _ := d.DeriveManyText(times, rows)
		sink += len(out[1023])
	}
}
