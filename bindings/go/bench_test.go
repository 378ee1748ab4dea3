package samekey

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"testing"
)

// The pure-Go equivalent: crypto/sha256 from a copied tag state, the same framing, and
// base32 text through encoding/base32 with the Crockford alphabet.
var crockford = base32.NewEncoding("0123456789ABCDEFGHJKMNPQRSTVWXYZ").WithPadding(base32.NoPadding)

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
	return crockford.EncodeToString(id[:17])[:26]
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

func BenchmarkPureGo(b *testing.B) {
	times, rows := benchInputs(1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = pureGo(times[i%1024], rows[i%1024]...)
	}
}

func BenchmarkDeriveULID(b *testing.B) {
	times, rows := benchInputs(1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, _ := DeriveULID(times[i%1024], Options{}, rows[i%1024]...)
		_ = id.String()
	}
}

func BenchmarkDeriverDeriveManyText(b *testing.B) {
	times, rows := benchInputs(1024)
	d, _ := NewDeriver(Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i += 1024 {
		_, _ = d.DeriveManyText(times, rows)
	}
}
