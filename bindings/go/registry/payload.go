package registry

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/samekey/samekey/bindings/go"
)

const (
	mediaJSON  = "application/json"
	mediaBytes = "application/octet-stream"
)

// payload is a registration's body and its content hash under each scheme of the ring,
// known before sending (hashes nil: hashed while sent).
type payload struct {
	mediaType string
	size      int64 // of what the registry stores; -1: unknown
	bodySize  int64 // of what is sent; -1: unknown
	hashes    map[samekey.Scheme]string
	// open gives one attempt's body; an error when it cannot be given again.
	open func() (io.Reader, error)
	// done is called after the answer: a payload hashed while sent has its hashes then.
	done func() error
}

// memory is data the registry stores and hashes (JSON's canonical form), sent as body.
func memory(ring *samekey.KeyRing, mediaType string, data, body []byte) (*payload, error) {
	hashes := map[samekey.Scheme]string{}
	for _, s := range ring.Accepted() {
		h, err := samekey.ContentHash(s, data)
		if err != nil {
			return nil, err
		}
		hashes[s] = h
	}
	return &payload{mediaType: mediaType, size: int64(len(data)), bodySize: int64(len(body)), hashes: hashes,
		open: func() (io.Reader, error) { return bytes.NewReader(body), nil }, done: func() error { return nil }}, nil
}

// rewindable sends a source of size bytes that can be read from its start again (a
// file reopened, a seeker sought back), from its start on each attempt. Larger than
// hashAbove (negative: never) it is hashed in a first pass (its key is known before the
// upload, to look it up); otherwise each attempt hashes what it sends, and the answered
// attempt's hashes count.
func rewindable(ring *samekey.KeyRing, open func() (io.ReadCloser, error), size, hashAbove int64) (*payload, error) {
	p := &payload{mediaType: mediaBytes, size: size, bodySize: size}
	hashFirst := hashAbove >= 0 && size > hashAbove
	if hashFirst {
		r, err := open()
		if err != nil {
			return nil, err
		}
		h := startHashing(ring, r)
		_, err = io.Copy(io.Discard, h)
		r.Close()
		if err != nil {
			h.abandon(err)
			return nil, err
		}
		if p.hashes, err = h.finish(); err != nil {
			return nil, err
		}
		p.size, p.bodySize = h.n, h.n
	}
	var current io.ReadCloser
	var sending *hashing
	p.open = func() (io.Reader, error) {
		if current != nil {
			current.Close()
		}
		if sending != nil {
			sending.abandon(errRetried)
			sending = nil
		}
		r, err := open()
		current = r
		if err != nil || hashFirst {
			return r, err
		}
		sending = startHashing(ring, r)
		return sending, nil
	}
	p.done = func() error {
		// The transport closes a request's body; a body it did not reach is closed here.
		if current != nil {
			current.Close()
		}
		if sending == nil {
			return nil
		}
		h := sending
		sending = nil
		hashes, err := h.finish()
		p.hashes, p.size = hashes, h.n
		return err
	}
	return p, nil
}

var errRetried = errors.New("the attempt was sent again")

func file(ring *samekey.KeyRing, path string, hashAbove int64) (*payload, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return rewindable(ring, func() (io.ReadCloser, error) { return os.Open(path) }, info.Size(), hashAbove)
}

func reader(ring *samekey.KeyRing, r io.Reader, hashAbove int64) (*payload, error) {
	if s, ok := r.(io.ReadSeeker); ok {
		start, err := s.Seek(0, io.SeekCurrent)
		if err == nil {
			end, err := s.Seek(0, io.SeekEnd)
			if err != nil {
				return nil, err
			}
			return rewindable(ring, func() (io.ReadCloser, error) {
				_, err := s.Seek(start, io.SeekStart)
				return io.NopCloser(s), err
			}, end-start, hashAbove)
		}
	}
	return streamed(ring, r), nil
}

// streamed sends r once, hashing it as it goes.
func streamed(ring *samekey.KeyRing, r io.Reader) *payload {
	p := &payload{mediaType: mediaBytes, size: -1, bodySize: -1}
	var h *hashing
	p.open = func() (io.Reader, error) {
		if h != nil && h.n == 0 {
			return h, nil // nothing of it was sent: the attempt before failed first
		}
		if h != nil {
			return nil, &Error{Code: CodeNotRewindable, Detail: "the stream was partly sent and cannot be read again; register a file or an io.ReadSeeker to have it retried"}
		}
		h = startHashing(ring, r)
		return h, nil
	}
	p.done = func() error {
		if h == nil {
			return nil
		}
		var err error
		p.hashes, err = h.finish()
		return err
	}
	return p
}

