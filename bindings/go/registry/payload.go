package registry

import (
	"bytes"
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

// rewindable hashes a source that can be read from its start again (a file reopened, a
// seeker sought back), once per scheme of the ring, then sends it from its start.
func rewindable(ring *samekey.KeyRing, open func() (io.ReadCloser, error)) (*payload, error) {
	p := &payload{mediaType: mediaBytes, hashes: map[samekey.Scheme]string{}, done: func() error { return nil }}
	for _, s := range ring.Accepted() {
		r, err := open()
		if err != nil {
			return nil, err
		}
		counted := &counter{r: r}
		h, err := samekey.ContentHashReader(s, counted)
		r.Close()
		if err != nil {
			return nil, err
		}
		p.hashes[s], p.size, p.bodySize = h, counted.n, counted.n
	}
	var current io.ReadCloser
	p.open = func() (io.Reader, error) {
		if current != nil {
			current.Close()
		}
		r, err := open()
		current = r
		return r, err
	}
	p.done = func() error {
		// The transport closes a request's body; a body it did not reach is closed here.
		if current != nil {
			current.Close()
		}
		return nil
	}
	return p, nil
}

func file(ring *samekey.KeyRing, path string) (*payload, error) {
	return rewindable(ring, func() (io.ReadCloser, error) { return os.Open(path) })
}

func reader(ring *samekey.KeyRing, r io.Reader) (*payload, error) {
	if s, ok := r.(io.ReadSeeker); ok {
		start, err := s.Seek(0, io.SeekCurrent)
		if err == nil {
			return rewindable(ring, func() (io.ReadCloser, error) {
				_, err := s.Seek(start, io.SeekStart)
				return io.NopCloser(s), err
			})
		}
	}
	return streamed(ring, r), nil
}

// streamed sends r once, hashing it as it goes through a pipe per scheme.
func streamed(ring *samekey.KeyRing, r io.Reader) *payload {
	p := &payload{mediaType: mediaBytes, size: -1, bodySize: -1}
	started := false
	type result struct {
		scheme samekey.Scheme
		hash   string
		err    error
	}
	var results chan result
	var writers []*io.PipeWriter
	var hr *hashingReader
	p.open = func() (io.Reader, error) {
		if started && !hr.read {
			return hr, nil // nothing of it was sent: the attempt before failed first
		}
		if started {
			return nil, &Error{Code: CodeNotRewindable, Detail: "the stream was partly sent and cannot be read again; register a file or an io.ReadSeeker to have it retried"}
		}
		started = true
		schemes := ring.Accepted()
		results = make(chan result, len(schemes))
		var sinks []io.Writer
		for _, s := range schemes {
			pr, pw := io.Pipe()
			writers = append(writers, pw)
			sinks = append(sinks, pw)
			go func(s samekey.Scheme) {
				h, err := samekey.ContentHashReader(s, pr)
				pr.CloseWithError(err)
				results <- result{s, h, err}
			}(s)
		}
		hr = &hashingReader{r: r, sink: io.MultiWriter(sinks...)}
		return hr, nil
	}
	p.done = func() error {
		if !started {
			return nil
		}
		for _, w := range writers {
			w.Close()
		}
		p.hashes = map[samekey.Scheme]string{}
		for range writers {
			res := <-results
			if res.err != nil {
				return res.err
			}
			p.hashes[res.scheme] = res.hash
		}
		return nil
	}
	return p
}

type hashingReader struct {
	r    io.Reader
	sink io.Writer
	read bool
}

func (h *hashingReader) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	if n > 0 {
		h.read = true
		if _, werr := h.sink.Write(b[:n]); werr != nil {
			return n, werr
		}
	}
	return n, err
}

type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
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