// hashing passes a reader's bytes on and hashes them under every scheme of a ring, each
// in a goroutine fed by a pipe: the hashes run beside the upload, not after it.
type hashing struct {
	r       io.Reader
	n       int64
	sink    io.Writer
	writers []*io.PipeWriter
	results chan hashResult
}

type hashResult struct {
	scheme samekey.Scheme
	hash   string
	err    error
}

func startHashing(ring *samekey.KeyRing, r io.Reader) *hashing {
	schemes := ring.Accepted()
	h := &hashing{r: r, results: make(chan hashResult, len(schemes))}
	sinks := make([]io.Writer, 0, len(schemes))
	for _, s := range schemes {
		pr, pw := io.Pipe()
		h.writers = append(h.writers, pw)
		sinks = append(sinks, pw)
		go func(s samekey.Scheme) {
			hash, err := samekey.ContentHashReader(s, pr)
			pr.CloseWithError(err)
			h.results <- hashResult{s, hash, err}
		}(s)
	}
	h.sink = io.MultiWriter(sinks...)
	return h
}

func (h *hashing) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	if n > 0 {
		h.n += int64(n)
		if _, werr := h.sink.Write(b[:n]); werr != nil {
			return n, werr
		}
	}
	return n, err
}

// finish ends the hashes of what was read.
func (h *hashing) finish() (map[samekey.Scheme]string, error) {
	for _, w := range h.writers {
		w.Close()
	}
	hashes := map[samekey.Scheme]string{}
	var first error
	for range h.writers {
		res := <-h.results
		if res.err != nil && first == nil {
			first = res.err
		}
		hashes[res.scheme] = res.hash
	}
	return hashes, first
}

// abandon stops the hashes (their goroutines end; nothing waits for them).
func (h *hashing) abandon(why error) {
	for _, w := range h.writers {
		w.CloseWithError(why)
	}
}

// expectedKey is the key this client derives: the ring's primary over parent.
func expectedKey(ring *samekey.KeyRing, hashes map[samekey.Scheme]string, parent *string) (string, error) {
	return ring.RevisionKey(hashes[ring.Accepted()[0]], parent, nil)
}

func mismatch(expected, answered, why string) *Error {
	return &Error{Code: CodeKeyMismatch, Expected: expected, Answered: answered,
		Detail: fmt.Sprintf("the registry answered %s, this client derived %s: %s", answered, expected, why)}
}

// check returns rev if its key is one this client derives for the payload under a
// scheme of its ring (an older scheme's key of a revision created under it is checked
// under that scheme; a parent named by another of its keys is checked as the registry
// resolved it), else a key_mismatch Error.
func check(ring *samekey.KeyRing, p *payload, parent *string, rev Revision) (Revision, error) {
	// The key this client expected is derived only to name it in an error.
	fail := func(why string) (Revision, error) {
		expected, err := expectedKey(ring, p.hashes, parent)
		if err != nil {
			return rev, err
		}
		return rev, mismatch(expected, rev.Key, why)
	}
	scheme, err := ring.SchemeOfKey(rev.Key)
	if err != nil {
		return fail(fmt.Sprintf("its scheme is not one of this client's ring %v: %v", ring.Accepted(), err))
	}
	switch {
	case (rev.Parent == nil) != (parent == nil):
		return fail(fmt.Sprintf("its parent is %v, not %v", deref(rev.Parent), deref(parent)))
	case rev.Parent != nil && *rev.Parent != *parent:
		if _, err := ring.SchemeOfKey(*rev.Parent); err != nil {
			return fail("its parent " + *rev.Parent + " is not a key of this client's ring")
		}
	}
	want := p.hashes[scheme]
	if rev.ContentHash != want {
		return fail("its content hash is " + rev.ContentHash + ", this client's " + want)
	}
	key, err := samekey.RevisionKey(want, samekey.RevisionOptions{Parent: rev.Parent, Scheme: scheme})
	if err != nil {
		return rev, err
	}
	if rev.Key != key {
		return rev, mismatch(key, rev.Key, fmt.Sprintf("derived under %s over parent %v", scheme, deref(rev.Parent)))
	}
	if p.size >= 0 && rev.Size != p.size {
		return fail(fmt.Sprintf("its size is %d bytes, the payload's %d", rev.Size, p.size))
	}
	return rev, nil
}

func deref(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}
